/**
 * `engram demo`: replay a bundled sample session through the real pipeline (the hook bundle as a
 * child process, the queue, the distiller) in a throw-away home, then print what the next session in
 * that project would be told. Touches nothing of the user's.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveProject } from '../../../capture/project-identity.ts';
import { EngramError } from '../../../core/errors.ts';
import { loadRuntime } from '../../runtime.ts';
import { createCliContext, printJson, type CliContext } from '../context.ts';
import { contextCommand } from './memory.ts';
import { flushCommand } from './worker.ts';
import { boolFlag, type CommandSpec } from '../registry.ts';

interface DemoFile {
  sessions: Record<string, unknown>[][];
}

function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (m, name: string) => vars[name] ?? m);
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  }
  return value;
}

export async function demoCommand(ctx: CliContext, flags: { json: boolean; keep: boolean }): Promise<number> {
  const demoFile = join(ctx.distDir, '..', 'assets', 'demo', 'session.json');
  const hookBundle = join(ctx.distDir, 'hook.cjs');
  if (!existsSync(demoFile) || !existsSync(hookBundle)) {
    throw new EngramError('INTERNAL', 'the demo needs the built package (dist/ and assets/)', {
      hint: 'Run "npm run build".',
    });
  }
  const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as DemoFile;
  const root = mkdtempSync(join(tmpdir(), 'engram-demo-'));
  try {
    const home = join(root, 'engram-home');
    const project = join(root, 'acme-api');
    mkdirSync(join(project, 'src', 'auth'), { recursive: true });
    // The demo is free: the heuristic distiller, whatever distill.provider the user chose.
    const env = {
      ...ctx.runtime.env,
      ENGRAM_HOME: home,
      ENGRAM_WORKER_AUTOSTART: 'false',
      ENGRAM_DISTILL_PROVIDER: 'none',
    };
    let hooks = 0;
    for (const session of demo.sessions) {
      const vars = { cwd: project, session: randomUUID() };
      for (const template of session) {
        const payload = {
          session_id: vars.session,
          transcript_path: join(root, 'transcripts', `${vars.session}.jsonl`),
          cwd: project,
          ...(fill(template, vars) as Record<string, unknown>),
        };
        const run = spawnSync(process.execPath, [hookBundle], {
          input: JSON.stringify(payload),
          env,
          cwd: project,
          encoding: 'utf8',
        });
        if (run.status !== 0)
          throw new EngramError('INTERNAL', `the hook exited ${run.status}: ${run.stderr}`);
        hooks++;
      }
    }
    const demoCtx = createCliContext(loadRuntime(env), { ...ctx.io, out: () => undefined }, project);
    await flushCommand(demoCtx, { json: false });
    if (flags.json) {
      const out: string[] = [];
      contextCommand(createCliContext(demoCtx.runtime, { ...ctx.io, out: (t) => out.push(t) }, project), {
        json: true,
        project: resolveProject(project),
        source: 'startup',
        session: randomUUID(),
      });
      printJson(ctx, { hooks, home: flags.keep ? home : null, context: JSON.parse(out.join('')) as unknown });
      return 0;
    }
    ctx.io.out(
      `engram demo: replayed ${hooks} hook calls of a recorded Claude Code session (a bug fix in a small API)\n` +
        `through the real hook, queue and distiller, in a throw-away home (${flags.keep ? home : 'deleted afterwards'}).\n` +
        `The .env secrets the session printed were scrubbed before anything was written.\n\n` +
        `What the next session in that project is told at start-up:\n\n`,
    );
    contextCommand(createCliContext(demoCtx.runtime, ctx.io, project), {
      json: false,
      project: resolveProject(project),
      source: 'startup',
      session: randomUUID(),
    });
    ctx.io.out(`\nInstall it for real with "engram install"; see what it captures with "engram status".\n`);
    return 0;
  } finally {
    if (!flags.keep) rmSync(root, { recursive: true, force: true });
  }
}

export const demoSpec: CommandSpec = {
  name: 'demo',
  group: 'Set-up',
  summary: 'replay a sample session in a throw-away home and show what engram remembers',
  usage: '[--keep]',
  flags: { keep: { type: 'boolean', description: 'keep the throw-away home (its path is printed)' } },
  examples: ['engram demo'],
  run: (ctx, args) => demoCommand(ctx, { json: args.json, keep: boolFlag(args, 'keep') }),
};

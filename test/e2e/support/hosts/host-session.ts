/**
 * One host session end to end: a temporary world (HOME, project repository, hook recorder), the host's
 * own configuration written into that HOME (model provider pointed at the loopback mock, hooks pointed at
 * the recorder), and the pinned CLI run non-interactively from an environment built from scratch, in its
 * own process group, under a hard timeout. Never touches the real ~/.codex, ~/.gemini, ~/.config/opencode
 * or ~/.copilot.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecorder, type Recorder } from './recorder.ts';

export type HostName = 'codex' | 'gemini' | 'opencode' | 'copilot';

export interface HostWorld {
  root: string;
  home: string;
  /** The project: a git repository with one commit. */
  project: string;
  recorder: Recorder;
  cleanup(): void;
}

export function createHostWorld(host: HostName): HostWorld {
  const root = mkdtempSync(join(tmpdir(), `engram-${host}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), '# demo\n');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: project,
      stdio: 'ignore',
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.invalid',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.invalid',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'init');
  return {
    root,
    home,
    project,
    recorder: createRecorder(join(root, 'recorder')),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The environment every host run starts from: PATH, the temporary HOME and TMPDIR, nothing else. */
export function baseEnv(world: HostWorld): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: world.home,
    TMPDIR: join(world.home, 'tmp'),
    LANG: 'C.UTF-8',
  };
}

export interface HostRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  args: string[];
}

/** Run `bin args` in `cwd` with exactly `env`, no stdin, killed (its whole group) after `timeoutMs`. */
export function runHostCli(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<HostRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // already gone
      }
    };
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      hardKill = setTimeout(() => killGroup('SIGKILL'), 2_000);
    }, opts.timeoutMs ?? 120_000);
    let exitGrace: NodeJS.Timeout | undefined;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(exitGrace);
      if (timedOut) killGroup('SIGKILL');
      else clearTimeout(hardKill);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode, signal, timedOut, durationMs: Date.now() - started, stdout, stderr, args });
    };
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    // A background process that inherited the pipes could hold 'close' open: finish soon after 'exit'.
    child.on('exit', (code, signal) => {
      exitGrace = setTimeout(() => finish(code, signal), 2_000);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** The shell call each host's model makes, in that host's tool schema. */
export function shellCall(host: HostName, command: string): { name: string; args: Record<string, unknown> } {
  switch (host) {
    case 'codex':
      return { name: 'exec_command', args: { cmd: command } };
    case 'gemini':
      return { name: 'run_shell_command', args: { command, description: 'Run a shell command' } };
    case 'opencode':
    case 'copilot':
      return { name: 'bash', args: { command, description: 'Run a shell command' } };
  }
}

/** Replace the world's temporary paths and the mock's port with stable placeholders. */
export function sanitise(text: string, world: HostWorld, extra: Record<string, string> = {}): string {
  const pairs: [string, string][] = [
    [world.project, '{{project}}'],
    [world.recorder.dir, '{{recorder}}'],
    [world.home, '{{home}}'],
    [world.root, '{{root}}'],
    [process.execPath, '{{node}}'],
    ...Object.entries(extra),
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [from, to] of pairs) if (from) out = out.split(from).join(to);
  return out;
}

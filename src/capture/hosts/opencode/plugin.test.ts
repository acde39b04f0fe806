/**
 * engram's opencode plugin, run for real (the generated file imported as an ES module, as opencode's Bun
 * runtime does) and driven with the callbacks and bus events recorded from the real opencode, in their
 * recorded order (test/fixtures/hosts/opencode/). Its hook is a small script that keeps each payload it
 * is given and answers the context events as engram's hook does; what it kept goes through the adapter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { capturedEventProblem } from '../../../core/event-shape.ts';
import type { CapturedEvent } from '../../../core/model.ts';
import { opencodeAdapter, opencodeContext } from './adapter.ts';
import { opencodePluginSource } from './plugin-source.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'opencode');
const SESSION = JSON.parse(readFileSync(join(FIXTURES, 'payloads', 'session.idle.json'), 'utf8'))[0].payload
  .sessionID as string;
const options = { skipTools: [], maxFieldChars: 4000, maxEventBytes: 65_536, fallbackCwd: '/fallback' };

const HOOK_SCRIPT = String.raw`const fs = require('node:fs');
const [, , log, ...args] = process.argv;
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  fs.appendFileSync(log, JSON.stringify({ args, cwd: process.cwd(), payload }) + '\n');
  const hook = payload.hook_event_name;
  if (payload.parts?.[0]?.text === 'hang') setInterval(() => {}, 1000); // a hook that never ends
  if (hook === 'SessionStart' || hook === 'UserPromptSubmit')
    process.stdout.write(JSON.stringify({ additionalContext: 'context of ' + hook }));
});
`;

type Hooks = Record<string, (...args: unknown[]) => Promise<void>>;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The plugin, loaded as opencode loads it, calling `node record.cjs <log>` as its hook. */
async function loadPlugin(
  node = process.execPath,
  hookSeconds = 30,
): Promise<{ hooks: Hooks; kept: () => Kept[]; logged: unknown[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-opencode-plugin-'));
  dirs.push(dir);
  const log = join(dir, 'hook.jsonl');
  writeFileSync(log, '');
  writeFileSync(join(dir, 'record.cjs'), HOOK_SCRIPT);
  const file = join(dir, 'engram.mjs');
  // The hook "bundle" is the recorder, given the log's path as its first word.
  const source = opencodePluginSource(
    { node, bundle: join(dir, 'record.cjs') },
    [log, '--host', 'opencode'],
    [],
    { contextSeconds: 30, endSeconds: 30, hookSeconds },
  );
  writeFileSync(file, source);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, (ctx: unknown) => Promise<Hooks>>;
  const logged: unknown[] = [];
  const client = { app: { log: async (entry: unknown) => void logged.push(entry) } };
  const plugin = mod['EngramMemory'];
  if (!plugin) throw new Error('the plugin exports no EngramMemory');
  const hooks = await plugin({ client, directory: dir, worktree: dir });
  const kept = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Kept);
  return { hooks, kept, logged };
}

interface Kept {
  args: string[];
  cwd: string;
  payload: Record<string, unknown>;
}

/** Every recorded callback and bus event, in the order opencode fired them. */
function recordedSession(): { event: string; payload: Record<string, unknown> }[] {
  const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
  const next = new Map<string, number>();
  return order.map((event) => {
    const all = JSON.parse(readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8')) as {
      payload: Record<string, unknown>;
    }[];
    const i = next.get(event) ?? 0;
    next.set(event, i + 1);
    return { event, payload: all[i]?.payload ?? {} };
  });
}

async function replay(hooks: Hooks, project: string): Promise<string[]> {
  const system: string[] = [];
  for (const { event, payload } of recordedSession()) {
    const p = JSON.parse(JSON.stringify(payload).replaceAll('{{project}}', project)) as Record<
      string,
      unknown
    >;
    if (event === 'plugin.init') continue;
    const hook = hooks[event];
    if (event.includes('.execute.') || event === 'chat.message' || event.startsWith('experimental.')) {
      if (hook) await hook(p['input'], p['output']);
    } else await hooks['event']?.({ event: { type: event, properties: p } });
    // Each model request asks for the system prompt after the prompt has been handed over.
    if (event === 'chat.message') {
      const output = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']?.({ sessionID: SESSION }, output);
      system.push(...output.system);
    }
  }
  await hooks['dispose']?.();
  return system;
}

const normalised = (payload: Record<string, unknown>): CapturedEvent => {
  const r = opencodeAdapter.normalise(payload, options);
  if (!r.ok) throw new Error(r.reason);
  expect(capturedEventProblem(r.value.event)).toBeNull();
  expect(r.value.sessionId).toBe(SESSION);
  return r.value.event;
};

describe('engram’s opencode plugin on the recorded session', () => {
  it('hands each event over in order, in Claude Code’s envelope, and adds both contexts to the system prompt', async () => {
    const { hooks, kept, logged } = await loadPlugin();
    const project = mkdtempSync(join(tmpdir(), 'engram-opencode-project-'));
    dirs.push(project);
    const system = await replay(hooks, project);
    expect(system).toEqual(['context of SessionStart', 'context of UserPromptSubmit']);
    const calls = kept();
    expect(calls.map((c) => c.payload['hook_event_name'])).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUse',
      'Stop',
      'SessionEnd',
    ]);
    expect(calls.every((c) => c.args.join(' ') === '--host opencode' && c.cwd === project)).toBe(true);
    expect(calls.every((c) => c.payload['session_id'] === SESSION && c.payload['cwd'] === project)).toBe(
      true,
    );
    expect(logged).toEqual([]);

    const events = calls.map((c) => normalised(c.payload));
    expect(events[0]).toEqual({ kind: 'session_start', source: 'startup' });
    // `opencode run` wraps a prompt with spaces in double quotes; that is what the model was sent.
    expect(events[1]).toEqual({
      kind: 'prompt',
      prompt: '"Create notes.md with a greeting for the release team, then check missing-dir"',
    });
    expect(events[2]).toEqual({
      kind: 'tool',
      tool: 'Bash',
      toolUseId: 'call_mock_s0_1',
      input: {
        command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
        description: 'Run a shell command',
      },
      response: { stdout: 'Hello, release team!\n', stderr: '', interrupted: false },
    });
    expect(events[3]).toEqual({
      kind: 'tool_failure',
      tool: 'Bash',
      toolUseId: 'call_mock_s1_2',
      input: { command: 'ls missing-dir', description: 'Run a shell command' },
      error: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory\n",
      interrupted: false,
    });
    expect(events[4]).toEqual({
      kind: 'stop',
      lastMessage: 'Created notes.md with the greeting; missing-dir does not exist.',
    });
    expect(events[5]).toEqual({ kind: 'session_end', reason: 'exit' });
  });

  it('leaves subagent sessions out, and starts a session it first meets at a prompt as resumed', async () => {
    const { hooks, kept } = await loadPlugin();
    await hooks['event']?.({
      event: {
        type: 'session.created',
        properties: { info: { id: 'ses_child', parentID: SESSION, directory: '/x' } },
      },
    });
    await hooks['chat.message']?.(
      { sessionID: 'ses_child' },
      { parts: [{ type: 'text', text: 'sub task' }] },
    );
    await hooks['chat.message']?.({ sessionID: 'ses_again' }, { parts: [{ type: 'text', text: 'go on' }] });
    await hooks['dispose']?.();
    const calls = kept().map((c) => c.payload);
    expect(calls.map((p) => [p['session_id'], p['hook_event_name']])).toEqual([
      ['ses_again', 'SessionStart'],
      ['ses_again', 'UserPromptSubmit'],
      ['ses_again', 'SessionEnd'],
    ]);
    expect(calls[0]).toMatchObject({ source: 'resume' });
  });

  it('never throws into opencode when engram cannot run: it logs, and adds nothing', async () => {
    const { hooks, logged } = await loadPlugin('/nonexistent/node');
    await hooks['event']?.({
      event: { type: 'session.created', properties: { info: { id: 'ses_x', directory: '/' } } },
    });
    await hooks['chat.message']?.({ sessionID: 'ses_x' }, { parts: [{ type: 'text', text: 'hello' }] });
    const output = { system: ['opencode’s own'] };
    await hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_x' }, output);
    await hooks['dispose']?.();
    expect(output.system).toEqual(['opencode’s own']);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged[0])).toContain('engram hook could not start');
  });

  it('stops a hook that hangs, so the session’s later events still go', async () => {
    const { hooks, kept, logged } = await loadPlugin(process.execPath, 0.5);
    await hooks['chat.message']?.({ sessionID: 'ses_h' }, { parts: [{ type: 'text', text: 'hang' }] });
    await hooks['tool.execute.after']?.(
      { tool: 'bash', sessionID: 'ses_h', callID: 'c1', args: { command: 'true' } },
      { title: 'true', output: '', metadata: { exit: 0 } },
    );
    await hooks['dispose']?.();
    expect(kept().map((c) => c.payload['hook_event_name'])).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'SessionEnd',
    ]);
    expect(JSON.stringify(logged)).toContain('took too long');
  });

  it('renders context as the plugin reads it, within the cap', () => {
    expect(JSON.parse(opencodeAdapter.renderContext('SessionStart', 'x'.repeat(20_000)))).toEqual({
      additionalContext: 'x'.repeat(10_000),
    });
    expect(opencodeAdapter.renderContext('Stop', 'x')).toBe('');
    expect(opencodeContext('a\u{1F600}', 2)).toBe(JSON.stringify({ additionalContext: 'a' }));
  });
});

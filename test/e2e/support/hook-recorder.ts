/**
 * Records what Claude Code hands its hooks: writes `$HOME/.claude/settings.json` with a command hook on
 * every event that appends the stdin payload (plus the hook's cwd and selected environment) to a JSONL
 * file. Optionally answers an event with fixed stdout, e.g. SessionStart additional context.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookRecord {
  /** The event the hook was registered for. */
  event: string;
  /** The JSON the hook got on stdin (`{raw}` if it was not JSON). */
  payload: Record<string, unknown>;
  /** The hook process's cwd. */
  cwd: string;
  /** Values of CLAUDE*, ANTHROPIC_BASE_URL, ENGRAM_*, HOME and TMPDIR in the hook's environment. */
  env: Record<string, string>;
  /** Names of all variables in the hook's environment. */
  envKeys: string[];
  at: number;
}

export interface HookRecorder {
  /** The JSONL file the hooks append to. */
  file: string;
  settingsFile: string;
  /** What was recorded (from position `since`, see `mark`). */
  records(since?: number): HookRecord[];
  /** Event names in the order they fired. */
  events(since?: number): string[];
  payloads(event: string, since?: number): Record<string, unknown>[];
  /** The current position, to look only at what fires after it (e.g. the next run). */
  mark(): number;
  /** Forget what was recorded so far. */
  clear(): void;
}

export interface HookRecorderOptions {
  events?: readonly string[];
  /** Stdout per event: a string as is, anything else as JSON. */
  respond?: Record<string, unknown>;
  /** Where the recorder script and log live; default `<home>/.hook-recorder`. */
  dir?: string;
  /** The hooks' `matcher`; default '' (all). */
  matcher?: string;
}

const RECORDER = String.raw`'use strict';
const fs = require('node:fs');
const [, , event, log, responses] = process.argv;
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const raw = Buffer.concat(chunks).toString('utf8');
  let payload;
  try { payload = JSON.parse(raw); } catch { payload = { raw }; }
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (/^(CLAUDE|ANTHROPIC_BASE_URL$|ENGRAM_|HOME$|TMPDIR$)/.test(k)) env[k] = v;
  const record = { event, payload, cwd: process.cwd(), env, envKeys: Object.keys(process.env).sort(), at: Date.now() };
  fs.appendFileSync(log, JSON.stringify(record) + '\n');
  let out;
  try { out = JSON.parse(fs.readFileSync(responses, 'utf8'))[event]; } catch { out = undefined; }
  if (out !== undefined) process.stdout.write(typeof out === 'string' ? out : JSON.stringify(out));
});
`;

/** Quote for /bin/sh. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function installHookRecorder(home: string, opts: HookRecorderOptions = {}): HookRecorder {
  const dir = opts.dir ?? join(home, '.hook-recorder');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'record.cjs');
  const file = join(dir, 'hooks.jsonl');
  const responses = join(dir, 'responses.json');
  writeFileSync(script, RECORDER);
  writeFileSync(responses, JSON.stringify(opts.respond ?? {}));
  writeFileSync(file, '');

  const settingsFile = join(home, '.claude', 'settings.json');
  mkdirSync(join(home, '.claude'), { recursive: true });
  let settings: { hooks?: Record<string, unknown[]>; [key: string]: unknown } = {};
  if (existsSync(settingsFile)) settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as typeof settings;
  const hooks = { ...settings.hooks };
  for (const event of opts.events ?? HOOK_EVENTS) {
    const command = [process.execPath, script, event, file, responses].map(sh).join(' ');
    hooks[event] = [
      ...(hooks[event] ?? []),
      { matcher: opts.matcher ?? '', hooks: [{ type: 'command', command, timeout: 30 }] },
    ];
  }
  writeFileSync(settingsFile, JSON.stringify({ ...settings, hooks }, null, 2));

  const records = (since = 0): HookRecord[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as HookRecord)
      .slice(since);
  return {
    file,
    settingsFile,
    records,
    events: (since) => records(since).map((r) => r.event),
    payloads: (event, since) =>
      records(since)
        .filter((r) => r.event === event)
        .map((r) => r.payload),
    mark: () => records().length,
    clear: () => writeFileSync(file, ''),
  };
}

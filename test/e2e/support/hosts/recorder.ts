/**
 * Records what a host hands its hooks, whatever the host: a command hook (`node record.cjs <event> …`)
 * appends its stdin payload, cwd and the names (and harmless values) of its environment to a JSONL file,
 * and answers with the stdout configured for its event. For opencode, whose hooks are in-process
 * plugin callbacks, `opencodeRecorderPlugin` writes the same records from a plugin file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostHookRecord {
  /** The event the hook was registered for (for opencode: the plugin hook or bus event type). */
  event: string;
  payload: Record<string, unknown>;
  cwd: string;
  /** Values of the host's own variables (HOME, PWD, *_PROJECT_DIR, …), secret-looking names left out. */
  env: Record<string, string>;
  /** Names of all variables in the hook's environment. */
  envKeys: string[];
  at: number;
}

/** Variables whose values are recorded; anything named like a secret never is. */
const ENV_VALUES = /^(CODEX_|GEMINI_|OPENCODE|COPILOT_|CLAUDE_PROJECT_DIR$|HOME$|PWD$)/;
const SECRET = /KEY|TOKEN|SECRET|PASSWORD|AUTH/i;

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
    if (${ENV_VALUES}.test(k) && !${SECRET}.test(k)) env[k] = v;
  const record = { event, payload, cwd: process.cwd(), env, envKeys: Object.keys(process.env).sort(), at: Date.now() };
  fs.appendFileSync(log, JSON.stringify(record) + '\n');
  let out;
  try { out = JSON.parse(fs.readFileSync(responses, 'utf8'))[event]; } catch { out = undefined; }
  if (out !== undefined) process.stdout.write(typeof out === 'string' ? out : JSON.stringify(out));
});
`;

export interface Recorder {
  dir: string;
  /** The JSONL file the hooks append to. */
  file: string;
  /** `node record.cjs <event> <log> <responses>`, quoted for /bin/sh. */
  command(event: string): string;
  /** Set the stdout each event's hook answers with (a string as is, anything else as JSON). */
  respond(responses: Record<string, unknown>): void;
  records(): HostHookRecord[];
  events(): string[];
  payloads(event: string): Record<string, unknown>[];
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function createRecorder(dir: string): Recorder {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'record.cjs');
  const file = join(dir, 'hooks.jsonl');
  const responses = join(dir, 'responses.json');
  writeFileSync(script, RECORDER);
  writeFileSync(responses, '{}');
  writeFileSync(file, '');
  const records = (): HostHookRecord[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as HostHookRecord);
  return {
    dir,
    file,
    command: (event) => [process.execPath, script, event, file, responses].map(sh).join(' '),
    respond: (r) => writeFileSync(responses, JSON.stringify(r)),
    records,
    events: () => records().map((r) => r.event),
    payloads: (event) =>
      records()
        .filter((r) => r.event === event)
        .map((r) => r.payload),
  };
}

/**
 * An opencode plugin (plain ES module, loaded by opencode's Bun runtime) that records every bus event and
 * the tool and chat hooks into `recorder.file`, and adds `systemContext` (when given) to the system prompt
 * through `experimental.chat.system.transform`.
 */
export function opencodeRecorderPlugin(recorder: Recorder, systemContext?: string): string {
  return `import { appendFileSync } from 'node:fs';
const LOG = ${JSON.stringify(recorder.file)};
const CONTEXT = ${JSON.stringify(systemContext ?? null)};
const rec = (event, payload) =>
  appendFileSync(LOG, JSON.stringify({ event, payload, cwd: process.cwd(), env: {}, envKeys: [], at: Date.now() }) + '\\n');
export const EngramRecorder = async ({ directory, worktree, project }) => {
  rec('plugin.init', { directory, worktree, project });
  return {
    event: async ({ event }) => rec(event.type, event.properties ?? {}),
    'chat.message': async (input, output) => rec('chat.message', { input, output }),
    'tool.execute.before': async (input, output) => rec('tool.execute.before', { input, output }),
    'tool.execute.after': async (input, output) => rec('tool.execute.after', { input, output }),
    'experimental.text.complete': async (input, output) => rec('experimental.text.complete', { input, output }),
    'experimental.session.compacting': async (input, output) =>
      rec('experimental.session.compacting', { input, output }),
    'experimental.chat.system.transform': async (input, output) => {
      if (CONTEXT) output.system.push(CONTEXT);
    },
  };
};
`;
}

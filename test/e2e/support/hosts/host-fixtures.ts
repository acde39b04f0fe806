/**
 * The scripted session every host test runs, and the writer of its sanitised recordings into
 * `test/fixtures/hosts/<host>/` (only when ENGRAM_RECORD_HOST_FIXTURES=1; the tests never depend on it).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sequence, type Script } from '../../../support/mock-models/server.ts';
import { sanitise, shellCall, type HostName, type HostWorld } from './host-session.ts';

export const SESSION_PROMPT = 'Create notes.md with a greeting for the release team, then check missing-dir';
export const GREETING_COMMAND = "printf 'Hello, release team!\\n' > notes.md && cat notes.md";
export const FAILING_COMMAND = 'ls missing-dir';
export const FINAL_TEXT = 'Created notes.md with the greeting; missing-dir does not exist.';
/** What the tests' session-start hooks inject; the mock must see it in the first request. */
export const CONTEXT_MARKER = 'ENGRAM-TEST-CONTEXT: this project keeps release notes in notes.md.';

/** A successful shell call, a failing one, then the final answer. */
export function sessionScript(host: HostName): Script {
  return sequence([
    { toolCalls: [shellCall(host, GREETING_COMMAND)] },
    { toolCalls: [shellCall(host, FAILING_COMMAND)] },
    { text: FINAL_TEXT },
  ]);
}

export const recordingFixtures = () => process.env['ENGRAM_RECORD_HOST_FIXTURES'] === '1';

export interface FixtureSet {
  /** Files copied as written (sanitised), by their name in the fixture directory. */
  transcripts: Record<string, string>;
  /** Extra placeholders, e.g. the CLI's install directory or the mock's port. */
  placeholders: Record<string, string>;
  /** A folder under the host's fixtures for a second recorded session (`file-tools`). */
  subdir?: string;
}

/**
 * Write `payloads/<event>.json` (every payload of that event, in order, with the hook's cwd and
 * environment), `order.json` (event names in firing order) and the transcripts, all sanitised.
 */
export function writeHostFixtures(host: HostName, world: HostWorld, set: FixtureSet): void {
  const base = fileURLToPath(new URL(`../../../fixtures/hosts/${host}/`, import.meta.url));
  const dir = set.subdir ? join(base, set.subdir) : base;
  rmSync(join(dir, 'payloads'), { recursive: true, force: true });
  mkdirSync(join(dir, 'payloads'), { recursive: true });
  const clean = (s: string) => sanitise(s, world, set.placeholders);
  const records = world.recorder.records();
  writeFileSync(
    join(dir, 'order.json'),
    `${JSON.stringify(
      records.map((r) => r.event),
      null,
      2,
    )}\n`,
  );
  const byEvent = new Map<string, unknown[]>();
  for (const r of records) {
    const entry = { payload: r.payload, cwd: r.cwd, env: r.env, envKeys: r.envKeys };
    byEvent.set(r.event, [...(byEvent.get(r.event) ?? []), entry]);
  }
  for (const [event, entries] of byEvent)
    writeFileSync(join(dir, 'payloads', `${event}.json`), `${clean(JSON.stringify(entries, null, 2))}\n`);
  for (const [name, file] of Object.entries(set.transcripts))
    writeFileSync(join(dir, name), clean(readFileSync(file, 'utf8')));
}

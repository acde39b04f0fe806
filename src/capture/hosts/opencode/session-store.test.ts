/**
 * opencode's session store → engram's session log → transcript entries, on what the real opencode
 * 1.18.33 wrote (test/fixtures/hosts/opencode/: `store.json`, the `session`, `message` and `part` tables
 * and rows of one session, loaded into a real SQLite file here; `export.json`, `opencode export` of
 * another session). Recorded by test/e2e/opencode-backfill.test.ts and host-opencode.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { opencodeFixture, recordedDatabase } from './recorded-store.test-support.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../core/transcript.ts';
import { fileFingerprint, fingerprintMatches, readJsonlFrom } from '../../transcript/read-jsonl.ts';
import { transcriptReaderFor, transcriptSessionId } from '../transcript-readers.ts';
import { transcriptFinder } from '../transcript-finders.ts';
import {
  opencodeSessionLogs,
  readOpencodeDatabase,
  readOpencodeExport,
  writeSessionLog,
  type OpencodeSession,
} from './session-store.ts';

const fixture = opencodeFixture;

/** Read a log as the worker does: its reader, from `offset`. */
function parse(path: string, offset = 0) {
  const reader = transcriptReaderFor(path);
  const chunk = readJsonlFrom(path, offset, { peek: reader.peek });
  const parser = reader.parser([], []);
  for (const line of chunk.lines) parser.add(line.value);
  return { reader, chunk, parsed: parser.result() };
}

const brief = (e: TranscriptEntry) =>
  e.kind === 'tool_call'
    ? {
        kind: e.kind,
        name: e.name,
        input: e.input,
        result: e.result && { text: e.result.text, isError: e.result.isError },
      }
    : e.kind === 'prompt' || e.kind === 'assistant_text'
      ? { kind: e.kind, text: e.text }
      : { kind: e.kind };

describe('opencode sessions read from its store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-opencode-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the prompt, the shell calls with their results (one failing) and the answer', () => {
    const [session] = readOpencodeDatabase(recordedDatabase(dir));
    expect(session?.info).toMatchObject({ directory: '{{project}}', version: '1.18.33', parentID: null });
    const log = writeSessionLog(session as OpencodeSession, join(dir, 'logs'));
    const { reader, parsed } = parse(log);
    expect(reader.host).toBe('opencode');
    expect(transcriptSessionId(log)).toBe(session?.info.id);
    expect(parsed.sessionId).toBe(session?.info.id);
    expect(parsed.cwd).toBe('{{project}}');
    expect(parsed.entries.map(brief)).toEqual([
      {
        kind: 'prompt',
        // `opencode run` stored the prompt in the double quotes it added.
        text: '"Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml."',
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        input: {
          command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
          description: 'Run a shell command',
        },
        result: { text: 'Hello, release team!\n', isError: false },
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        input: { command: 'ls missing-dir', description: 'Run a shell command' },
        result: {
          text: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory\n",
          isError: true,
        },
      },
      {
        kind: 'assistant_text',
        text: 'Noted: pnpm only. The greeting is in notes.md; missing-dir does not exist.',
      },
    ]);
    const call = parsed.entries[1];
    expect(call?.kind === 'tool_call' && call.id).toBe('call_mock_s0_1');
    expect(parsed.usage.map((u) => [u.model, u.input, u.output])).toEqual([
      ['mock-model', 100, 20],
      ['mock-model', 100, 20],
      ['mock-model', 100, 20],
    ]);
    // The step markers and the patch part carry nothing engram keeps; every message was seen.
    expect(parsed.types.get('assistant')).toEqual({ seen: 3, skipped: 0 });
  });

  it('reads an `opencode export` the same way', () => {
    const session = readOpencodeExport(fixture('export.json'));
    const log = writeSessionLog(session as OpencodeSession, dir);
    const { parsed } = parse(log);
    expect(parsed.entries.map((e) => e.kind)).toEqual(['prompt', 'tool_call', 'tool_call', 'assistant_text']);
    expect(parsed.entries.map(brief)[3]).toEqual({
      kind: 'assistant_text',
      text: 'Created notes.md with the greeting; missing-dir does not exist.',
    });
    expect(readOpencodeExport('{"not":"a session"}')).toBeNull();
  });

  it('grows its log by appending while the session goes on, and starts it over when it changed', () => {
    const full = readOpencodeExport(fixture('export.json')) as OpencodeSession;
    const unfinished = structuredClone(full);
    // The last answer still being written: it and what follows wait for the next read.
    delete (unfinished.messages[3]?.info['time'] as Record<string, unknown>)['completed'];
    const log = writeSessionLog(unfinished, dir);
    const first = parse(log);
    expect(first.parsed.entries.map((e) => e.kind)).toEqual(['prompt', 'tool_call', 'tool_call']);
    const print = fileFingerprint(log);

    writeSessionLog(full, dir);
    expect(fingerprintMatches(log, print)).toBe(true);
    const rest = parse(log, first.chunk.nextOffset);
    expect(rest.parsed.entries.map((e) => e.kind)).toEqual(['assistant_text']);

    // opencode updating a finished message (the user message's diffs) appends nothing, rewrites nothing.
    const size = readFileSync(log).length;
    const updated = structuredClone(full);
    (updated.messages[0] as { info: Record<string, unknown> }).info['summary'] = { diffs: [] };
    writeSessionLog(updated, dir);
    expect(readFileSync(log).length).toBe(size);

    // A reverted turn: the log is written anew, and its first bytes say so (the reader starts over).
    writeSessionLog({ ...full, messages: full.messages.slice(0, 1) }, dir);
    expect(fingerprintMatches(log, print)).toBe(false);
    expect(parse(log).parsed.entries.map((e) => e.kind)).toEqual(['prompt']);
  });

  it('finds the sessions of a data folder, a subagent’s as such, only with a folder for the logs', () => {
    const db = new Database(recordedDatabase(dir));
    db.pragma('foreign_keys = OFF');
    const child = db.prepare('SELECT * FROM session').get() as Record<string, unknown>;
    db.prepare(
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      'ses_child',
      child['project_id'],
      child['id'],
      'child',
      child['directory'],
      'sub',
      '1.18.33',
      1795840300000,
      1795840300000,
    );
    db.close();
    const finder = transcriptFinder('opencode');
    expect(finder?.roots({ XDG_DATA_HOME: '/x/data' }, '/home/u')).toEqual(['/x/data/opencode']);
    expect(finder?.roots({}, '/home/u')).toEqual(['/home/u/.local/share/opencode']);
    expect(finder?.find(dir)).toEqual([]);
    const files = finder?.find(dir, join(dir, 'engram')) ?? [];
    expect(files.map((f) => [f.host, f.subagent, f.cwd])).toEqual([
      ['opencode', false, '{{project}}'],
      ['opencode', true, '{{project}}'],
    ]);
    expect(files[0]?.path).toBe(join(dir, 'engram', 'opencode', `${String(child['id'])}.jsonl`));
    // The session's last message is when it was active, not when engram wrote its log.
    expect(files[0]?.mtimeMs).toBe(1795840199410);
    // A folder of `opencode export` files.
    writeFileSync(join(dir, 'session.json'), fixture('export.json'));
    expect(opencodeSessionLogs(join(dir, 'session.json'), join(dir, 'logs2')).map((f) => f.host)).toEqual([
      'opencode',
    ]);
  });
});

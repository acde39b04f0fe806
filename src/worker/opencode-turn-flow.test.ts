/**
 * An opencode turn through the worker as it happens live (real SQLite for engram and for opencode's
 * store, the opencode adapter, the store recorded from opencode 1.18.33): the plugin's events name
 * opencode's store as the transcript, and the turn's end writes the session's log from it, so what the
 * assistant said between its tool calls — which no plugin event carries — is distilled with the turn.
 * Backfill afterwards reads the same log from where the turn left it (nothing twice). A store that is
 * missing or locked leaves the turn to the plugin's events, with the reason logged.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedDatabase } from '../capture/hosts/opencode/recorded-store.test-support.ts';
import { resolveProjectIdentity } from '../capture/project-identity.ts';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { opencodeCapture, opencodePass } from './opencode-capture.test-support.ts';
import { backfill } from './backfill.ts';

const SESSION = 'ses_ddf954e4cffemJUIqns08mG3Sd';
const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const ANSWER = 'Noted: pnpm only. The greeting is in notes.md; missing-dir does not exist.';
const GREETING = "printf 'Hello, release team!\\n' > notes.md && cat notes.md";
/** Words of the assistant's before its first shell call (added to the recorded message's parts). */
const DECISION =
  'I will use printf instead of echo to write the greeting into notes.md, since printf writes the newline the same way in every shell.';
// The recorded session's times: the prompt, the first shell call's message, the last message's end.
const PROMPT_AT = 1795840193128;
const CALL_AT = 1795840198435;
const END_AT = 1795840200049;

describe('an opencode turn read from its store at the turn’s end', () => {
  let dir: string;
  let project: string;
  let dataHome: string;
  let logDir: string;
  let store: Store;
  let logger: ReturnType<typeof createMemoryLogger>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-opencode-turn-'));
    project = join(dir, 'project');
    dataHome = join(dir, 'data');
    logDir = join(dir, 'engram', 'host-sessions');
    mkdirSync(project);
    mkdirSync(join(dataHome, 'opencode'), { recursive: true });
    store = createStore(openDatabase(join(dir, 'engram.db')));
    logger = createMemoryLogger();
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** opencode's store as recorded, with the assistant's words before its first shell call. */
  const opencodeStore = () => {
    const file = recordedDatabase(join(dataHome, 'opencode'), project);
    const db = new Database(file);
    try {
      db.prepare(
        'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(
        'prt_2206ac5bf000WordsBeforeTheCall',
        'msg_2206abbe6001gntP427AR5eUlg',
        SESSION,
        1795840198070,
        1795840198080,
        JSON.stringify({ type: 'text', text: DECISION, time: { start: 1795840198070, end: 1795840198080 } }),
      );
    } finally {
      db.close();
    }
    return file;
  };

  /** One payload of engram's plugin, captured as the hook captures it (opencode's environment). */
  const capture = (hook: string, at: number, fields: Record<string, unknown>) =>
    opencodeCapture(store, { session: SESSION, project, home: dir, dataHome })(hook, at, fields);

  /** The recorded turn as the plugin hands it over, then the worker's pass. */
  const turn = () => {
    const start = capture('SessionStart', PROMPT_AT - 50, { source: 'startup' });
    capture('UserPromptSubmit', PROMPT_AT, { parts: [{ type: 'text', text: PREFERENCE }] });
    capture('PostToolUse', CALL_AT, {
      tool_name: 'bash',
      tool_input: { command: GREETING },
      tool_call_id: 'call_mock_s0_1',
      tool_output: { output: 'Hello, release team!\n', metadata: { exit: 0 } },
    });
    capture('Stop', END_AT + 20, { last_assistant_message: ANSWER });
    opencodePass(store, logger, logDir, END_AT + 1000);
    return start.transcriptPath;
  };
  const memories = () =>
    store.observations.recent(projectIdFromKey(resolveProjectIdentity(project).key) as ProjectId, 100);
  const log = () => join(logDir, 'opencode', `${SESSION}.jsonl`);

  it('distils the words said between tool calls with the turn, and backfill reads nothing twice', () => {
    const db = opencodeStore();
    expect(turn()).toBe(db); // the hook names opencode's store, from opencode's own environment
    expect(existsSync(log())).toBe(true);
    const decision = memories().find((m) => m.narrative.includes(DECISION));
    expect(decision, JSON.stringify(memories().map((m) => m.title))).toMatchObject({ type: 'decision' });
    // The log was read as a transcript, to its end.
    expect(store.transcripts.progress(log())?.offset).toBeGreaterThan(0);
    expect(logger.lines.filter((l) => l.includes('opencode'))).toEqual([]);
    const count = memories().length;

    const again = backfill(store, {
      sources: [{ host: 'opencode', root: join(dataHome, 'opencode') }],
      logDir,
      distiller: createHeuristicDistiller(),
      now: () => END_AT + 5000,
    });
    expect(again).toMatchObject({ files: 1, records: 0, created: 0, errors: [] });
    expect(memories()).toHaveLength(count);
  });

  it('without the store, distils the turn from the plugin’s events and says why', () => {
    turn();
    expect(existsSync(log())).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/opencode’s session store was not read \(no such file\)/);
    // The turn itself was distilled (its events are done), from what the plugin handed over.
    expect(store.events.pendingSessions()).toEqual([]);
    expect(memories().some((m) => m.narrative.includes(DECISION))).toBe(false);
    expect(memories().some((m) => `${m.title} ${m.narrative}`.includes('pnpm'))).toBe(true);
  });

  it('with the store locked by its writer, distils the turn from the plugin’s events and says why', () => {
    const file = opencodeStore();
    const writer = new Database(file);
    try {
      writer.pragma('journal_mode = DELETE');
      writer.exec('BEGIN EXCLUSIVE');
      turn();
      writer.exec('ROLLBACK');
    } finally {
      writer.close();
    }
    expect(logger.lines.join('\n')).toMatch(/opencode’s session store was not read \(it could not be read\)/);
    expect(store.events.pendingSessions()).toEqual([]);
    expect(memories().some((m) => m.narrative.includes(DECISION))).toBe(false);
  });
});

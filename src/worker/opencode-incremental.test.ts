/**
 * opencode turns read from its store from where the last turn's read stopped, against the same turns
 * each read from the whole session (the worker without its cursor): over many turns of a store laid out
 * as opencode 1.18.33 lays it out (real SQLite for both engram stores and for opencode's), the same
 * memories, the same summaries and a log byte for byte what one whole read of the session writes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LONG_SESSION,
  longOpencodeStore,
  type LongStore,
} from '../capture/hosts/opencode/long-store.test-support.ts';
import { readOpencodeDatabase, writeSessionLog } from '../capture/hosts/opencode/session-store.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { captureLongTurn, opencodeCapture, opencodePass } from './opencode-capture.test-support.ts';

const TURNS = 24;

describe('opencode turns read on from a cursor', () => {
  let dir: string;
  let project: string;
  let dataHome: string;
  let oc: LongStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-opencode-incremental-'));
    project = join(dir, 'project');
    dataHome = join(dir, 'data');
    mkdirSync(project);
    mkdirSync(join(dataHome, 'opencode'), { recursive: true });
    oc = longOpencodeStore(join(dataHome, 'opencode'), project);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** An engram of its own (database, session logs, log lines), fed the plugin's events of each turn. */
  const engram = (name: string) => {
    const store = createStore(openDatabase(join(dir, `${name}.db`)));
    const logDir = join(dir, name, 'host-sessions');
    const logger = createMemoryLogger();
    const capture = opencodeCapture(store, { session: LONG_SESSION, project, home: dir, dataHome });
    /** Turn `i`'s events as engram's plugin hands them over (before opencode has stored the turn). */
    const events = (i: number) => captureLongTurn(capture, oc, i);
    const pass = (i: number) => opencodePass(store, logger, logDir, oc.timesOf(i).end + 1000);
    /** Every memory the turns wrote, superseded ones too (similar turns supersede each other's). */
    const memories = () =>
      (
        store.db
          .prepare('SELECT type, title, narrative, facts, status FROM observations ORDER BY title, narrative')
          .all() as { type: string; title: string; narrative: string; facts: string; status: string }[]
      ).map((m) => ({ ...m }));
    const summaries = () =>
      (
        store.db
          .prepare(
            'SELECT request, investigated, learned, completed, next_steps, files_read, files_edited, notes FROM summaries ORDER BY rowid',
          )
          .all() as Record<string, unknown>[]
      ).map((s) => JSON.stringify(s));
    const log = () => readFileSync(join(logDir, 'opencode', `${LONG_SESSION}.jsonl`), 'utf8');
    return { store, logger, events, pass, memories, summaries, log };
  };

  it('gives the memories, summaries and log of a whole read at every turn', () => {
    const cursor = engram('cursor');
    const whole = engram('whole');
    const stores: Store[] = [cursor.store, whole.store];
    try {
      for (let i = 0; i < TURNS; i++) {
        cursor.events(i);
        whole.events(i);
        oc.addTurn();
        cursor.pass(i);
        // The other worker has no cursor: each turn reads the session whole, as before there was one.
        whole.store.db.prepare('DELETE FROM transcript_sources').run();
        whole.pass(i);
        expect(cursor.log()).toBe(whole.log());
      }
      const kept = cursor.store.db.prepare('SELECT cursor FROM transcript_sources').pluck().all() as string[];
      expect(kept.map((c) => (JSON.parse(c) as { count: number }).count)).toEqual([4 * TURNS]);
      expect(cursor.memories().length).toBeGreaterThanOrEqual(TURNS);
      expect(cursor.memories()).toEqual(whole.memories());
      expect(cursor.summaries()).toEqual(whole.summaries());
      // What the assistant said between its calls reached the memories of every turn.
      for (let i = 0; i < TURNS; i++)
        expect(cursor.memories().some((m) => m.narrative.includes(`notes-${i}.md`))).toBe(true);
      // And the log is what one whole read of the finished session writes.
      const [session] = readOpencodeDatabase(oc.file);
      if (!session) throw new Error('no session');
      const once = readFileSync(writeSessionLog(session, join(dir, 'once')), 'utf8');
      expect(cursor.log()).toBe(once);
      expect([...cursor.logger.lines, ...whole.logger.lines].filter((l) => l.includes('opencode'))).toEqual(
        [],
      );
    } finally {
      for (const s of stores) s.close();
    }
  });
});

/**
 * A session's log brought up to date from a cursor against the same session read whole, on a store laid
 * out as opencode 1.18.33 lays it out (real SQLite, the recorded turn repeated): after every turn the
 * log is byte for byte what one whole read writes, the reads after the first start at the cursor, and a
 * reverted turn, a log written by someone else, or a turn still running are read as a whole read would.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LONG_SESSION, longOpencodeStore, type LongStore } from './long-store.test-support.ts';
import { parseSessionCursor, updateSessionLog, type SessionCursor } from './session-cursor.ts';
import { readOpencodeDatabase, writeSessionLog } from './session-store.ts';

describe('an opencode session log read on from a cursor', () => {
  let dir: string;
  let oc: LongStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-opencode-cursor-'));
    mkdirSync(join(dir, 'data'));
    oc = longOpencodeStore(join(dir, 'data'), join(dir, 'project'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const logs = () => join(dir, 'logs');
  let cursor: SessionCursor | null = null;
  beforeEach(() => {
    cursor = null;
  });
  /** One turn's end as the worker meets it: the log updated from the cursor kept since the last. */
  const read = () => {
    const u = updateSessionLog(oc.file, LONG_SESSION, logs(), cursor, 1000);
    if (!u) throw new Error('no such session');
    cursor = parseSessionCursor(JSON.stringify(u.cursor));
    return { ...u, text: readFileSync(u.path, 'utf8') };
  };
  /** The session read whole into a folder of its own: what the log must hold. */
  let wholeRuns = 0;
  const whole = () => {
    const session = readOpencodeDatabase(oc.file).find((s) => s.info.id === LONG_SESSION);
    if (!session) throw new Error('no such session');
    return readFileSync(writeSessionLog(session, join(dir, `whole-${wholeRuns++}`)), 'utf8');
  };
  const sql = (text: string, ...params: unknown[]) => {
    const db = new Database(oc.file);
    try {
      db.prepare(text).run(...params);
    } finally {
      db.close();
    }
  };

  it('after every turn, the log is what one whole read writes; every read but the first from the cursor', () => {
    const kinds: boolean[] = [];
    for (let i = 0; i < 30; i++) {
      oc.addTurn();
      const r = read();
      kinds.push(r.whole);
      expect(r.text).toBe(whole());
      expect(r.cursor.count).toBe(4 * (i + 1)); // the recorded turn's four messages, each turn
    }
    expect(kinds).toEqual([true, ...Array<boolean>(29).fill(false)]);
  });

  it('a turn still running waits; once finished, it is appended as a whole read appends it', () => {
    oc.addTurn();
    read();
    oc.addTurn();
    // The turn's last answer not completed yet: opencode has written it without `time.completed`.
    const db = new Database(oc.file);
    const last = db
      .prepare(
        'SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT 1',
      )
      .get(LONG_SESSION) as { id: string; data: string };
    db.close();
    const done = JSON.parse(last.data) as { time: { created: number; completed?: number } };
    const running = { ...done, time: { created: done.time.created } };
    sql('UPDATE message SET data = ? WHERE id = ?', JSON.stringify(running), last.id);
    const partial = read();
    expect(partial.whole).toBe(false);
    expect(partial.cursor.count).toBe(7);
    expect(partial.text).toBe(whole());
    sql('UPDATE message SET data = ? WHERE id = ?', last.data, last.id);
    const after = read();
    expect(after).toMatchObject({ whole: false, cursor: { count: 8, lastId: last.id } });
    expect(after.text).toBe(whole());
  });

  it('a reverted turn (its messages gone, another in their place) is read whole and the log written anew', () => {
    for (let i = 0; i < 3; i++) oc.addTurn();
    const before = read();
    // opencode's revert removes the last turn's messages and parts; the next prompt is a new turn.
    sql(
      `DELETE FROM part WHERE message_id IN (SELECT id FROM message WHERE session_id = ? AND id LIKE 'msg_00002%')`,
      LONG_SESSION,
    );
    sql(`DELETE FROM message WHERE session_id = ? AND id LIKE 'msg_00002%'`, LONG_SESSION);
    oc.addTurn();
    const after = read();
    expect(after.whole).toBe(true);
    // What a whole read writes, under a header that says the log was written anew.
    expect(after.text.replace('"written":1', '"written":0')).toBe(whole());
    expect(after.text.split('\n')[0]).toContain('"written":1');
    expect(before.text.split('\n')[0]).toContain('"written":0');
    expect(after.cursor.count).toBe(12);
  });

  it('a log someone else wrote since (a backfill) is read whole: nothing twice', () => {
    oc.addTurn();
    read();
    oc.addTurn();
    // backfill writes the same log from the same store, appending the new turn itself.
    const session = readOpencodeDatabase(oc.file)[0];
    if (!session) throw new Error('no session');
    writeSessionLog(session, logs());
    oc.addTurn();
    const r = read();
    expect(r.whole).toBe(true);
    expect(r.text).toBe(whole());
    const ids = r.text
      .split('\n')
      .slice(1)
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { info: { id: string } }).info.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(12);
  });

  it('a log changed behind the cursor’s back by a line of its own is read whole, not appended after', () => {
    oc.addTurn();
    const first = read();
    appendFileSync(first.path, '\n');
    oc.addTurn();
    expect(read().whole).toBe(true);
  });

  it('a cursor that is not one reads the session whole', () => {
    expect(parseSessionCursor('{"bytes":1}')).toBeNull();
    expect(parseSessionCursor('not json')).toBeNull();
    expect(parseSessionCursor(null)).toBeNull();
    oc.addTurn();
    expect(read().whole).toBe(true);
  });
});

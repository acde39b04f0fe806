/**
 * What a forgotten memory came from, erased with it: the raw events and the prompt of its turn
 * (named by its provenance: `turn:<first>-<last>` capture times in its session, or the older
 * `event:<seq>`), and the transcript entries it was read from, kept as context in a transcript's tail.
 */
import type { Observation } from '../core/model.ts';
import type { Db } from './database.ts';

/** Erase the memory's turn; returns the prompts that were erased (to take them out of the summary too). */
export function eraseTurnOf(db: Db, o: Observation): string[] {
  const session = o.sessionId;
  const uuids = new Set<string>();
  const prompts: string[] = [];
  const promptsIn = (sql: string, ...args: unknown[]) =>
    prompts.push(...(db.prepare(sql).all(...args) as { prompt: string }[]).map((r) => r.prompt));
  for (const p of o.provenance) {
    const turn = /^turn:(\d+)-(\d+)$/.exec(p);
    if (turn && session) {
      const [from, to] = [Number(turn[1]), Number(turn[2])];
      promptsIn(`SELECT prompt FROM prompts WHERE session_id = ? AND at BETWEEN ? AND ?`, session, from, to);
      db.prepare(`DELETE FROM events WHERE session_id = ? AND at BETWEEN ? AND ?`).run(session, from, to);
      db.prepare(`DELETE FROM prompts WHERE session_id = ? AND at BETWEEN ? AND ?`).run(session, from, to);
      continue;
    }
    const event = /^event:(\d+)$/.exec(p);
    if (event) {
      promptsIn(`SELECT prompt FROM prompts WHERE event_seq = ?`, Number(event[1]));
      db.prepare(`DELETE FROM events WHERE seq = ?`).run(Number(event[1]));
      db.prepare(`DELETE FROM prompts WHERE event_seq = ?`).run(Number(event[1]));
      continue;
    }
    const record = /^transcript:(.+)$/.exec(p);
    if (record?.[1]) uuids.add(record[1]);
  }
  if (uuids.size === 0 || !session) return prompts;
  const rows = db.prepare(`SELECT path, tail FROM transcript_files WHERE session_id = ?`).all(session) as {
    path: string;
    tail: string;
  }[];
  for (const row of rows) {
    let tail: unknown;
    try {
      tail = JSON.parse(row.tail);
    } catch {
      tail = []; // a damaged tail holds nothing worth keeping: replace it
    }
    const entries = Array.isArray(tail) ? (tail as { uuid?: unknown; result?: { uuid?: unknown } }[]) : [];
    const named = (uuid: unknown) => typeof uuid === 'string' && uuids.has(uuid);
    const kept = entries.filter((e) => !named(e.uuid) && !named(e.result?.uuid));
    if (kept.length !== entries.length || !Array.isArray(tail))
      db.prepare(`UPDATE transcript_files SET tail = ? WHERE path = ?`).run(JSON.stringify(kept), row.path);
  }
  return prompts;
}

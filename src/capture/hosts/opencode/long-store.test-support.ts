/**
 * A long opencode session in a real SQLite file laid out as opencode 1.18.33 lays out its store: the
 * recorded tables (test/fixtures/hosts/opencode/store.json) with the indexes the real 1.18.33 creates
 * beside them (read from a store its CLI made: `message (session_id, time_created, id)`, `part
 * (message_id, id)`, `part (session_id)`), and the recorded session's one turn repeated as many turns as
 * asked, each under ids, times, file names and words of its own, plus a file read of a few kilobytes —
 * what a working session holds. Turns are added one at a time, as opencode writes them, so a test or a
 * bench can read the store at each turn's end.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { opencodeFixture } from './recorded-store.test-support.ts';

/** The recorded session's id (every turn belongs to it). */
export const LONG_SESSION = 'ses_ddf954e4cffemJUIqns08mG3Sd';

const INDEXES = [
  'CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`)',
  'CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`)',
  'CREATE INDEX `part_session_idx` ON `part` (`session_id`)',
];

type Row = Record<string, unknown>;
interface StoreFixture {
  schema: string[];
  rows: { session: Row[]; message: Row[]; part: Row[] };
}

/** The recorded turn's first and last times, and how far apart turns are set. */
const RECORDED_AT = 1795840193128;
const TURN_MS = 60_000;

/** What turn `i` is about: the words its prompt and answers use. */
export const turnWords = (i: number) => ({
  file: `notes-${i}.md`,
  missing: `missing-dir-${i}`,
  prompt: `For release ${i}, write the greeting into notes-${i}.md and check whether missing-dir-${i} exists.`,
  decision: `I will use printf instead of echo to write notes-${i}.md, since printf writes the newline the same way in every shell.`,
});

/** A file of a few kilobytes, as a read tool's output shows it. */
const fileBody = (i: number): string =>
  Array.from(
    { length: 60 },
    (_, n) =>
      `${String(n + 1).padStart(5, '0')}| export function step${i}_${n}(input: string): string { return input.trim(); }`,
  ).join('\n');

export interface LongStore {
  file: string;
  /** Turns written so far. */
  turns: () => number;
  /** Write the next turn's messages and parts, finished, as opencode does by the turn's end. */
  addTurn: () => void;
  /** The times of turn `i`'s prompt and its end. */
  timesOf: (i: number) => { prompt: number; end: number };
}

/**
 * `dir/opencode.db` holding the recorded session with no turns yet (`project`: its directory);
 * `recorded`: the text of the recorded store.json, when read from elsewhere (a bench's bundle).
 */
export function longOpencodeStore(dir: string, project: string, recorded?: string): LongStore {
  const file = join(dir, 'opencode.db');
  const text = recorded ?? opencodeFixture('store.json');
  const fixture = JSON.parse(text.replaceAll('{{project}}', project)) as StoreFixture;
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL'); // as opencode keeps it
    db.pragma('foreign_keys = OFF'); // its project table is not recorded
    for (const sql of [...fixture.schema, ...INDEXES]) db.exec(sql);
    insert(db, 'session', fixture.rows.session);
  } finally {
    db.close();
  }
  let count = 0;
  const shift = (i: number) => i * TURN_MS;
  return {
    file,
    turns: () => count,
    timesOf: (i) => ({ prompt: RECORDED_AT + shift(i), end: RECORDED_AT + shift(i) + 7000 }),
    addTurn() {
      const i = count++;
      const rows = turnRows(fixture, i, shift(i));
      const writer = new Database(file);
      try {
        writer.transaction(() => {
          insert(writer, 'message', rows.message);
          insert(writer, 'part', rows.part);
        })();
      } finally {
        writer.close();
      }
    },
  };
}

function insert(db: Database.Database, table: string, rows: Row[]): void {
  for (const row of rows) {
    const keys = Object.keys(row);
    db.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(
      ...keys.map((k) => row[k]),
    );
  }
}

/** The recorded turn's rows as turn `i`: ids, times, names and words of its own. */
function turnRows(fixture: StoreFixture, i: number, shiftMs: number): { message: Row[]; part: Row[] } {
  const words = turnWords(i);
  const tag = String(i).padStart(5, '0');
  const ids = new Map<string, string>();
  for (const r of [...fixture.rows.message, ...fixture.rows.part]) {
    const id = String(r['id']);
    ids.set(id, id.replace('_', `_${tag}`));
  }
  const rewrite = (text: string): string => {
    let out = text.replace(/1795840\d{6}/g, (t) => String(Number(t) + shiftMs));
    for (const [from, to] of ids) out = out.replaceAll(from, to);
    return out
      .replaceAll('notes.md', words.file)
      .replaceAll('missing-dir', words.missing)
      .replaceAll('call_mock_s', `call_${tag}_s`)
      .replaceAll(
        'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.',
        words.prompt,
      );
  };
  const clone = (r: Row): Row => JSON.parse(rewrite(JSON.stringify(r))) as Row;
  const message = fixture.rows.message.map(clone);
  const part = fixture.rows.part.map(clone);
  // The assistant's words before its first call, and a file it read: what no recorded row holds.
  const first = message[1] as Row;
  const at = RECORDED_AT + shiftMs + 4940;
  part.push(
    {
      id: `prt_${tag}2206ac5bf000WordsBeforeTheCall`,
      message_id: first['id'],
      session_id: LONG_SESSION,
      time_created: at,
      time_updated: at + 10,
      data: JSON.stringify({ type: 'text', text: words.decision, time: { start: at, end: at + 10 } }),
    },
    {
      id: `prt_${tag}2206ac5c0000ReadOfTheSource`,
      message_id: first['id'],
      session_id: LONG_SESSION,
      time_created: at + 20,
      time_updated: at + 40,
      data: JSON.stringify({
        type: 'tool',
        tool: 'read',
        callID: `call_${tag}_read`,
        state: {
          status: 'completed',
          input: { filePath: `${project(fixture)}/src/step-${i}.ts` },
          output: `<file>\n${fileBody(i)}\n</file>`,
          metadata: { preview: fileBody(i).slice(0, 200), truncated: false },
          title: `src/step-${i}.ts`,
          time: { start: at + 20, end: at + 40 },
        },
      }),
    },
  );
  return { message, part };
}

const project = (fixture: StoreFixture): string => String(fixture.rows.session[0]?.['directory'] ?? '');

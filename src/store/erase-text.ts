/**
 * Erasing a phrase from everything the database keeps: memories and summaries through the mutation
 * path (logged as `redact`), and the raw places — prompts, raw events, transcript tails, the LLM
 * ledger, session and project records. Then the full-text indexes are rebuilt and the file compacted
 * (VACUUM, WAL truncated), so no byte of the phrase is left in free pages, old index segments or the WAL.
 *
 * A new table that stores text must be listed in RAW_PLACES (or written through the mutation path).
 */
import { countPhrase, erasePhrase, phraseForms } from '../core/phrase.ts';
import type { Db } from './database.ts';
import type { MemoryWriter, MutationContext } from './memory-writer.ts';
import { SUMMARY_TEXT_COLUMNS } from './summary-writer.ts';

interface RawPlace {
  /** What the user is told. */
  name: string;
  table: string;
  /** A column that identifies a row (kept as is). */
  key: string;
  columns: string[];
  /** The column holding the project id, to erase within one project. */
  project: string;
}

export const RAW_PLACES: readonly RawPlace[] = [
  { name: 'prompts', table: 'prompts', key: 'rowid', columns: ['prompt'], project: 'project_id' },
  {
    name: 'raw events',
    table: 'events',
    key: 'seq',
    columns: ['payload', 'cwd', 'transcript_path', 'last_error'],
    project: 'project_id',
  },
  {
    name: 'transcript tails',
    table: 'transcript_files',
    key: 'path',
    columns: ['tail'],
    project: 'project_id',
  },
  { name: 'LLM ledger', table: 'llm_ledger', key: 'id', columns: ['detail'], project: 'project_id' },
  {
    name: 'injected context',
    table: 'context_log',
    key: 'id',
    columns: ['text', 'dropped'],
    project: 'project_id',
  },
  {
    name: 'sessions',
    table: 'sessions',
    key: 'id',
    columns: ['cwd', 'transcript_path', 'end_reason'],
    project: 'project_id',
  },
  { name: 'projects', table: 'projects', key: 'id', columns: ['name', 'root', 'key'], project: 'id' },
  // The memory graph (0008): file nodes, anchors, and what vaults keep of their notes.
  {
    name: 'file nodes',
    table: 'graph_files',
    key: 'id',
    columns: ['path', 'purpose', 'symbols'],
    project: 'project_id',
  },
  {
    name: 'anchors',
    table: 'anchors',
    key: 'rowid',
    columns: ['path', 'first_path', 'scope', 'stale_reason'],
    project: 'project_id',
  },
  {
    name: 'vault notes',
    table: 'vault_notes',
    key: 'rowid',
    columns: ['path', 'base_text', 'render_text', 'flag'],
    project: 'project_id',
  },
  {
    name: 'vault conflicts',
    table: 'vault_revisions',
    key: 'id',
    columns: ['path', 'store_text', 'vault_text'],
    project: 'project_id',
  },
  { name: 'vault folders', table: 'vault_folders', key: 'rowid', columns: ['folder'], project: 'project_id' },
];

const MEMORY_COLUMNS = [
  'title',
  'subtitle',
  'narrative',
  'facts',
  'concepts',
  'files_read',
  'files_modified',
  'search_terms',
  'status_reason',
  'subject',
];

export interface PhraseTally {
  place: string;
  rows: number;
  occurrences: number;
}

/** SQL that is true when any of `columns` holds any form of the phrase (bound as lower-cased forms). */
function holds(columns: string[], forms: number): string {
  const one = (c: string) =>
    Array.from({ length: forms }, () => `instr(lower(COALESCE(${c}, '')), ?) > 0`).join(' OR ');
  return `(${columns.map(one).join(' OR ')})`;
}

function args(columns: string[], forms: string[]): string[] {
  return columns.flatMap(() => forms.map((f) => f.toLowerCase()));
}

export interface PhraseScope {
  phrase: string;
  pattern: RegExp;
  /** The phrase's words, for derived keyword lists (see core/phrase). */
  words: RegExp | null;
  /** One project (its id), or null for every project. */
  projectId: string | null;
}

interface Hit {
  place: string;
  table: string;
  key: string;
  id: unknown;
  row: Record<string, unknown>;
  columns: string[];
}

function findHits(db: Db, scope: PhraseScope): Hit[] {
  const forms = phraseForms(scope.phrase);
  const hits: Hit[] = [];
  const scoped = (column: string) => (scope.projectId === null ? '' : ` AND ${column} = ?`);
  const project = scope.projectId === null ? [] : [scope.projectId];
  const memories = db
    .prepare(
      `SELECT id, ${MEMORY_COLUMNS.join(', ')} FROM observations WHERE status <> 'forgotten' AND (${holds(MEMORY_COLUMNS, forms.length)}
         OR id IN (SELECT observation_id FROM observation_versions WHERE ${holds(['snapshot'], forms.length)}))${scoped('project_id')}`,
    )
    .all(...args(MEMORY_COLUMNS, forms), ...args(['snapshot'], forms), ...project) as Record<
    string,
    unknown
  >[];
  for (const row of memories)
    hits.push({
      place: 'memories',
      table: 'observations',
      key: 'id',
      id: row['id'],
      row,
      columns: MEMORY_COLUMNS,
    });
  const summaries = db
    .prepare(
      `SELECT session_id, ${SUMMARY_TEXT_COLUMNS.join(', ')} FROM summaries WHERE ${holds(SUMMARY_TEXT_COLUMNS, forms.length)}${scoped('project_id')}`,
    )
    .all(...args(SUMMARY_TEXT_COLUMNS, forms), ...project) as Record<string, unknown>[];
  for (const row of summaries)
    hits.push({
      place: 'session summaries',
      table: 'summaries',
      key: 'session_id',
      id: row['session_id'],
      row,
      columns: SUMMARY_TEXT_COLUMNS,
    });
  for (const p of RAW_PLACES) {
    const rows = db
      .prepare(
        `SELECT ${p.key} AS k, ${p.columns.join(', ')} FROM ${p.table} WHERE ${holds(p.columns, forms.length)}${scoped(p.project)}`,
      )
      .all(...args(p.columns, forms), ...project) as Record<string, unknown>[];
    for (const row of rows)
      hits.push({ place: p.name, table: p.table, key: p.key, id: row['k'], row, columns: p.columns });
  }
  return hits;
}

function tally(hits: Hit[], scope: PhraseScope): PhraseTally[] {
  const out = new Map<string, PhraseTally>();
  for (const h of hits) {
    const t = out.get(h.place) ?? { place: h.place, rows: 0, occurrences: 0 };
    t.rows++;
    t.occurrences += h.columns.reduce((n, c) => n + countPhrase(String(h.row[c] ?? ''), scope.pattern), 0);
    out.set(h.place, t);
  }
  return [...out.values()];
}

/** Where the phrase occurs in the database, counted (nothing is changed). */
export function countPhraseInStore(db: Db, scope: PhraseScope): PhraseTally[] {
  return tally(findHits(db, scope), scope);
}

/**
 * Erase the phrase everywhere in the database, in one transaction; returns what was erased. Memories
 * and summaries go through the mutation path. Call `compactStore` afterwards.
 */
export function erasePhraseInStore(
  db: Db,
  writer: MemoryWriter,
  scope: PhraseScope,
  ctx: MutationContext,
): PhraseTally[] {
  const hits = findHits(db, scope);
  const erased = tally(hits, scope);
  db.transaction(() => {
    for (const h of hits) {
      if (h.table === 'observations') writer.redact(String(h.id), scope.pattern, ctx, scope.words);
      else if (h.table === 'summaries') writer.redactSummary(String(h.id), scope.pattern, ctx);
      else {
        const values = h.columns.map((c) => {
          const v = h.row[c];
          return typeof v === 'string' ? erasePhrase(v, scope.pattern) : v;
        });
        db.prepare(
          `UPDATE ${h.table} SET ${h.columns.map((c) => `${c} = ?`).join(', ')} WHERE ${h.key} = ?`,
        ).run(...values, h.id);
      }
    }
  }).immediate();
  return erased;
}

/**
 * Erase the phrase from some memories and summaries only (through the mutation path, earlier versions
 * included) and from the raw places named — what another machine's erasure may reach here (what the
 * team shared, and what was injected of it), never the rest this machine keeps. Inside the caller's
 * transaction; call `compactStore` afterwards.
 */
export function erasePhraseFrom(
  db: Db,
  writer: MemoryWriter,
  scope: PhraseScope,
  targets: { memories: ReadonlySet<string>; summaries: ReadonlySet<string>; places: readonly string[] },
  ctx: MutationContext,
): void {
  for (const h of findHits(db, scope)) {
    const id = String(h.id);
    if (h.table === 'observations') {
      if (targets.memories.has(id)) writer.redact(id, scope.pattern, ctx, scope.words);
    } else if (h.table === 'summaries') {
      if (targets.summaries.has(id)) writer.redactSummary(id, scope.pattern, ctx);
    } else if (targets.places.includes(h.place)) {
      const values = h.columns.map((c) => {
        const v = h.row[c];
        return typeof v === 'string' ? erasePhrase(v, scope.pattern) : v;
      });
      db.prepare(
        `UPDATE ${h.table} SET ${h.columns.map((c) => `${c} = ?`).join(', ')} WHERE ${h.key} = ?`,
      ).run(...values, h.id);
    }
  }
}

/**
 * Leave nothing behind in the file: rebuild the full-text indexes (their old segments still hold the
 * words), VACUUM (rewrites every page, dropping free ones) and truncate the WAL. Needs no other
 * connection reading at the end (the caller stops the worker first); returns false when the WAL could
 * not be truncated.
 */
export function compactStore(db: Db): boolean {
  for (const fts of ['observations_fts', 'summaries_fts', 'prompts_fts'])
    db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).run();
  db.exec('VACUUM');
  const result = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[];
  return result[0]?.busy === 0;
}

/**
 * What the web view reads, server side: projects, shared memories (listed, searched by their words,
 * one with its links), session summaries and links. Every statement runs in the caller's tenant
 * transaction as `engram_app`, so row-level security decides which rows exist: nothing here filters
 * by the member's grants itself. Tombstones (forgotten memories) are never shown.
 */
import { num, type Tx } from './database.ts';
import { isSealed, type LinkBody, type MemoryBody, type SummaryBody } from './protocol.ts';
import { summaryDraft } from '../core/model.ts';

export interface WebProject {
  id: string;
  key: string;
  name: string;
  /** The member's role (null: a server admin who is not a member). */
  role: string | null;
  memories: number;
  sessions: number;
  movedTo: string | null;
  /** End-to-end encrypted: the server holds only ciphertext of its records. */
  encrypted: boolean;
}

/** The projects the tenant may read, with counts. */
export async function webProjects(tx: Tx): Promise<WebProject[]> {
  const r = await tx.query<{
    id: string;
    key: string;
    name: string;
    role: string | null;
    memories: string;
    sessions: string;
    moved_to: string | null;
    encrypted: boolean | null;
  }>(
    `SELECT p.id, p.key, p.name, m.role, p.moved_to,
            (SELECT h.encrypted FROM heads h WHERE h.project_id = p.id) AS encrypted,
            (SELECT count(*) FROM entities e WHERE e.project_id = p.id AND e.kind = 'memory' AND NOT e.deleted) AS memories,
            (SELECT count(*) FROM entities e WHERE e.project_id = p.id AND e.kind = 'summary' AND NOT e.deleted) AS sessions
       FROM projects p LEFT JOIN members m ON m.project_id = p.id AND m.user_id = engram_uid()
      WHERE engram_can(p.id, 'read') OR engram_admin()
      ORDER BY p.name, p.key`,
  );
  return r.rows.map((row) => ({
    id: row.id,
    key: row.key,
    name: row.name,
    role: row.role,
    memories: num(row.memories),
    sessions: num(row.sessions),
    movedTo: row.moved_to,
    encrypted: row.encrypted === true,
  }));
}

/** What the web view shows for an end-to-end encrypted record: that it cannot show it. */
export const SEALED_TITLE = 'Encrypted memory: only a member holding the project key can read it';

export interface WebMemoryLine {
  id: string;
  projectId: string;
  type: string;
  status: string;
  title: string;
  createdAt: number;
  pinned: boolean;
  source: string;
  /** Who first shared it (the pusher of this version when older servers did not record it). */
  author: string;
  seq: number;
  /** Its body is sealed (an end-to-end encrypted project): nothing of its content is known here. */
  sealed: boolean;
}

interface EntityRow {
  entity_id: string;
  project_id: string;
  seq: string;
  version: number;
  body: unknown;
  author_name: string;
  device: string;
  origin_name: string | null;
  origin_device: string | null;
  updated_at: Date;
}

const ENTITY_COLUMNS = `e.entity_id, e.project_id, e.seq, e.version, e.body, e.author_name, e.device,
  e.origin_name, e.origin_device, e.updated_at`;

function line(row: EntityRow): WebMemoryLine {
  const sealed = isSealed(row.body);
  const b = (sealed ? {} : row.body) as Partial<MemoryBody>;
  return {
    sealed,
    id: row.entity_id,
    projectId: row.project_id,
    type: sealed ? 'encrypted' : String(b.type ?? 'memory'),
    status: String(b.status ?? 'active'),
    title: sealed ? SEALED_TITLE : String(b.title ?? row.entity_id),
    createdAt: typeof b.createdAt === 'number' ? b.createdAt : row.updated_at.getTime(),
    pinned: b.pinned === true,
    source: String(b.source ?? ''),
    author: row.origin_name ?? row.author_name,
    seq: num(row.seq),
  };
}

export interface MemoryQuery {
  project: string | null;
  /** Words to match (web search syntax: "a phrase", -not, or); null lists the newest changes first. */
  words: string | null;
  type: string | null;
  /** Only rows changed before this sequence number (the next page's cursor). */
  before: number | null;
  limit: number;
}

/** Memories matching the query: best matches first with words, else the latest changed first. */
export async function webMemories(
  tx: Tx,
  q: MemoryQuery,
): Promise<{ items: WebMemoryLine[]; next: number | null }> {
  const params: unknown[] = [q.project, q.type, q.limit + 1];
  let where = `e.kind = 'memory' AND NOT e.deleted AND ($1::text IS NULL OR e.project_id = $1)
    AND ($2::text IS NULL OR e.body ->> 'type' = $2)`;
  let from = 'entities e';
  let order = 'e.seq DESC';
  if (q.words) {
    // The memories' words live apart from the pushed rows (team migration 0008): those pushed since the
    // last search of a project are indexed first, so every memory pushed before this search is found.
    await tx.query({ name: 'web-index-words', text: 'SELECT engram_index_words($1)', values: [q.project] });
    params.push(q.words);
    // Only the words of the memory's current version (an older version's row never matches).
    from = `entities e JOIN memory_words w
      ON w.project_id = e.project_id AND w.entity_id = e.entity_id AND w.version = e.version`;
    where += ` AND w.words @@ websearch_to_tsquery('english', $${params.length})`;
    order = `ts_rank(w.words, websearch_to_tsquery('english', $${params.length})) DESC, e.seq DESC`;
  } else if (q.before !== null) {
    params.push(q.before);
    where += ` AND e.seq < $${params.length}`;
  }
  const r = await tx.query<EntityRow>(
    `SELECT ${ENTITY_COLUMNS} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT $3`,
    params,
  );
  const items = r.rows.slice(0, q.limit).map(line);
  const more = r.rows.length > q.limit && !q.words;
  return { items, next: more ? (items.at(-1)?.seq ?? null) : null };
}

export interface WebLink {
  from: string;
  kind: string;
  to: string;
  /** The other end's title when it is a memory the tenant may read. */
  fromTitle: string | null;
  toTitle: string | null;
  fromType: string | null;
  toType: string | null;
}

export interface WebMemory {
  line: WebMemoryLine;
  body: MemoryBody;
  projectName: string;
  version: number;
  /** The last pusher and machine (an edit by a teammate), beside the first author. */
  lastBy: string;
  lastDevice: string;
  originDevice: string;
  updatedAt: number;
  links: WebLink[];
}

async function linksWhere(tx: Tx, where: string, params: unknown[], limit: number): Promise<WebLink[]> {
  const r = await tx.query<{
    body: LinkBody;
    from_title: string | null;
    to_title: string | null;
    from_type: string | null;
    to_type: string | null;
  }>(
    `SELECT l.body, f.body ->> 'title' AS from_title, t.body ->> 'title' AS to_title,
            f.body ->> 'type' AS from_type, t.body ->> 'type' AS to_type
       FROM entities l
       LEFT JOIN entities f ON f.project_id = l.project_id AND f.kind = 'memory' AND NOT f.deleted AND f.entity_id = l.body ->> 'from'
       LEFT JOIN entities t ON t.project_id = l.project_id AND t.kind = 'memory' AND NOT t.deleted AND t.entity_id = l.body ->> 'to'
      WHERE l.kind = 'link' AND NOT l.deleted AND l.body ->> 'e2ee' IS NULL AND ${where}
      ORDER BY l.seq DESC LIMIT ${limit}`,
    params,
  );
  return r.rows.map((row) => ({
    from: row.body.from,
    kind: row.body.kind,
    to: row.body.to,
    fromTitle: row.from_title,
    toTitle: row.to_title,
    fromType: row.from_type,
    toType: row.to_type,
  }));
}

/** The body shown for a sealed memory: no content (the page says why). */
const SEALED_MEMORY: MemoryBody = {
  type: 'encrypted',
  title: SEALED_TITLE,
  subtitle: '',
  narrative: '',
  facts: [],
  concepts: [],
  filesRead: [],
  filesModified: [],
  sessionId: null,
  source: '',
  status: 'active',
  statusReason: null,
  supersedes: null,
  createdAt: 0,
};

/** One memory the tenant may read, with its links both ways; null when there is none. */
export async function webMemory(tx: Tx, id: string): Promise<WebMemory | null> {
  const r = await tx.query<EntityRow & { project_name: string }>(
    `SELECT ${ENTITY_COLUMNS}, p.name AS project_name FROM entities e JOIN projects p ON p.id = e.project_id
      WHERE e.kind = 'memory' AND NOT e.deleted AND e.entity_id = $1 ORDER BY e.seq DESC LIMIT 1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return null;
  const links = await linksWhere(
    tx,
    `l.project_id = $1 AND (l.body ->> 'from' = $2 OR l.body ->> 'to' = $2)`,
    [row.project_id, id],
    200,
  );
  return {
    line: line(row),
    body: (isSealed(row.body) ? SEALED_MEMORY : row.body) as MemoryBody,
    projectName: row.project_name,
    version: row.version,
    lastBy: row.author_name,
    lastDevice: row.device,
    originDevice: row.origin_device ?? row.device,
    updatedAt: row.updated_at.getTime(),
    links,
  };
}

/**
 * A node's shared links both ways (at most `limit`), and the node itself when it is a memory the tenant
 * may read; null when neither exists.
 */
export async function webNodeLinks(
  tx: Tx,
  id: string,
  limit: number,
): Promise<{ memory: WebMemoryLine | null; links: WebLink[] } | null> {
  const r = await tx.query<EntityRow>(
    `SELECT ${ENTITY_COLUMNS} FROM entities e
      WHERE e.kind = 'memory' AND NOT e.deleted AND e.entity_id = $1 ORDER BY e.seq DESC LIMIT 1`,
    [id],
  );
  const links = await linksWhere(tx, `(l.body ->> 'from' = $1 OR l.body ->> 'to' = $1)`, [id], limit);
  const row = r.rows[0];
  if (!row && links.length === 0) return null;
  return { memory: row ? line(row) : null, links };
}

/** A project's links, newest first (the graph page). */
export function webLinks(tx: Tx, project: string, limit: number): Promise<WebLink[]> {
  return linksWhere(tx, 'l.project_id = $1', [project], limit);
}

export interface WebSession {
  sessionId: string;
  projectId: string;
  projectName: string;
  summary: SummaryBody;
  author: string;
  device: string;
  seq: number;
  /** Its body is sealed (an end-to-end encrypted project): the summary's fields are empty. */
  sealed: boolean;
}

const SUMMARY_COLUMNS = `e.entity_id, e.project_id, e.seq, e.body, e.author_name, e.device, e.origin_name,
  e.origin_device, e.updated_at, p.name AS project_name`;

type SummaryRow = Omit<EntityRow, 'version'> & { project_name: string };

const sealedSummary = (at: Date): SummaryBody => ({
  ...summaryDraft(),
  sessionId: '',
  final: false,
  updatedAt: at.getTime(),
});

function session(row: SummaryRow): WebSession {
  const sealed = isSealed(row.body);
  return {
    sealed,
    sessionId: row.entity_id,
    projectId: row.project_id,
    projectName: row.project_name,
    summary: sealed ? sealedSummary(row.updated_at) : (row.body as SummaryBody),
    author: row.origin_name ?? row.author_name,
    device: row.origin_device ?? row.device,
    seq: num(row.seq),
  };
}

/** Session summaries, the latest changed first, a page at a time. */
export async function webSessions(
  tx: Tx,
  q: { project: string | null; before: number | null; limit: number },
): Promise<{ items: WebSession[]; next: number | null }> {
  const r = await tx.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM entities e JOIN projects p ON p.id = e.project_id
      WHERE e.kind = 'summary' AND NOT e.deleted AND ($1::text IS NULL OR e.project_id = $1)
        AND ($2::bigint IS NULL OR e.seq < $2)
      ORDER BY e.seq DESC LIMIT $3`,
    [q.project, q.before, q.limit + 1],
  );
  const items = r.rows.slice(0, q.limit).map(session);
  return { items, next: r.rows.length > q.limit ? (items.at(-1)?.seq ?? null) : null };
}

/** One session's summary and the memories it left; null when the tenant may read none. */
export async function webSession(
  tx: Tx,
  sessionId: string,
): Promise<{ session: WebSession; memories: WebMemoryLine[] } | null> {
  const r = await tx.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM entities e JOIN projects p ON p.id = e.project_id
      WHERE e.kind = 'summary' AND NOT e.deleted AND e.entity_id = $1 ORDER BY e.seq DESC LIMIT 1`,
    [sessionId],
  );
  const row = r.rows[0];
  if (!row) return null;
  const m = await tx.query<EntityRow>(
    `SELECT ${ENTITY_COLUMNS} FROM entities e
      WHERE e.kind = 'memory' AND NOT e.deleted AND e.project_id = $1 AND e.body ->> 'sessionId' = $2
      ORDER BY (e.body ->> 'createdAt')::bigint, e.entity_id LIMIT 500`,
    [row.project_id, sessionId],
  );
  return { session: session(row), memories: m.rows.map(line) };
}

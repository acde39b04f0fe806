/**
 * Embeddings: one float32 vector per (observation, embedder) in a plain table, and nearest-neighbour
 * search through sqlite-vec.
 *
 * KNN strategy, chosen by measurement (`npm run bench:vectors`, 384 dimensions, 2 cores): an exact
 * `vec_distance_cosine` scan costs ~4–6 ms per 1k vectors (363 ms at 100k), so a scope of up to
 * `exactLimit` vectors (default 4000) is searched exactly. Past that, a vec0 index of binary-quantised
 * vectors (one per embedder and dimension, created lazily and filled from the plain table) yields
 * oversampled candidates (16 per result asked, at least 100) that are re-ranked by exact cosine
 * distance: at 100k vectors p50 24 ms / p95 33 ms over all projects and 17 ms in a 50k project, with
 * recall@10 0.90–0.94 against the exact answer (1.0 in small projects); about 2–3× slower while the
 * machine is loaded by other work. A float vec0 index took 60–80 ms at 100k.
 *
 * The sqlite-vec extension is injected (`loadExtension`) and loaded on first use only, so the hook
 * bundles, which build the same store, never load it.
 */
import type { ProjectId } from '../core/ids.ts';
import { EngramError } from '../core/errors.ts';
import type { Db } from './database.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

/** Loads sqlite-vec into a connection (e.g. `sqliteVec.load`), supplied by the composition roots. */
export type VectorExtensionLoader = (db: Db) => void;

export interface VectorsRepoOptions {
  loadExtension?: VectorExtensionLoader | undefined;
  /** Scopes with at most this many vectors are searched exactly, without the quantised index (default 4000). */
  exactLimit?: number;
  /** Quantised candidates re-ranked exactly per result asked for (default 16, at least 100 in all). */
  oversample?: number;
}

/** An active observation that has no vector yet for an embedder: what to embed. */
export interface EmbeddingSource {
  observationId: string;
  projectId: ProjectId;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string[];
  concepts: string[];
}

export interface VectorNeighbour {
  observationId: string;
  /** Cosine distance (0 = same direction, 2 = opposite). */
  distance: number;
}

export interface VectorUpsert {
  observationId: string;
  projectId: ProjectId;
  vector: Float32Array;
}

const toBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const MAX_CANDIDATES = 4096;

export function createVectorsRepo(db: Db, options: VectorsRepoOptions = {}) {
  const exactLimit = options.exactLimit ?? 4000;
  const oversample = options.oversample ?? 16;
  let loaded = false;
  const ensureLoaded = (): void => {
    if (loaded) return;
    if (!options.loadExtension) {
      throw new EngramError('STORE_FAILED', 'vector search needs the sqlite-vec extension, not loaded here');
    }
    try {
      options.loadExtension(db);
    } catch (error) {
      throw new EngramError('STORE_FAILED', 'cannot load the sqlite-vec extension', {
        cause: error,
        hint: 'Reinstall engram so that its sqlite-vec dependency matches this platform.',
      });
    }
    loaded = true;
  };

  const upsert = lazyStatement(
    db,
    `INSERT INTO embeddings (observation_id, embedder_id, project_id, dims, vector, created_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (embedder_id, observation_id) DO UPDATE SET
       project_id = excluded.project_id, dims = excluded.dims, vector = excluded.vector,
       created_at = excluded.created_at
     RETURNING rowid`,
  );
  const isActive = lazyStatement(db, `SELECT 1 FROM observations WHERE id = ? AND status = 'active'`);
  const missing = lazyStatement(
    db,
    `SELECT o.id, o.project_id, o.title, o.subtitle, o.narrative, o.facts, o.concepts FROM observations o
     WHERE o.status = 'active'
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = ? AND e.observation_id = o.id)
     ORDER BY o.rowid DESC LIMIT ?`,
  );
  const countAll = lazyStatement(db, `SELECT COUNT(*) AS n FROM embeddings WHERE embedder_id = ?`);
  // Bounded: only whether the scope is past the exact limit matters, not its full size.
  const countScope = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM embeddings
       WHERE embedder_id = ? AND dims = ? AND (? IS NULL OR project_id = ?) LIMIT ?)`,
  );
  const pendingCount = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM observations o WHERE o.status = 'active'
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = ? AND e.observation_id = o.id)`,
  );
  const indexOf = lazyStatement(
    db,
    `SELECT table_name FROM vector_indexes WHERE embedder_id = ? AND dims = ?`,
  );
  const indexes = lazyStatement(db, `SELECT table_name FROM vector_indexes`);
  const dimsOf = lazyStatement(
    db,
    `SELECT DISTINCT dims FROM (SELECT dims FROM embeddings WHERE embedder_id = ? LIMIT ?)`,
  );
  // No join with observations: a memory that stops being active loses its vectors at once (trigger in
  // migration 0004) and upsert skips inactive ones, so every row here belongs to an active memory.
  const exactSql = (scoped: boolean) =>
    `SELECT e.observation_id AS observationId, vec_distance_cosine(e.vector, ?) AS distance
     FROM embeddings e WHERE e.embedder_id = ? AND e.dims = ? ${scoped ? 'AND e.project_id = ?' : ''}
     ORDER BY distance LIMIT ?`;
  const exactScoped = lazyStatement(db, exactSql(true));
  const exactAll = lazyStatement(db, exactSql(false));
  const rerank = lazyStatement(
    db,
    `SELECT e.observation_id AS observationId, vec_distance_cosine(e.vector, ?) AS distance
     FROM embeddings e
     WHERE e.rowid IN (SELECT value FROM json_each(?))
     ORDER BY distance LIMIT ?`,
  );

  /** The quantised index of an embedder and dimension, created (and filled) on first need. */
  const indexTable = (embedderId: string, dims: number, create: boolean): string | null => {
    const row = indexOf().get(embedderId, dims) as { table_name: string } | undefined;
    if (row || !create) return row?.table_name ?? null;
    ensureLoaded();
    const name = `vec_index_${(indexes().all() as unknown[]).length + 1}`;
    const column = dims % 8 === 0 ? `bit[${dims}]` : `float[${dims}] distance_metric=cosine`;
    const quantise = dims % 8 === 0 ? 'vec_quantize_binary(vector)' : 'vector';
    db.transaction(() => {
      db.exec(`CREATE VIRTUAL TABLE ${name} USING vec0(project_id TEXT partition key, vector ${column})`);
      db.prepare(
        `INSERT INTO ${name} (rowid, project_id, vector)
         SELECT rowid, project_id, ${quantise} FROM embeddings WHERE embedder_id = ? AND dims = ?`,
      ).run(embedderId, dims);
      db.prepare(
        `INSERT INTO vector_indexes (embedder_id, dims, table_name, created_at) VALUES (?, ?, ?, ?)`,
      ).run(embedderId, dims, name, Date.now());
    })();
    return name;
  };

  return {
    /** Store (or replace) vectors; vectors of memories that are no longer active are skipped. */
    upsert(embedderId: string, rows: readonly VectorUpsert[], at: number): number {
      let stored = 0;
      for (const r of rows) {
        if (!isActive().get(r.observationId)) continue;
        const dims = r.vector.length;
        const { rowid } = upsert().get(
          r.observationId,
          embedderId,
          r.projectId,
          dims,
          toBlob(r.vector),
          at,
        ) as {
          rowid: number;
        };
        stored++;
        const table = indexTable(embedderId, dims, false);
        if (table) {
          ensureLoaded();
          const quantise = dims % 8 === 0 ? 'vec_quantize_binary(?)' : '?';
          db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(BigInt(rowid));
          db.prepare(`INSERT INTO ${table} (rowid, project_id, vector) VALUES (?, ?, ${quantise})`).run(
            BigInt(rowid),
            r.projectId,
            toBlob(r.vector),
          );
        }
      }
      return stored;
    },
    /** The `k` active memories nearest to `query` (cosine distance), in a project or everywhere. */
    knn(embedderId: string, query: Float32Array, projectId: ProjectId | null, k: number): VectorNeighbour[] {
      ensureLoaded();
      const dims = query.length;
      const blob = toBlob(query);
      const { n } = countScope().get(embedderId, dims, projectId, projectId, exactLimit + 1) as { n: number };
      if (n === 0 || k <= 0) return [];
      if (n <= exactLimit) {
        return (
          projectId
            ? exactScoped().all(blob, embedderId, dims, projectId, k)
            : exactAll().all(blob, embedderId, dims, k)
        ) as VectorNeighbour[];
      }
      const table = indexTable(embedderId, dims, true) as string;
      const candidates = Math.min(MAX_CANDIDATES, Math.max(k * oversample, 100));
      const quantise = dims % 8 === 0 ? 'vec_quantize_binary(?)' : '?';
      const rows = db
        .prepare(
          `SELECT rowid FROM ${table} WHERE vector MATCH ${quantise} AND k = ? ${projectId ? 'AND project_id = ?' : ''}`,
        )
        .all(blob, candidates, ...(projectId ? [projectId] : [])) as { rowid: number }[];
      return rerank().all(blob, JSON.stringify(rows.map((r) => r.rowid)), k) as VectorNeighbour[];
    },
    /**
     * Build the quantised index of an embedder once it holds more than the exact limit, so that the
     * first search past it does not pay for the build (the worker calls this after embedding).
     */
    prepareIndex(embedderId: string): boolean {
      const dims = (dimsOf().all(embedderId, exactLimit + 1) as { dims: number }[]).map((r) => r.dims);
      let built = false;
      for (const d of new Set(dims)) {
        if (indexTable(embedderId, d, false)) continue;
        const { n } = countScope().get(embedderId, d, null, null, exactLimit + 1) as { n: number };
        if (n > exactLimit) built = indexTable(embedderId, d, true) !== null || built;
      }
      return built;
    },
    /** Active memories without a vector for this embedder, newest first. */
    missing(embedderId: string, limit: number): EmbeddingSource[] {
      const rows = missing().all(embedderId, limit) as {
        id: string;
        project_id: string;
        title: string;
        subtitle: string;
        narrative: string;
        facts: string;
        concepts: string;
      }[];
      return rows.map((r) => ({
        observationId: r.id,
        projectId: r.project_id as ProjectId,
        title: r.title,
        subtitle: r.subtitle,
        narrative: r.narrative,
        facts: parseJsonList(r.facts),
        concepts: parseJsonList(r.concepts),
      }));
    },
    count(embedderId: string): number {
      return (countAll().get(embedderId) as { n: number }).n;
    },
    /** How many active memories still wait for a vector from this embedder. */
    pending(embedderId: string): number {
      return (pendingCount().get(embedderId) as { n: number }).n;
    },
    /** Drop index rows whose vector is gone (memories no longer active); returns how many. */
    prune(): number {
      const tables = (indexes().all() as { table_name: string }[]).map((r) => r.table_name);
      if (tables.length === 0) return 0;
      ensureLoaded();
      let removed = 0;
      for (const table of tables) {
        removed += db
          .prepare(`DELETE FROM ${table} WHERE rowid NOT IN (SELECT rowid FROM embeddings)`)
          .run().changes;
      }
      return removed;
    },
  };
}

export type VectorsRepo = ReturnType<typeof createVectorsRepo>;

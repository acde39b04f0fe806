import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { loadSqliteVec } from './sqlite-vec-loader.ts';
import { createStore, type Store } from './store.ts';
import { createVectorsRepo } from './vectors-repo.ts';
import { insertMemory } from './store.test-support.ts';

const P1 = projectIdFromKey('path:/one');
const P2 = projectIdFromKey('path:/two');
const EMB = 'test:unit';

function unit(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

describe('vectors repo (real SQLite + sqlite-vec)', () => {
  let dir: string;
  let store: Store;
  const add = (title: string, projectId: ProjectId = P1, at = 1): string =>
    insertMemory(store, {
      projectId,
      sessionId: 's',
      createdAt: at,
      title,
      draft: { narrative: `about ${title}`, facts: ['f1'], concepts: ['c1'] },
    });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-vectors-'));
    store = createStore(openDatabase(join(dir, 'engram.db')), { loadVectorExtension: loadSqliteVec });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns neighbours in cosine order, scoped by project, skipping inactive memories', () => {
    const a = add('a');
    const b = add('b');
    const c = add('c');
    const other = add('other project', P2);
    store.vectors.upsert(
      EMB,
      [
        { observationId: a, projectId: P1, vector: unit([1, 0, 0, 0]) },
        { observationId: b, projectId: P1, vector: unit([1, 1, 0, 0]) },
        { observationId: c, projectId: P1, vector: unit([0, 0, 1, 0]) },
        { observationId: other, projectId: P2, vector: unit([1, 0, 0, 0]) },
      ],
      10,
    );
    const q = unit([1, 0.1, 0, 0]);
    const scoped = store.vectors.knn(EMB, q, P1, 10);
    expect(scoped.map((n) => n.observationId)).toEqual([a, b, c]);
    expect(scoped[0]?.distance).toBeLessThan(0.01);
    expect(scoped[2]?.distance).toBeCloseTo(1, 5);
    expect(
      store.vectors
        .knn(EMB, q, null, 2)
        .map((n) => n.observationId)
        .sort(),
    ).toEqual([a, other].sort());
    expect(store.vectors.knn('another:embedder', q, P1, 10)).toEqual([]);

    store.memory.invalidate(a, 'wrong', { origin: 'cli', at: 20 });
    store.memory.forget(b, { origin: 'cli', at: 21 });
    expect(store.vectors.knn(EMB, q, P1, 10).map((n) => n.observationId)).toEqual([c]);
    expect(store.vectors.count(EMB)).toBe(2); // the forgotten and invalidated memories lost their vectors
    const raw = store.db.prepare('SELECT COUNT(*) AS n FROM embeddings WHERE observation_id IN (?, ?)');
    expect(raw.get(a, b)).toEqual({ n: 0 });
  });

  it('builds the index ahead of time only past the exact limit', () => {
    const repo = createVectorsRepo(store.db, { loadExtension: loadSqliteVec, exactLimit: 2 });
    const ids = ['x', 'y', 'z'].map((t) => add(t));
    repo.upsert(
      EMB,
      ids
        .slice(0, 2)
        .map((id) => ({ observationId: id, projectId: P1, vector: unit([1, 2, 3, 4, 5, 6, 7, 8]) })),
      1,
    );
    expect(repo.prepareIndex(EMB)).toBe(false);
    repo.upsert(
      EMB,
      [{ observationId: ids[2] as string, projectId: P1, vector: unit([8, 7, 6, 5, 4, 3, 2, 1]) }],
      2,
    );
    expect(repo.prepareIndex(EMB)).toBe(true);
    expect(repo.prepareIndex(EMB)).toBe(false);
    expect(repo.knn(EMB, unit([8, 7, 6, 5, 4, 3, 2, 1]), P1, 1)[0]?.observationId).toBe(ids[2]);
  });

  it('lists active memories without a vector (newest first), counts pending, skips inactive on upsert', () => {
    const a = add('a');
    const b = add('b');
    const gone = add('gone');
    store.memory.forget(gone, { origin: 'cli', at: 5 });
    expect(store.vectors.missing(EMB, 10).map((m) => m.observationId)).toEqual([b, a]);
    const first = store.vectors.missing(EMB, 1)[0];
    expect(first).toMatchObject({
      observationId: b,
      projectId: P1,
      title: 'b',
      facts: ['f1'],
      concepts: ['c1'],
    });
    expect(store.vectors.pending(EMB)).toBe(2);
    const stored = store.vectors.upsert(
      EMB,
      [
        { observationId: b, projectId: P1, vector: unit([1, 2, 3, 4]) },
        { observationId: gone, projectId: P1, vector: unit([1, 2, 3, 4]) },
      ],
      10,
    );
    expect(stored).toBe(1);
    expect(store.vectors.missing(EMB, 10).map((m) => m.observationId)).toEqual([a]);
    expect(store.vectors.missing('other', 10)).toHaveLength(2);
    expect(store.vectors.count(EMB)).toBe(1);
    expect(store.vectors.pending(EMB)).toBe(1);
  });

  it('past the exact limit, searches a lazily built quantised index and re-ranks exactly', () => {
    const repo = createVectorsRepo(store.db, { loadExtension: loadSqliteVec, exactLimit: 10 });
    const dims = 64;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      const id = add(`memory ${i}`, i % 3 === 0 ? P2 : P1, i);
      const v = unit(Array.from({ length: dims }, rand));
      vectors.set(id, v);
      repo.upsert(EMB, [{ observationId: id, projectId: i % 3 === 0 ? P2 : P1, vector: v }], i);
    }
    const [targetId, target] = [...vectors].find((_, i) => i % 3 === 1) as [string, Float32Array];
    const query = unit([...target].map((x) => x + rand() * 0.05));
    const hits = repo.knn(EMB, query, P1, 5);
    expect(hits[0]?.observationId).toBe(targetId);
    expect(hits).toHaveLength(5);
    const distances = hits.map((h) => h.distance);
    expect([...distances].sort((x, y) => x - y)).toEqual(distances);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM vector_indexes').get()).toEqual({ n: 1 });
    expect(repo.prepareIndex(EMB)).toBe(false); // already built by the search
    // Later upserts go into the index too; a memory forgotten afterwards is never returned, and prune
    // drops its index row.
    const late = add('late', P1, 999);
    repo.upsert(EMB, [{ observationId: late, projectId: P1, vector: query }], 999);
    expect(repo.knn(EMB, query, P1, 1)[0]?.observationId).toBe(late);
    store.memory.forget(late, { origin: 'cli', at: 1000 });
    expect(repo.knn(EMB, query, P1, 1)[0]?.observationId).toBe(targetId);
    expect(repo.prune()).toBe(1);
  });

  it('a connection without the extension (the hooks) keeps working once a vec0 index exists', () => {
    const repo = createVectorsRepo(store.db, { loadExtension: loadSqliteVec, exactLimit: 1 });
    const a = add('indexed a');
    const b = add('indexed b');
    repo.upsert(
      EMB,
      [
        { observationId: a, projectId: P1, vector: unit([1, 0, 0, 0, 0, 0, 0, 1]) },
        { observationId: b, projectId: P1, vector: unit([0, 1, 0, 0, 0, 0, 0, 1]) },
      ],
      1,
    );
    expect(repo.knn(EMB, unit([1, 0, 0, 0, 0, 0, 0, 0]), P1, 1)[0]?.observationId).toBe(a);
    expect(store.db.prepare('SELECT table_name FROM vector_indexes').all()).toHaveLength(1);
    const plain = createStore(openDatabase(join(dir, 'engram.db')));
    try {
      const c = plain.transaction(() => {
        plain.memory.forget(a, { origin: 'cli', at: 2 });
        return insertMemory(plain, { projectId: P1, sessionId: 's', createdAt: 3, title: 'from a hook' });
      });
      expect(c).not.toBeNull();
      expect(plain.observations.recent(P1, 10).map((o) => o.title)).toContain('from a hook');
      expect(plain.vectors.count(EMB)).toBe(1);
      expect(plain.vectors.pending(EMB)).toBe(1);
    } finally {
      plain.close();
    }
    expect(repo.knn(EMB, unit([1, 0, 0, 0, 0, 0, 0, 0]), P1, 5).map((n) => n.observationId)).toEqual([b]);
  });

  it('without the extension, counting works and searching explains what is missing', () => {
    const plain = createVectorsRepo(store.db);
    const a = add('a');
    expect(plain.missing(EMB, 5).map((m) => m.observationId)).toEqual([a]);
    expect(plain.count(EMB)).toBe(0);
    expect(() => plain.knn(EMB, unit([1, 0]), P1, 3)).toThrow(/sqlite-vec/);
  });
});

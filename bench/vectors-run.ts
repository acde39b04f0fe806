// KNN latency of store.vectors at scale: N memories with D-dimensional vectors (default 100k × 384)
// spread over 10 projects (one holds 50%), searched exactly (vec_distance_cosine scan) and through the
// binary-quantised vec0 index with exact re-ranking; reports p50/p95 latency and the index's recall@10
// against the exact answer. Vectors are clustered (topics + noise), closer to real embeddings than
// uniform noise. Usage: npm run bench:vectors -- [--n 100000] [--dims 384] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectIdFromKey, type ProjectId } from '../src/core/ids.ts';
import { openDatabase } from '../src/store/database.ts';
import { loadSqliteVec } from '../src/store/sqlite-vec-loader.ts';
import { createStore } from '../src/store/store.ts';
import { createVectorsRepo } from '../src/store/vectors-repo.ts';
import { describeLoad } from './lib/machine.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const N = flag('n', 100_000);
const DIMS = flag('dims', 384);
const QUERIES = flag('queries', 50);
const json = args.includes('--json');

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const normalise = (v: Float32Array) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const topics = Array.from({ length: 200 }, () => normalise(Float32Array.from({ length: DIMS }, rand)));
const sample = () => {
  const t = topics[Math.floor(((rand() + 1) / 2) * topics.length)] as Float32Array;
  return normalise(t.map((x) => x + rand() * 0.08));
};
const projects = Array.from({ length: 10 }, (_, i) => projectIdFromKey(`bench:${i}`));
const projectOf = (i: number): ProjectId => (i % 2 === 0 ? projects[0] : projects[1 + (i % 9)]) as ProjectId;

const dir = mkdtempSync(join(tmpdir(), 'engram-bench-vectors-'));
try {
  const store = createStore(openDatabase(join(dir, 'engram.db')), { loadVectorExtension: loadSqliteVec });
  const embedder = 'bench:clustered';
  let t = performance.now();
  const insertStmt = store.db.prepare(
    `INSERT INTO observations (id, project_id, type, title, source, created_at, updated_at, content_hash, tokens)
     VALUES (?, ?, 'fact', ?, 'import', ?, ?, ?, 1)`,
  );
  store.transaction(() => {
    const rows = [];
    for (let i = 0; i < N; i++) {
      const id = `obs_${i.toString(36).padStart(20, '0')}`;
      insertStmt.run(id, projectOf(i), `memory ${i}`, i, i, `h${i}`);
      rows.push({ observationId: id, projectId: projectOf(i), vector: sample() });
      if (rows.length === 1000) store.vectors.upsert(embedder, rows.splice(0), i);
    }
    store.vectors.upsert(embedder, rows, N);
  });
  const loadMs = performance.now() - t;
  const exact = createVectorsRepo(store.db, {
    loadExtension: loadSqliteVec,
    exactLimit: Number.MAX_SAFE_INTEGER,
  });
  const oversamples = [4, 8, 16];
  const indexedRepos = oversamples.map((oversample) =>
    createVectorsRepo(store.db, { loadExtension: loadSqliteVec, exactLimit: 0, oversample }),
  );
  t = performance.now();
  indexedRepos[0]?.knn(embedder, sample(), null, 1); // builds the index
  const indexBuildMs = performance.now() - t;
  const queries = Array.from({ length: QUERIES }, sample);
  const measure = (repo: typeof exact, projectId: ProjectId | null) => {
    const times: number[] = [];
    const results: string[][] = [];
    for (const q of queries) {
      const t0 = performance.now();
      results.push(repo.knn(embedder, q, projectId, 10).map((r) => r.observationId));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] as number;
    return { p50: pct(0.5), p95: pct(0.95), results };
  };
  const scopes: [string, ProjectId | null][] = [
    ['all projects', null],
    ['project with 50%', projects[0] as ProjectId],
    ['project with ~5.6%', projects[1] as ProjectId],
  ];
  const report = {
    vectors: N,
    dims: DIMS,
    load_ms: loadMs,
    index_build_ms: indexBuildMs,
    scopes: scopes.map(([name, pid]) => {
      const e = measure(exact, pid);
      return {
        scope: name,
        exact_ms: { p50: e.p50, p95: e.p95 },
        index: indexedRepos.map((repo, i) => {
          const x = measure(repo, pid);
          const recall =
            x.results.reduce(
              (sum, r, q) => sum + r.filter((id) => e.results[q]?.includes(id)).length / 10,
              0,
            ) / QUERIES;
          return { oversample: oversamples[i], p50: x.p50, p95: x.p95, recall_at_10: recall };
        }),
      };
    }),
  };
  store.close();
  if (json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(
      `store.vectors KNN: ${N} vectors × ${DIMS} dims (loaded in ${(loadMs / 1000).toFixed(1)} s, index built in ${indexBuildMs.toFixed(0)} ms), ${QUERIES} queries, k = 10`,
    );
    console.log(`  ${describeLoad()}, after the queries`);
    for (const s of report.scopes) {
      console.log(
        `  ${s.scope}: exact scan p50 ${s.exact_ms.p50.toFixed(1)} ms p95 ${s.exact_ms.p95.toFixed(1)} ms`,
      );
      for (const x of s.index) {
        console.log(
          `    quantised index, ${x.oversample}× candidates + exact re-rank: p50 ${x.p50.toFixed(1)} ms p95 ${x.p95.toFixed(1)} ms · recall@10 ${x.recall_at_10.toFixed(3)}`,
        );
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

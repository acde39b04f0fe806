// Ingest throughput: engram's backfill (read, parse, scrub, distil, store) against a bare
// line-split + JSON.parse of the same files, side by side in one process, alternating.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHeuristicDistiller } from '../src/distill/heuristic-distiller.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { backfill, backfillParallel, findTranscripts } from '../src/worker/backfill.ts';
import { describeLoad } from './lib/machine.ts';

// Default: the real (MIT) transcripts the tests use, in the repository.
const fixtures = process.argv[2] ?? join(import.meta.dirname, '..', 'test', 'fixtures', 'transcripts');
const copies = Number(process.env['BENCH_COPIES'] ?? 12);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);

const work = mkdtempSync(join(tmpdir(), 'engram-bench-ingest-'));
try {
  // A projects folder with `copies` projects, each a copy of the fixtures under its own session ids and
  // its own project directory (the records' cwd), so every copy's memories are new: memories are
  // deduplicated per project, and a copy in the same project would be a no-op.
  const projects = join(work, 'projects');
  for (let c = 0; c < copies; c++) {
    const dir = join(projects, `-home-user-project-${c}`);
    mkdirSync(dir, { recursive: true });
    cpSync(fixtures, dir, { recursive: true });
    for (const f of findTranscripts(dir)) {
      const text = readFileSync(f.path, 'utf8')
        .replace(/"sessionId":"([0-9a-f-]+)"/g, (_m, id: string) => `"sessionId":"${id}-c${c}"`)
        .replace(/"cwd":"([^"]+)"/g, (_m, cwd: string) => `"cwd":"${cwd}-copy-${c}"`);
      writeFileSync(f.path, text);
    }
  }
  const files = findTranscripts(projects);
  const bytes = files.reduce((n, f) => n + statSync(f.path).size, 0);
  let records = 0;

  const baseline = (): number => {
    const t = performance.now();
    let n = 0;
    for (const f of files) {
      for (const line of readFileSync(f.path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          JSON.parse(line);
          n++;
        } catch {
          // counted as bad, like the reader does
        }
      }
    }
    records = n;
    return performance.now() - t;
  };
  const engram = (i: number): { ms: number; created: number; sessions: number; projects: number } => {
    const home = join(work, `home-${i}`);
    mkdirSync(home);
    const store = createStore(openDatabase(join(home, 'engram.db')));
    const t = performance.now();
    const report = backfill(store, { root: projects, distiller: createHeuristicDistiller(), now: Date.now });
    const ms = performance.now() - t;
    const projectCount = (store.db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n;
    store.close();
    rmSync(home, { recursive: true, force: true });
    return { ms, created: report.created, sessions: report.sessions, projects: projectCount };
  };

  const threadScript = join(import.meta.dirname, '..', 'dist', 'backfill-thread.mjs');
  const threads = Math.max(2, Math.min(4, availableParallelism() - 1));
  const parallel = async (i: number): Promise<number> => {
    const home = join(work, `home-p${i}`);
    mkdirSync(home);
    const store = createStore(openDatabase(join(home, 'engram.db')));
    const t = performance.now();
    await backfillParallel(store, {
      root: projects,
      distiller: createHeuristicDistiller(),
      now: Date.now,
      threadScript,
      threads,
    });
    const ms = performance.now() - t;
    store.close();
    rmSync(home, { recursive: true, force: true });
    return ms;
  };
  const canThread = existsSync(threadScript) && process.env['BENCH_THREADS'] !== '0';

  const base: number[] = [];
  const ours: number[] = [];
  const threaded: number[] = [];
  let written = { created: 0, sessions: 0, projects: 0 };
  baseline();
  engram(-1); // warm-up
  if (canThread) await parallel(-1);
  for (let i = 0; i < rounds; i++) {
    base.push(baseline());
    const r = engram(i);
    ours.push(r.ms);
    written = r;
    if (canThread) threaded.push(await parallel(i));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const mb = bytes / 1e6;
  const b = median(base);
  const o = median(ours);
  const ratios = ours.map((x, i) => (base[i] ?? NaN) / x);
  console.log(`Machine: ${describeLoad()} (after the rounds)`);
  console.log(
    `Ingest of ${files.length} transcript files, ${mb.toFixed(1)} MB, ${records} records (${rounds} alternating rounds, medians)`,
  );
  console.log(
    `  bare line-split + JSON.parse : ${b.toFixed(0)} ms  ${(mb / (b / 1000)).toFixed(1)} MB/s  ${Math.round(records / (b / 1000))} records/s`,
  );
  console.log(
    `  engram backfill (full)       : ${o.toFixed(0)} ms  ${(mb / (o / 1000)).toFixed(1)} MB/s  ${Math.round(records / (o / 1000))} records/s  (${written.created} memories written, ${written.sessions} sessions, ${written.projects} projects)`,
  );
  console.log(
    `  engram throughput / baseline : ${(b / o).toFixed(3)} (median of round ratios ${median(ratios).toFixed(3)}); target >= 0.5 ${median(ratios) >= 0.5 ? 'OK' : 'UNDER'}`,
  );
  if (canThread) {
    const t = median(threaded);
    console.log(
      `  engram backfill, ${threads} reader threads (the CLI uses threads when it has a core to spare for committing): ${t.toFixed(0)} ms  ${(mb / (t / 1000)).toFixed(1)} MB/s  ${Math.round(records / (t / 1000))} records/s  = ${(b / t).toFixed(3)} of baseline`,
    );
  } else {
    console.log(
      '  (threaded backfill not measured: run npm run build first, on a machine with more than one core)',
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// npm run bench:viewer [-- --size 100000] [--requests N] [--renders N] [--keep [DIR]] [--json]
// The web viewer at scale: a synthetic store (bench/lib/synthetic-memories.ts, written through the real
// store) served by the real viewer (startViewer: the same server `engram ui` runs, on 127.0.0.1) and
// measured over loopback HTTP with the bearer token: API p50/p95/max for the memory list (first page,
// deep pages by cursor, a project filter), search, and memory detail; then the time to first render of
// the search page in headless Chromium (first contentful paint, from navigation start). Targets: API
// p95 ≤ 50 ms, first render ≤ 500 ms. --keep [DIR] caches the generated store (shared with bench:search).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger, systemClock } from '../src/core/ports.ts';
import { pathsFor } from '../src/core/paths.ts';
import { loadViewerAssets } from '../src/surfaces/http/viewer-assets.ts';
import { loadViewerSecret } from '../src/surfaces/http/viewer-secret.ts';
import { healthDeps } from '../src/surfaces/cli/health-deps.ts';
import { startViewer } from '../src/surfaces/http/viewer-server.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { launchChromium } from '../test/support/browser.ts';
import { corpus, queries } from './lib/synthetic-memories.ts';
import { keepDirFrom, syntheticStore } from './lib/synthetic-store.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : (args[i + 1] ?? '');
};
const json = args.includes('--json');
const size = Number(flag('--size') ?? 100_000);
const requests = Number(flag('--requests') ?? 200);
const renders = Number(flag('--renders') ?? 15);
const keepDir = keepDirFrom(args, tmpdir());
const log = (s: string) => {
  if (!json) console.log(s);
};
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const stats = (xs: number[]) => ({
  p50: pct(xs, 0.5),
  p95: pct(xs, 0.95),
  max: Math.max(...xs),
  n: xs.length,
});
type Stats = ReturnType<typeof stats>;
const f1 = (n: number) => n.toFixed(1);

const c = corpus();
const work = mkdtempSync(join(tmpdir(), 'engram-bench-viewer-'));
const home = join(work, 'engram-home');
mkdirSync(home, { recursive: true });

const synthetic = syntheticStore(c, size, { cacheDir: keepDir, workDir: work });
log(
  synthetic.generated
    ? `generated ${size.toLocaleString('en')} memories in ${(synthetic.generated.ms / 1000).toFixed(1)} s`
    : `reusing cached ${synthetic.path}`,
);
const db = synthetic.path;
const store = createStore(openDatabase(db));
const paths = { ...pathsFor(home), db };
const secret = loadViewerSecret(paths.viewerSecret);
const viewer = await startViewer({
  store,
  paths,
  env: {},
  secret,
  assets: loadViewerAssets(join(import.meta.dirname, '..', 'dist')),
  clock: systemClock,
  logger: createMemoryLogger(),
  embedder: null,
  port: 0,
  statusDeps: (live) => healthDeps({ paths, env: {}, cwd: home, embedderId: null, ...live }),
});
const origin = `http://127.0.0.1:${viewer.port}`;
const headers = { authorization: `Bearer ${secret}` };

/**
 * One request: its wall time, and the CPU time this process spent on it (client and server share the
 * process): on a busy shared machine the wall time also counts waiting for a core, the CPU time does not.
 */
async function timed(path: string): Promise<{ ms: number; cpuMs: number; body: Record<string, unknown> }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await fetch(`${origin}${path}`, { headers });
  const body = (await r.json()) as Record<string, unknown>;
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(body)}`);
  return { ms, cpuMs: (used.user + used.system) / 1000, body };
}

async function series(paths: () => string, n: number): Promise<{ wall: Stats; cpu: Stats }> {
  for (let i = 0; i < Math.min(20, n); i++) await timed(paths()); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = await timed(paths());
    wall.push(t.ms);
    cpu.push(t.cpuMs);
  }
  return { wall: stats(wall), cpu: stats(cpu) };
}

try {
  const dominant = c.projects[0]!.project;
  // Cursors of deep pages (page 2 … 200 of the newest-first list), collected by walking it once.
  const cursors: string[] = [];
  let cursor = '';
  for (let i = 0; i < 200 && cursors.length < 200; i++) {
    const { body } = await timed(`/api/memories?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
    if (!body['next']) break;
    cursor = String(body['next']);
    cursors.push(cursor);
  }
  const ids = (
    store.db.prepare('SELECT id FROM observations ORDER BY random() LIMIT 1000').all() as { id: string }[]
  ).map((r) => r.id);
  const qs = queries(c, 0, requests + 20);
  let i = 0;
  const next = <T>(xs: readonly T[]) => xs[i++ % xs.length] as T;
  const api = {
    list_first_page: await series(() => '/api/memories?limit=50', requests),
    list_deep_pages: await series(() => `/api/memories?limit=50&cursor=${next(cursors)}`, requests),
    list_project_filter: await series(
      () => `/api/memories?limit=50&project=${dominant.id}&type=decision`,
      requests,
    ),
    search_all_projects: await series(
      () => `/api/memories/search?q=${encodeURIComponent(next(qs).text)}`,
      requests,
    ),
    search_project: await series(
      () => `/api/memories/search?q=${encodeURIComponent(next(qs).text)}&project=${dominant.id}`,
      requests,
    ),
    memory_detail: await series(() => `/api/memories/${next(ids)}`, requests),
  };

  // Time to first render of the search page (a fresh navigation each time, signed in by cookie).
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.goto(viewer.launchUrl());
  const fcp: number[] = [];
  const loaded: number[] = [];
  for (let k = 0; k < renders + 2; k++) {
    const q = encodeURIComponent(next(qs).text);
    await page.goto(`${origin}/search?q=${q}&project=${dominant.id}`, { waitUntil: 'load' });
    // Runs in the page: the browser's Paint Timing entry (it may be reported just after the load event)
    // and Navigation Timing, in ms from navigation start.
    const t = (await page.evaluate(`new Promise((resolve) => {
      const nav = performance.getEntriesByType('navigation')[0];
      new PerformanceObserver((list, observer) => {
        const fcp = list.getEntriesByName('first-contentful-paint')[0];
        if (fcp) { observer.disconnect(); resolve({ fcp: fcp.startTime, load: nav.loadEventEnd }); }
      }).observe({ type: 'paint', buffered: true });
    })`)) as { fcp: number; load: number };
    if (k < 2) continue; // warm-up
    fcp.push(t.fcp);
    loaded.push(t.load);
  }
  await browser.close();
  const render = { first_contentful_paint: stats(fcp), load_event: stats(loaded) };

  const observations = (store.db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;
  const apiP95 = Math.max(...Object.values(api).map((s) => s.wall.p95));
  const load = (await import('node:os')).loadavg()[0] ?? 0;
  const result = {
    observations,
    requests_per_series: requests,
    load_average_1m: load,
    api_ms: api,
    search_page_render_ms: render,
    budgets: {
      api_p95_ms: { target: 50, worst: apiP95, ok: apiP95 <= 50 },
      first_render_ms: {
        target: 500,
        p95: render.first_contentful_paint.p95,
        ok: render.first_contentful_paint.p95 <= 500,
      },
    },
  };
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    log(
      `\nbench:viewer — ${observations.toLocaleString('en')} memories, ${requests} requests per series over loopback HTTP (load average ${load.toFixed(1)})`,
    );
    log('  API (ms)                  wall p50     p95     max    cpu p50     p95');
    for (const [name, s] of Object.entries(api))
      log(
        `  ${name.padEnd(24)} ${f1(s.wall.p50).padStart(8)} ${f1(s.wall.p95).padStart(7)} ${f1(s.wall.max).padStart(7)} ${f1(s.cpu.p50).padStart(10)} ${f1(s.cpu.p95).padStart(7)}`,
      );
    log(`  search page in Chromium (${renders} renders, ms)`);
    for (const [name, s] of Object.entries(render))
      log(`  ${name.padEnd(24)} ${f1(s.p50).padStart(7)} ${f1(s.p95).padStart(7)} ${f1(s.max).padStart(7)}`);
    log(
      `\nBudgets: API p95 ≤ 50 ms: worst ${f1(apiP95)} ms ${result.budgets.api_p95_ms.ok ? 'PASS' : 'OVER'}`,
    );
    log(
      `         first render ≤ 500 ms: p95 ${f1(render.first_contentful_paint.p95)} ms ${result.budgets.first_render_ms.ok ? 'PASS' : 'OVER'}`,
    );
  }
} finally {
  await viewer.stop();
  store.close();
  rmSync(work, { recursive: true, force: true });
}

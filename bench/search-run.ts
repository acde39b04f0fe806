// npm run bench:search [-- --sizes 10000,100000,1000000] [--queries N] [--surface-calls N] [--keep [DIR]] [--json]
// Scale benchmark: synthetic stores of realistic coding-agent memories (bench/lib/synthetic-memories.ts),
// then search latency p50/p95/max (project-scoped and all projects), SessionStart index build time, DB
// size and bytes per observation per size, growth ratios between sizes, and the DESIGN.md §4 budgets.
// Beside the in-process figures, what a call pays at the surfaces (bench/lib/surface-latency.ts): a whole
// `engram search` process (Node start and store open included) next to `node -e 0`, and MCP `search`
// calls on one kept `engram mcp` connection (its start-up apart).
// --keep caches the generated stores (default dir: $TMPDIR/engram-bench-search) keyed by size, generator
// version and schema version, so later runs skip generation; without it they are deleted at the end.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProjectId } from '../src/core/ids.ts';
import { renderSessionContext } from '../src/recall/render-context.ts';
import { searchMemories } from '../src/recall/search.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore, type Store } from '../src/store/store.ts';
import { corpus, GENERATOR_VERSION, queries, type QueryKind } from './lib/synthetic-memories.ts';
import { keepDirFrom, syntheticStore } from './lib/synthetic-store.ts';
import { cliSearchMs, mcpSearchMs } from './lib/surface-latency.ts';
import { describeLoad, machineLoad } from './lib/machine.ts';

/** The one call into search: what `engram search` and the MCP tool run (lexical, limit 10). */
function search(store: Store, query: string, projectId: ProjectId | null): number {
  return searchMemories(store, { query, projectId, limit: 10, now: Date.now() }).length;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : (args[i + 1] ?? '');
};
const json = args.includes('--json');
const sizes = (flag('--sizes') ?? '10000,100000,1000000').split(',').map(Number);
const queryCount = Number(flag('--queries') ?? 200);
/** Whole `engram search` processes per size (each costs a Node start). */
const surfaceCalls = Number(flag('--surface-calls') ?? 20);
const keepDir = keepDirFrom(args, tmpdir());
const warmup = Math.min(30, Math.ceil(queryCount / 5));
const log = (s: string) => {
  if (!json) console.log(s);
};
const loadBefore = machineLoad();
log(`bench:search: ${describeLoad(loadBefore)}`);

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const stats = (xs: number[]) => ({ p50: pct(xs, 0.5), p95: pct(xs, 0.95), max: Math.max(...xs) });
type Stats = ReturnType<typeof stats>;
function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
const fileSize = (p: string) => (existsSync(p) ? statSync(p).size : 0);

const c = corpus();
const dominant = c.projects[0]!.project;
const small = c.projects[c.projects.length - 1]!.project;

interface SizeResult {
  size: number;
  observations: number;
  sessions: number | null;
  generated_ms: number | null;
  db_bytes: number;
  bytes_per_observation: number;
  search_ms: Record<'project' | 'project_cpu' | 'small_project' | 'all_projects', Stats>;
  search_by_kind_ms: Record<string, Stats>;
  session_start_ms: { warm: Stats; open_and_render: Stats; chars: number };
  /** What a call pays at the surfaces: a whole `engram search` process, and an MCP call on a kept connection. */
  surface_ms: SurfaceResult;
}

interface SurfaceResult {
  cli_search: Stats;
  /** `node -e 0`, alternating with the CLI calls: the part of a CLI call that is starting Node. */
  node_e0: Stats;
  /** Median over pairs of CLI call / `node -e 0`. */
  cli_ratio: number;
  mcp_connect: number;
  mcp_search: Stats;
}

/**
 * The store moved into an ENGRAM_HOME (and back after), and searched from a clone of the dominant
 * project through `engram search` processes and one kept `engram mcp` connection.
 */
async function measureSurfaces(path: string, work: string, texts: string[]): Promise<SurfaceResult> {
  const home = join(work, 'surface-home');
  const cwd = join(work, dominant.name);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(join(cwd, '.git'), { recursive: true });
  writeFileSync(
    join(cwd, '.git', 'config'),
    `[remote "origin"]\n\turl = https://${dominant.key.slice('git:'.length)}.git\n`,
  );
  const inHome = join(home, 'engram.db');
  renameSync(path, inHome);
  try {
    const target = { home, cwd, repoRoot: join(import.meta.dirname, '..') };
    const cli = cliSearchMs(target, texts.slice(0, surfaceCalls));
    const mcp = await mcpSearchMs(
      target,
      texts.slice(0, Math.max(surfaceCalls, Math.min(texts.length, 100))),
    );
    const ratios = cli.cli.map((ms, i) => ms / (cli.node[i] as number));
    return {
      cli_search: stats(cli.cli),
      node_e0: stats(cli.node),
      cli_ratio: pct(ratios, 0.5),
      mcp_connect: mcp.connectMs,
      mcp_search: stats(mcp.calls),
    };
  } finally {
    // Fold in any WAL the surfaces left, then put the (cached) store back.
    const s = createStore(openDatabase(inHome));
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    s.close();
    renameSync(inHome, path);
    rmSync(home, { recursive: true, force: true });
  }
}

async function measureSize(size: number, work: string): Promise<SizeResult> {
  log(`\n${size.toLocaleString('en')} observations:`);
  const { path, generated: gen } = syntheticStore(c, size, { cacheDir: keepDir, workDir: work });
  log(gen ? `  generated in ${(gen.ms / 1000).toFixed(1)} s (${path})` : `  reusing cached ${path}`);
  const store = createStore(openDatabase(path));
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const dbBytes = fileSize(path) + fileSize(`${path}-wal`);
  const observations = (store.db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;

  const measure = (projectId: ProjectId | null, qs: { kind: QueryKind; text: string }[]) => {
    for (const q of qs.slice(0, warmup)) search(store, q.text, projectId);
    return qs.map((q) => {
      const cpu = process.cpuUsage();
      const ms = time(() => search(store, q.text, projectId));
      const used = process.cpuUsage(cpu);
      return { kind: q.kind, text: q.text, ms, cpuMs: (used.user + used.system) / 1000 };
    });
  };
  const main = measure(dominant.id, queries(c, 0, queryCount));
  const smallRuns = measure(small.id, queries(c, c.projects.length - 1, queryCount));
  const allRuns = measure(null, queries(c, 0, queryCount, 99));
  const byKind: Record<string, Stats> = {};
  for (const kind of new Set(main.map((m) => m.kind)))
    byKind[kind] = stats(main.filter((m) => m.kind === kind).map((m) => m.ms));

  const req = {
    project: dominant,
    sessionId: 'bench-new-session',
    source: 'startup',
    now: Date.UTC(2026, 0, 1),
    budgetTokens: 1000,
    recentCount: 40,
  };
  let chars = 0;
  for (let i = 0; i < 5; i++) chars = renderSessionContext(store, req).text.length;
  const warm = Array.from({ length: 50 }, () => time(() => renderSessionContext(store, req)));
  store.close();
  // What a SessionStart hook pays in the store: open (schema check), render, close.
  const cold = Array.from({ length: 15 }, () =>
    time(() => {
      const s = createStore(openDatabase(path, { busyTimeoutMs: 3000 }));
      renderSessionContext(s, req);
      s.close();
    }),
  );
  const surfaces = await measureSurfaces(
    path,
    work,
    main.map((m) => m.text),
  );
  const result: SizeResult = {
    size,
    observations,
    sessions: gen?.sessions ?? null,
    generated_ms: gen?.ms ?? null,
    db_bytes: dbBytes,
    bytes_per_observation: dbBytes / observations,
    search_ms: {
      project: stats(main.map((m) => m.ms)),
      project_cpu: stats(main.map((m) => m.cpuMs)),
      small_project: stats(smallRuns.map((m) => m.ms)),
      all_projects: stats(allRuns.map((m) => m.ms)),
    },
    search_by_kind_ms: byKind,
    session_start_ms: { warm: stats(warm), open_and_render: stats(cold), chars },
    surface_ms: surfaces,
  };
  if (!keepDir) for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
  printSize(result);
  return result;
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const line = (label: string, s: Stats & { top10?: number; cpu_p95?: number }) =>
  log(
    `  ${label.padEnd(34)} p50 ${f(s.p50).padStart(8)}  p95 ${f(s.p95).padStart(8)}  max ${f(s.max).padStart(8)} ms${s.cpu_p95 !== undefined ? `  (CPU p95 ${f(s.cpu_p95)})` : ''}${s.top10 !== undefined ? `  top-10 agreement ${f(s.top10)}` : ''}`,
  );
function printSize(r: SizeResult) {
  log(
    `  DB ${(r.db_bytes / 1e6).toFixed(1)} MB (${Math.round(r.bytes_per_observation)} B/observation, WAL checkpointed)` +
      `${r.generated_ms !== null ? `, generation ${Math.round(r.observations / (r.generated_ms / 1000))} obs/s` : ''}`,
  );
  line(`search, project "${dominant.name}" (dominant)`, r.search_ms.project);
  line(`  same, CPU time of the process`, r.search_ms.project_cpu);
  line(`search, project "${small.name}" (small)`, r.search_ms.small_project);
  line('search, all projects', r.search_ms.all_projects);
  for (const [kind, s] of Object.entries(r.search_by_kind_ms)) line(`  by query kind: ${kind}`, s);
  line(`SessionStart index (${r.session_start_ms.chars} chars)`, r.session_start_ms.warm);
  line('SessionStart open + index + close', r.session_start_ms.open_and_render);
  const sf = r.surface_ms;
  line('`engram search` process (CLI)', sf.cli_search);
  line('  node -e 0, alternating with it', sf.node_e0);
  log(`  ${'  CLI call / node -e 0 (median of pairs)'.padEnd(34)} ${f(sf.cli_ratio)}x`);
  log(
    `  ${'MCP server start + initialize'.padEnd(34)} ${f(sf.mcp_connect).padStart(8)} ms (once per session)`,
  );
  line('MCP search call, kept connection', sf.mcp_search);
}

const work = mkdtempSync(join(tmpdir(), 'engram-bench-search-'));
const results: SizeResult[] = [];
try {
  log(
    `bench:search: ${queryCount} queries per scope (after ${warmup} warm-up), ${c.projects.length} projects; stores ${keepDir ? `cached in ${keepDir}` : 'in a temp dir, deleted after'}`,
  );
  for (const size of sizes) results.push(await measureSize(size, work));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const growth = results.slice(1).map((r, i) => {
  const prev = results[i]!;
  const ratio = (a: number, b: number) => a / b;
  return {
    from: prev.size,
    to: r.size,
    size_ratio: r.size / prev.size,
    search_p95: ratio(r.search_ms.project.p95, prev.search_ms.project.p95),
    search_all_p95: ratio(r.search_ms.all_projects.p95, prev.search_ms.all_projects.p95),
    session_start_p95: ratio(r.session_start_ms.warm.p95, prev.session_start_ms.warm.p95),
    db_bytes: ratio(r.db_bytes, prev.db_bytes),
  };
});
const budgets = results
  .filter((r) => r.size === 100_000 || r.size === 1_000_000)
  .flatMap((r) => {
    const limit = r.size === 100_000 ? 10 : 50;
    return (['project', 'small_project', 'all_projects'] as const).map((scope) => ({
      size: r.size,
      scope,
      p95_ms: r.search_ms[scope].p95,
      budget_ms: limit,
      verdict: r.search_ms[scope].p95 <= limit ? 'PASS' : 'OVER',
    }));
  });

if (json) {
  console.log(
    JSON.stringify(
      {
        queries: queryCount,
        generator: GENERATOR_VERSION,
        results,
        growth,
        budgets,
        machine: { before: loadBefore, after: machineLoad() },
      },
      null,
      2,
    ),
  );
} else {
  log('\nGrowth (larger / smaller):');
  for (const g of growth)
    log(
      `  ${g.from} → ${g.to} (×${g.size_ratio}): search p95 ×${f(g.search_p95)} (all projects ×${f(g.search_all_p95)}), SessionStart p95 ×${f(g.session_start_p95)}, DB ×${f(g.db_bytes)}`,
    );
  log('\nBudgets (DESIGN.md §4, search p95):');
  for (const b of budgets)
    log(
      `  ${b.size} observations, ${b.scope.padEnd(13)} ${f(b.p95_ms).padStart(8)} ms ≤ ${b.budget_ms} ms: ${b.verdict}`,
    );
  log(`\nMachine: before ${describeLoad(loadBefore)}; after ${describeLoad()}`);
}

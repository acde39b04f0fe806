/**
 * The graph's part of each worker round: the graph step (edges, file nodes, anchors, staleness, key
 * files) after distillation; the vault (`vault.dir`) synced both ways every `vault.syncSeconds`; and,
 * with `retention.autoPrune`, every project pruned to `retention.maxNodes` once an hour.
 */
import { resolve } from 'node:path';
import type { Config } from '../core/config.ts';
import { describeError } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';
import { GRAPH_CURSOR, GRAPH_SEED, runGraphStep, type GraphStepReport } from '../graph/graph-step.ts';
import { rankDueProjects } from '../graph/rank-due.ts';
import { pruneProject } from '../graph/prune.ts';
import { refreshAnchors } from '../graph/staleness.ts';
import { projectsOfScope } from '../graph/vault-scope.ts';
import { syncVault } from '../graph/vault-sync.ts';
import type { Store } from '../store/store.ts';

const HOUR_MS = 3_600_000;
/** How often projects in use have their anchored files looked at. */
const STALE_SWEEP_MS = 10_000;
/**
 * Changes per graph step when a command catches up at once. A step's commit writes every page its edges
 * touched, and they land all over the links table's indexes: fewer, larger steps write each page fewer
 * times (a 100k-memory catch-up wrote ~1.0 GB at 2,000 a step, ~0.57 GB at 10,000).
 */
const ONE_SHOT_BATCH = 10_000;
/** WAL pages between checkpoints while a command catches up at once (SQLite's default is 1000). */
const ONE_SHOT_CHECKPOINT_PAGES = 50_000;
/**
 * The page cache while a command catches up at once, in KiB (SQLite's default is 2 MB, far fewer pages
 * than one step touches in the links table's indexes: they were dropped and fetched again within the
 * step; a 100k-memory catch-up spent 3.8 s in the kernel with it, 1.6 s with this).
 */
const ONE_SHOT_CACHE_KIB = 64 * 1024;
/**
 * How far behind (changes in the log past the graph's cursor, or memories older than the log still to
 * walk) a one-shot catch-up must be to fill the links table before its secondary indexes and build
 * them once after it (store/link-indexes.ts; a 100k-memory catch-up's edges cost ~8.6 s with the
 * indexes kept, ~5.5 s so) — when the table holds fewer rows than that, so that most of it is still to
 * come.
 */
const BULK_LOAD_MIN_CHANGES = ONE_SHOT_BATCH;

/**
 * Whether a one-shot catch-up fills the links table in bulk: the graph is at least `min` changes or
 * memories behind and the table holds fewer edges than that (the catch-up adds several per memory).
 */
function bulkLoads(store: Store, min: number): boolean {
  const behind = store.changes.lastSeq() - store.graph.state(GRAPH_CURSOR);
  const seedWalk = store.graph.state(GRAPH_SEED);
  const seeding = seedWalk >= 0 ? store.graph.memoryIdsAfter(seedWalk, min).length : 0;
  if (behind < min && seeding < min) return false;
  return store.linkIndexes.deferWhileFewerThan(Math.max(behind, seeding));
}

/**
 * Run the graph step until it has read the whole change log (or `maxBatches` batches: the worker reads
 * a bounded share each round). A one-shot
 * command (`flush`, `backfill`, a query) ranks the key files it left due at the end (`rankNow`); the
 * worker lets the debounce decide.
 */
export function catchUpGraph(
  store: Store,
  config: Config,
  now: number,
  maxBatches = Number.POSITIVE_INFINITY,
  rankNow = true,
  bulkLoadMin = BULK_LOAD_MIN_CHANGES,
): GraphStepReport {
  const total: GraphStepReport = { changes: 0, edges: 0, files: 0, anchors: 0, stale: [], projects: 0 };
  const oneShot = !Number.isFinite(maxBatches);
  // Indexes an earlier bulk catch-up left unbuilt (it died half-way) are made first: a store without
  // them is right, only slow.
  store.linkIndexes.build();
  const autoCheckpoint = store.db.pragma('wal_autocheckpoint', { simple: true }) as number;
  const cacheSize = store.db.pragma('cache_size', { simple: true }) as number;
  if (oneShot) {
    store.db.pragma(`wal_autocheckpoint = ${ONE_SHOT_CHECKPOINT_PAGES}`);
    store.db.pragma(`cache_size = ${-ONE_SHOT_CACHE_KIB}`);
  }
  // Only when it ranks at the end, after the indexes are built, not after each step.
  const bulk = oneShot && rankNow && bulkLoads(store, bulkLoadMin);
  try {
    for (let i = 0; i < maxBatches; i++) {
      const r = runGraphStep(store, {
        now,
        fileSummaryMinLines: config['graph.fileSummaryMinLines'],
        anchorMaxAgeMs: config['graph.anchorMaxAgeHours'] * HOUR_MS,
        // A one-shot catch-up reads the log in larger steps (fewer commits and re-read files); the worker's
        // bounded share stays in small ones.
        ...(Number.isFinite(maxBatches) ? {} : { batch: ONE_SHOT_BATCH }),
        // Ranked once at the end when the caller asks for it, not after the first step as well.
        rank: !rankNow,
      });
      total.changes += r.changes;
      total.edges += r.edges;
      total.files += r.files;
      total.anchors += r.anchors;
      total.stale.push(...r.stale);
      total.projects += r.projects;
      if (r.changes === 0) break;
    }
    // Ranking reads edges into the ranked memories, through an index.
    if (bulk) store.linkIndexes.build();
    if (rankNow) rankDueProjects(store, now, true);
  } finally {
    if (bulk) store.linkIndexes.build();
    if (oneShot) {
      store.db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
      store.db.pragma(`cache_size = ${cacheSize}`);
    }
  }
  return total;
}

export interface GraphPassDeps {
  store: Store;
  config: Config;
  logger: Logger;
}

/** The graph's work in the worker loop; `tick` never throws (failures are logged and retried). */
export function createGraphPass(deps: GraphPassDeps) {
  const { store, config, logger } = deps;
  let lastVault = 0;
  let lastPrune = 0;
  let lastSweep = 0;
  const vaultDir = config['vault.dir'] === '' ? null : resolve(config['vault.dir']);
  return {
    /** Returns whether it did anything (the worker's idle clock counts it as work). */
    tick(now: number): boolean {
      let worked = false;
      try {
        const r = catchUpGraph(store, config, now, 20, false);
        if (r.edges + r.anchors + r.stale.length > 0) {
          worked = true;
          logger.info('graph', { edges: r.edges, files: r.files, anchors: r.anchors, stale: r.stale.length });
        }
      } catch (error) {
        logger.error('graph step failed', { error: describeError(error) });
      }
      // Files change between sessions too (a pull, an editor): projects in use get their anchors'
      // files looked at (a stat each; only changed ones are read and classified).
      if (now - lastSweep >= STALE_SWEEP_MS) {
        const since = lastSweep === 0 ? now - STALE_SWEEP_MS : lastSweep;
        lastSweep = now;
        try {
          for (const id of store.graph.projectsActiveSince(since)) {
            const project = store.sessions.project(id);
            if (!project) continue;
            const r = refreshAnchors(store, project, { now, origin: 'hook', full: false });
            if (r.becameStale.length + r.becameFresh.length + r.followed.length > 0) {
              worked = true;
              logger.info('anchors re-checked', {
                project: project.name,
                stale: r.becameStale.length,
                fresh: r.becameFresh.length,
                followed: r.followed.length,
              });
            }
          }
        } catch (error) {
          logger.error('anchor check failed', { error: describeError(error) });
        }
      }
      if (vaultDir && now - lastVault >= config['vault.syncSeconds'] * 1000) {
        lastVault = now;
        try {
          const scope = store.vaults.get(vaultDir)?.scope ?? 'all';
          const r = syncVault(store, {
            dir: vaultDir,
            projects: projectsOfScope(store, scope),
            now: () => Date.now(),
          });
          if (!r.quiet && (r.written > 0 || r.ingested > 0 || r.archived > 0 || r.handWritten > 0)) {
            worked = true;
            logger.info('vault synced', {
              dir: vaultDir,
              written: r.written,
              ingested: r.ingested,
              archived: r.archived,
              conflicts: r.conflicts,
              flagged: r.flagged.length,
            });
          }
        } catch (error) {
          logger.warn('vault sync failed', { dir: vaultDir, error: describeError(error) });
        }
      }
      if (config['retention.autoPrune'] && now - lastPrune >= HOUR_MS) {
        lastPrune = now;
        try {
          for (const project of projectsOfScope(store, 'all')) {
            const r = pruneProject(store, project, {
              maxNodes: config['retention.maxNodes'],
              dryRun: false,
              now,
              origin: 'hook',
            });
            if (r.archived.length > 0)
              logger.info('pruned', { project: project.name, archived: r.archived.length });
          }
        } catch (error) {
          logger.error('pruning failed', { error: describeError(error) });
        }
      }
      return worked;
    },
  };
}

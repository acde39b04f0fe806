/**
 * The worker's part of fast SessionStart hooks: after each round, for every project in use (a session
 * of it seen in the last week), a snapshot of what its index reads (recall/session-snapshot.ts), taken
 * again whenever the store's context epoch moved — so the next session's hook finds one that still
 * stands for the store and skips the queries. A shared project gets none (its file is removed).
 * A project that comes into use (a session of it begins) gets its snapshot at the next tick, changed
 * store or not. And after each round the worker notes the store's epoch at the store's state
 * (`mark`), so the hook can tell a snapshot still stands without opening the database at all.
 * Never throws: a snapshot only saves time, and the hook renders live without one.
 */
import type { Config } from '../core/config.ts';
import { describeError } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';
import { takeSessionSnapshot } from '../recall/session-snapshot.ts';
import {
  markStore,
  readContextEpoch,
  removeContextSnapshots,
  storeStateReader,
  writeContextSnapshot,
} from '../store/context-snapshot.ts';
import type { Store } from '../store/store.ts';

const IN_USE_MS = 7 * 86_400_000;
/**
 * Snapshots are taken at most this often (and not in a worker's first second): a worker draining a
 * backlog changes the store every round, and a snapshot per round would slow the drain; a hook that
 * meets a snapshot older than the store's last change renders live, so a second's lag costs only speed.
 */
const MIN_GAP_MS = 1_000;
/** At most this many projects a round (the most recently active first is not needed: all fit). */
const MAX_PROJECTS = 50;

export function createSnapshotKeeper(deps: {
  store: Store;
  config: Config;
  dir: string;
  logger: Logger;
  /** When the worker started (the first snapshots come a second later). */
  startedAt: number;
  /**
   * Reads the store's state with a descriptor kept open (`storeStateReader`), closed by whoever closes
   * the store, after it; a keeper of its own when absent.
   */
  stateReader?: { read(): string | null };
}) {
  const { store, config, dir, logger } = deps;
  let seenEpoch: string | null = null;
  let lastAt = deps.startedAt;
  /** The projects in use at the last snapshots taken. */
  let seenProjects = new Set<string>();
  let marked: string | null = null;
  const reader = deps.stateReader ?? (store.db.memory ? null : storeStateReader(store.db.name));
  const settings = () => ({
    recentCount: config['context.recentCount'],
    keyFiles: config['graph.keyFiles'],
  });
  return {
    /** Take the snapshots the store's changes since the last call made stale; how many were written. */
    tick(now: number): number {
      if (now - lastAt < MIN_GAP_MS) return 0;
      try {
        const epoch = readContextEpoch(store.db);
        if (epoch === null) return 0;
        const inUse = store.graph.projectsActiveSince(now - IN_USE_MS).slice(0, MAX_PROJECTS);
        const fresh = inUse.filter((p) => !seenProjects.has(p));
        if (epoch === seenEpoch && fresh.length === 0) return 0;
        let written = 0;
        for (const projectId of epoch === seenEpoch ? fresh : inUse) {
          const snapshot = takeSessionSnapshot(store, projectId, { ...settings(), now });
          if (snapshot === null) removeContextSnapshots(dir, projectId);
          else if (writeContextSnapshot(dir, projectId, snapshot)) written++;
        }
        seenEpoch = epoch;
        seenProjects = new Set(inUse);
        lastAt = now;
        return written;
      } catch (error) {
        logger.warn('could not keep the SessionStart snapshots', { error: describeError(error) });
        return 0;
      }
    },
    /** Note the store's epoch at its state now (once the round's writes are done); never throws. */
    mark(): void {
      try {
        if (reader) marked = markStore(store.db, dir, reader, marked);
      } catch (error) {
        marked = null;
        logger.warn('could not note the store\u2019s state', { error: describeError(error) });
      }
    },
  };
}

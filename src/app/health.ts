/**
 * The health read model, and the status verb that builds it: the worker, the queue and its parked
 * turns, files the inbox set aside, configuration problems, counts, vectors, projects, team sync,
 * hooks and hosts seen, the distiller's budget state, hook-log problems, the database, quarantined
 * memories and what the injection gate dropped, transcripts missed. `engram status`, MCP's status
 * tool and the viewer's health page and API all show this one model.
 */
import { currentProjectId, sameRootNotices } from './same-root.ts';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, ConfigIssue } from '../core/config.ts';
import type { EngramPaths } from '../core/paths.ts';
import { listInbox, listRejected } from '../store/inbox.ts';
import { SCHEMA_VERSION } from '../store/migrations/index.ts';
import type { Store } from '../store/store.ts';
import { distillStatus } from './distill-status.ts';
import { droppedLines } from './dropped-lines.ts';
import { problemsSince } from './log-problems.ts';

/** What the host's transcripts tell (found by the surface: where a host keeps them is its business). */
export interface TranscriptFacts {
  /** Sessions the host kept transcripts of that engram has never read (the hooks may have missed them). */
  missed: { root: string; sessions: number };
  /** What the host's transcript retention will cost engram. */
  findings: { severity: 'warn' | 'fail'; message: string; fix: string }[];
}

export interface HealthDeps {
  store: Store;
  paths: EngramPaths;
  config: Config;
  /** Problems of the configuration file and of prices.json. */
  configIssues: readonly ConfigIssue[];
  now: number;
  /** The running worker's pid (null: not running). */
  workerPid: number | null;
  /** The configured embedder's id (null: lexical search only). */
  embedderId: string | null;
  transcripts: (store: Store) => TranscriptFacts;
  /**
   * Move the hook log's mark: `engram status` reports each hook error once; every other reader
   * leaves the mark where it is.
   */
  markHookLog: boolean;
}

/** Parked turns listed at most (the queue's counts hold them all). */
const PARKED_SHOWN = 50;

function teamProjects(store: Store) {
  const queued = store.team.outboxCounts();
  return store.team.projects().map((p) => ({
    id: p.projectId,
    name: p.name,
    lastSyncAt: store.team.syncedAt(p.projectId),
    queued: queued.get(p.projectId) ?? 0,
    lastError: p.lastError,
  }));
}

function databaseBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // an in-memory or not yet created database has no size to show
  }
}

/** The status verb: the health of this engram home. */
export function status(deps: HealthDeps) {
  const { store, paths, config, now, embedderId } = deps;
  const hookProblems = problemsSince(paths.hookLog, join(paths.logDir, '.hook-log-seen'), {
    keepMark: !deps.markHookLog,
  });
  const projects = store.sessions.projectStats();
  // Projects with the same root: a rename or a changed remote left the old one behind.
  const sameRoot = sameRootNotices(projects, currentProjectId(paths.projectLinks));
  const transcripts = deps.transcripts(store);
  return {
    home: paths.home,
    sameRoot,
    worker: { running: deps.workerPid !== null, pid: deps.workerPid },
    // Events still in the inbox (written by capture hooks, not yet imported by the worker) are pending too.
    queue: {
      inbox: listInbox(paths.inboxDir).length,
      rejected: listInbox(join(paths.inboxDir, 'rejected')).length,
      ...store.events.counts(),
    },
    parked: store.events.parked(PARKED_SHOWN).map((p) => ({
      seq: p.seq,
      sessionId: p.sessionId,
      hook: p.hook,
      attempts: p.attempts,
      error: p.lastError,
      at: p.at,
    })),
    rejectedFiles: listRejected(paths.inboxDir, 50),
    counts: {
      projects: projects.length,
      observations: store.observations.countByStatus(),
      summaries: store.summaries.count(),
      prompts: store.summaries.promptCount(),
    },
    vectors: embedderId
      ? {
          embedder: embedderId,
          embedded: store.vectors.count(embedderId),
          pending: store.vectors.pending(embedderId),
        }
      : null,
    projects,
    // Shared projects (engram team share): when each last synced with the team server.
    team: teamProjects(store),
    hooks: store.sessions.hookStats(),
    hosts: store.sessions.hostStats(),
    distill: distillStatus(store, config, now),
    config: { file: paths.config, issues: [...deps.configIssues] },
    hookProblems,
    database: { path: paths.db, bytes: databaseBytes(paths.db), schemaVersion: SCHEMA_VERSION },
    // Quarantined memories awaiting a person, and what the injection gate dropped this past week.
    trust: {
      held: store.observations.heldCount(),
      dropped: droppedLines(store, now - 7 * 86_400_000),
    },
    missed: transcripts.missed,
    transcripts: transcripts.findings,
  };
}

export type Health = ReturnType<typeof status>;

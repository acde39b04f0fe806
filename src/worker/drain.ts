/**
 * Draining the queue: per session, in order, one turn at a time. Each turn is distilled and written in
 * a single write transaction that also marks its events done, so a worker killed at any instruction
 * loses nothing and duplicates nothing: the transaction either happened or it did not.
 */
import { existsSync } from 'node:fs';
import { describeError, isEngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { ObservationDraft, ProjectLinks, QueuedEvent, SummaryDraft } from '../core/model.ts';
import type { Logger } from '../core/ports.ts';
import { lowestTrust, type TrustClass } from '../core/trust.ts';
import type { Narration } from '../distill/analyse-turn.ts';
import type { Distiller, TurnResult } from '../distill/heuristic-distiller.ts';
import { floorOfEvents, relayedTrust } from '../distill/evidence-trust.ts';
import type { Extracted } from '../distill/extractors/extracted.ts';
import { tasksSubject } from '../distill/task-state.ts';
import { openNumberedTasks } from '../distill/todo-list.ts';
import { userWordsOfTurn } from '../distill/transcript-distiller.ts';
import { isStoreBusy } from '../store/database.ts';
import type { Store } from '../store/store.ts';
import { withHostTranscripts } from './host-transcripts.ts';
import { importInboxInto } from './import-inbox.ts';
import type { StandingLocator } from './standing-pass.ts';
import { ingestTranscript } from './ingest-transcript.ts';
import {
  readPendingTranscript,
  turnBranch,
  turnNarration,
  withTranscriptOutcomes,
} from './pending-transcript.ts';
import { splitTurns } from './split-turns.ts';
import { storeKnowledge } from '../app/store-knowledge.ts';

export interface DrainOptions {
  /** Distil open turns too (flush), not only turns that have ended or gone stale. */
  force: boolean;
  now: number;
  staleTurnMs: number;
  maxAttempts: number;
}

export interface DrainReport {
  turns: number;
  events: number;
  observations: number;
  failures: number;
  /** Turns left for later because the database was busy (not failures: nothing is counted against them). */
  busy: number;
}

export interface DrainDeps {
  store: Store;
  distiller: Distiller;
  logger: Logger;
  /** Read the session's transcript after a turn ends (live use); off in tests of the queue alone. */
  readTranscripts?: boolean;
  /** Confirmed `.engram.json` project links, for the transcripts' projects. */
  projectLinks?: ProjectLinks;
  /**
   * Sessions whose pass ended at an open turn, with a stamp of their pending events (kept across the
   * worker's rounds): unchanged and not yet stale, they are skipped.
   */
  waiting?: Map<string, string>;
  /**
   * The inbox, imported right before each session's turns are split: a turn whose Stop is still a
   * file there is never distilled as if it had none.
   */
  inboxDir?: string;
  /** Where session logs written from a host's store go (opencode's: `worker/host-transcripts.ts`). */
  hostSessionsDir?: string;
  /** The projects' standing files, read again when a session starts (worker/standing-pass.ts). */
  standingFiles?: StandingLocator;
}

/**
 * A turn distilled ahead of its write transaction (the LLM distiller is async; better-sqlite3
 * transactions are synchronous). The transaction still re-checks that the events are pending.
 */
export interface PreparedTurn {
  observations: (ObservationDraft & { supersedes: string | null })[];
  summary: SummaryDraft | null;
  /** The ledger row of the call that produced it (gets the count of stored observations). */
  ledgerId: number;
}

/** Prepares a turn outside any transaction; null means "distil it heuristically". Never throws. */
export type TurnPreparer = (events: QueuedEvent[], now: number) => Promise<PreparedTurn | null>;

const TRANSCRIPT_MOMENTS = new Set(['stop', 'subagent_stop', 'pre_compact', 'session_end']);

/** After a turn ends, read what the transcript adds (decisions, corrections, preferences, facts). */
function readTranscriptAfter(deps: DrainDeps, events: readonly QueuedEvent[], now: number): void {
  const last = [...events].reverse().find((e) => TRANSCRIPT_MOMENTS.has(e.event.kind) && e.transcriptPath);
  if (!last?.transcriptPath || !existsSync(last.transcriptPath)) return;
  try {
    const r = ingestTranscript(deps.store, last.transcriptPath, {
      mode: 'live',
      distiller: deps.distiller,
      now,
      sessionId: last.sessionId,
      cwd: last.cwd,
      ...(deps.projectLinks ? { projectLinks: deps.projectLinks } : {}),
    });
    if (r.created > 0)
      deps.logger.info('transcript read', {
        sessionId: last.sessionId,
        records: r.records,
        created: r.created,
      });
  } catch (error) {
    // The queue does not depend on the transcript: a bad transcript is logged, the turn stays done.
    deps.logger.warn('could not read the transcript', {
      path: last.transcriptPath,
      error: describeError(error),
    });
  }
}

/**
 * An LLM result with the heuristic's named knowledge kept (how to build and test, conventions, the
 * task list, gotchas and open failures, which later turns merge into or close): the LLM's own version
 * of one of those is dropped.
 */
function withKnowledge(
  prepared: PreparedTurn,
  heuristic: { observations: ObservationDraft[] },
): (ObservationDraft & { supersedes: string | null })[] {
  const named = heuristic.observations.filter((o) => o.subject && o.subject !== 'attach:commit');
  const key = (o: ObservationDraft) => `${o.type}\u0000${o.title.trim().toLowerCase()}`;
  const known = new Set(named.map(key));
  return [
    ...named.map((o) => ({ ...o, supersedes: null })),
    ...prepared.observations.filter((o) => !known.has(key(o))),
  ];
}

/**
 * The heuristic reading of a turn, done before its write transaction (it is pure; holding the write
 * lock through it would keep the hooks waiting). It always runs: with an LLM result it still says
 * which commands worked again (closing failures left open) and which task lists were finished.
 */
function readTurn(
  deps: DrainDeps,
  events: QueuedEvent[],
  narration: Narration[],
  branch: { branch?: string },
): TurnResult | null {
  const first = events[0];
  if (!first) return null;
  const project = deps.store.sessions.project(first.projectId as ProjectId);
  // The numbered tasks the session's stored list still has open, for a TaskUpdate that names only one.
  const list = deps.store.observations.bySubject(first.projectId as ProjectId, tasksSubject(first.sessionId));
  return deps.distiller.distilTurn({
    projectRoot: project?.root ?? first.cwd,
    events,
    previousSummary: deps.store.summaries.get(first.sessionId),
    narration,
    ...branch,
    earlierTasks: list?.status === 'active' ? openNumberedTasks(list.facts) : [],
  });
}

/**
 * The user's words of a turn read from its events, when no transcript can be read for it (the host
 * wrote none, or it is not there yet): the transcript, when it comes, is read the same way and merges
 * into the same memories. Empty when the transcript will be read after the turn.
 */
function spokenWithoutTranscript(deps: DrainDeps, events: readonly QueuedEvent[]): Extracted[] {
  const path = [...events].reverse().find((e) => e.transcriptPath)?.transcriptPath;
  if (deps.readTranscripts && path && existsSync(path)) return [];
  if (
    !events.some(
      (e) => e.event.kind === 'prompt' || e.event.kind === 'tool_failure' || e.event.kind === 'post_compact',
    )
  )
    return [];
  const first = events[0];
  const before = first ? deps.store.events.lastAssistantMessage(first.sessionId, first.at) : '';
  return userWordsOfTurn(events, before);
}

function distilTurn(
  deps: DrainDeps,
  events: QueuedEvent[],
  now: number,
  prepared: PreparedTurn | null,
  heuristic: TurnResult,
  spoken: readonly Extracted[] = [],
): number {
  const { store } = deps;
  const first = events[0];
  if (!first) return 0;
  const sessionId = first.sessionId;
  const projectId = first.projectId as ProjectId;
  const result = prepared
    ? { observations: withKnowledge(prepared, heuristic), summary: prepared.summary }
    : heuristic;
  const provenance = turnProvenance(events);
  const at = events[events.length - 1]?.at ?? now;
  // What the distiller made of the turn relays what the turn took in (distill/evidence-trust); an
  // LLM's reading is worth no more than the least trusted thing it read.
  const floor = floorOfEvents(events, deps.store.sessions.project(projectId)?.root ?? first.cwd);
  const made: TrustClass = prepared ? lowestTrust(['tool', floor]) : relayedTrust('tool', floor);
  const ctx = { origin: prepared ? ('llm' as const) : ('hook' as const), at: now };
  const stored = storeKnowledge(
    store,
    {
      projectId,
      sessionId,
      source: prepared ? 'llm' : 'hook',
      memories: [
        ...result.observations.map((draft) => {
          // The LLM may only replace what it was shown (checked when it is prepared).
          const { supersedes, ...plain } = { supersedes: null, ...draft };
          return { draft: { ...plain, trust: plain.trust ?? made }, createdAt: at, provenance, supersedes };
        }),
        ...spoken.map((x) => ({
          draft: x.draft,
          createdAt: x.at || at,
          provenance,
          ...(x.refutes ? { refutes: x.refutes } : {}),
        })),
      ],
      resolutions: (heuristic.resolutions ?? []).map((r) => ({ ...r, at: r.at || at })),
      removedFiles: [
        ...(heuristic.removedFiles ?? []).map((path) => ({ path, at })),
        ...(heuristic.movedFiles ?? []).map((m) => ({ path: m.from, at, to: m.to })),
      ],
      droppedText: (heuristic.droppedText ?? []).map((d) => ({ ...d, at })),
      ...(heuristic.notFixed ? { notFixed: [{ said: heuristic.notFixed, at: first.at }] } : {}),
      finishedTasks: (heuristic.finishedTasks ?? []).map((subject) => ({
        subject,
        at,
        ...(heuristic.doneTasks ? { done: heuristic.doneTasks } : {}),
      })),
    },
    ctx,
    (error) => {
      // A draft that cannot be a memory (no title, no type) is skipped and logged.
      if (!isEngramError(error, 'INPUT_INVALID')) throw error;
      deps.logger.warn('a distilled memory was not stored', { error: describeError(error) });
    },
  );
  const created = stored.created;
  if (prepared) store.llmLedger.setObservations(prepared.ledgerId, created);
  for (const e of events) {
    if (e.event.kind === 'prompt' && e.event.prompt.trim() !== '') {
      store.summaries.addPrompt(sessionId, projectId, e.seq, e.event.prompt, e.at);
    }
  }
  const ended = events.find((e) => e.event.kind === 'session_end');
  if (result.summary)
    store.memory.saveSummary(sessionId, projectId, result.summary, ended !== undefined, ctx, at);
  if (ended && ended.event.kind === 'session_end') {
    store.sessions.end(sessionId, ended.event.reason, ended.at);
    store.memory.finishSummary(sessionId, ctx, ended.at);
  }
  store.events.markDone(
    events.map((e) => e.seq),
    now,
  );
  return created;
}

/**
 * Durable names for what a turn's memories came from: the session, the turn's time span in it (what
 * `forget` erases raw events and prompts by), and the tool calls.
 */
export function turnProvenance(events: readonly QueuedEvent[]): string[] {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return [];
  const tools = events.flatMap((e) =>
    (e.event.kind === 'tool' || e.event.kind === 'tool_failure') && e.event.toolUseId
      ? [`tool:${e.event.toolUseId}`]
      : [],
  );
  return [`session:${first.sessionId}`, `turn:${first.at}-${last.at}`, ...tools.slice(0, 40)];
}

type TurnStep = 'done' | 'stop';

function commitTurn(
  deps: DrainDeps,
  events: QueuedEvent[],
  options: DrainOptions,
  report: DrainReport,
  prepared: PreparedTurn | null,
): TurnStep {
  const seqs = events.map((e) => e.seq);
  try {
    // What the assistant said during the turn, and how its tool calls ended where the hooks do not say
    // (a Codex command's exit code), read from the transcript before the write transaction (file I/O).
    const pending = deps.readTranscripts ? readPendingTranscript(deps.store, events) : null;
    const narration = turnNarration(pending, events);
    const heuristic = readTurn(
      deps,
      withTranscriptOutcomes(events, pending),
      narration,
      turnBranch(pending, events),
    );
    const spoken = spokenWithoutTranscript(deps, events);
    const created = deps.store.transaction(() => {
      // Someone else (a flush, or another worker before it lost its lock) may have done this turn.
      if (!heuristic || !deps.store.events.allPending(seqs)) return -1;
      return distilTurn(deps, events, options.now, prepared, heuristic, spoken);
    });
    if (created < 0) return 'stop';
    if (deps.readTranscripts) readTranscriptAfter(deps, events, options.now);
    report.turns++;
    report.events += seqs.length;
    report.observations += created;
    return 'done';
  } catch (error) {
    if (isStoreBusy(error)) {
      // Another writer holds the database: the turn stays pending, untouched, for the next round.
      report.busy++;
      deps.logger.warn('the database is busy; the turn waits for the next round', {
        sessionId: events[0]?.sessionId,
      });
      return 'stop';
    }
    report.failures++;
    const message = describeError(error);
    deps.logger.error('distillation failed', {
      sessionId: events[0]?.sessionId,
      seqs: `${seqs[0]}..${seqs[seqs.length - 1]}`,
      error: message,
    });
    try {
      deps.store.transaction(() => deps.store.events.markFailed(seqs, message, options.maxAttempts));
    } catch (markError) {
      // Could not even count the attempt (the database went busy): the turn is simply tried again.
      deps.logger.warn('could not record the failed attempt', { error: describeError(markError) });
    }
    return 'stop'; // keep the session's order: later turns wait for this one
  }
}

/** The turns of each session with pending events that are ready to distil, in order. */
function* readyTurns(deps: DrainDeps, options: DrainOptions, report: DrainReport) {
  for (const { sessionId } of deps.store.events.pendingSessions()) {
    if (deps.inboxDir) importInboxInto(deps.store, deps.inboxDir, deps.logger, deps.standingFiles);
    // A session that only waits for its open turn's Stop, with nothing new since the last pass and
    // not stale yet, is not read again (its events could be many and large).
    const stamp = deps.store.events.pendingStamp(sessionId);
    const key = `${stamp.count}:${stamp.lastSeq}:${stamp.attempts}`;
    const fresh = options.now - stamp.lastAt < options.staleTurnMs;
    if (!options.force && fresh && deps.waiting?.get(sessionId) === key) continue;
    deps.waiting?.delete(sessionId);
    const pending = deps.store.events.pendingOf(sessionId);
    if (pending.unreadable.length > 0) {
      deps.logger.error('parking unreadable events', { sessionId, count: pending.unreadable.length });
      deps.store.transaction(() => deps.store.events.park(pending.unreadable, 'unreadable event payload'));
      report.failures += pending.unreadable.length;
    }
    for (const turn of splitTurns(pending.events)) {
      const last = turn.events[turn.events.length - 1];
      const stale = last !== undefined && options.now - last.at >= options.staleTurnMs;
      if (!turn.closed && !options.force && !stale) {
        deps.waiting?.set(sessionId, key);
        break;
      }
      // The consumer answers 'stop' to end this session's pass (order is kept). A turn whose transcript
      // is a host's store (opencode's) is read from the session's log, written from it now.
      const step: TurnStep | undefined = yield deps.readTranscripts
        ? withHostTranscripts(turn.events, deps.hostSessionsDir, deps.logger, {
            get: (path) => deps.store.transcripts.sourceCursor(path),
            save: (path, cursor) => deps.store.transcripts.saveSourceCursor(path, cursor, options.now),
          })
        : turn.events;
      if (step === 'stop') break;
    }
  }
}

/** One pass over every session with pending events (heuristic distiller only). */
export function drainOnce(deps: DrainDeps, options: DrainOptions): DrainReport {
  const report: DrainReport = { turns: 0, events: 0, observations: 0, failures: 0, busy: 0 };
  const turns = readyTurns(deps, options, report);
  let next = turns.next();
  while (!next.done) next = turns.next(commitTurn(deps, next.value, options, report, null));
  return report;
}

/**
 * One pass, with each turn first offered to `prepare` (the LLM distiller) outside any transaction;
 * a turn it declines (null: no provider, budget reached, failures) is distilled heuristically.
 */
export async function drainOnceAsync(
  deps: DrainDeps,
  options: DrainOptions,
  prepare: TurnPreparer,
): Promise<DrainReport> {
  const report: DrainReport = { turns: 0, events: 0, observations: 0, failures: 0, busy: 0 };
  const turns = readyTurns(deps, options, report);
  let next = turns.next();
  while (!next.done) {
    const prepared = await prepare(next.value, options.now);
    next = turns.next(commitTurn(deps, next.value, options, report, prepared));
  }
  return report;
}

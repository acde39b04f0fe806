/**
 * The default distiller: local, deterministic, no LLM and no network. One turn's events — with the
 * assistant's words between them when the transcript gave them — become the knowledge a senior
 * engineer would keep: one memory per outcome (each task the turn finished), gotchas with their fix,
 * the failure still open, findings, how the project is built, tested and run, conventions its commits
 * show, and the task state; plus the session's rolling summary, and the commands that worked (so the
 * worker can close failures left open earlier).
 */
import type { ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { analyseTurn, type Narration, type TurnAnalysis } from './analyse-turn.ts';
import { commandFactObservations, conventionObservations } from './command-facts.ts';
import {
  gotchaObservations,
  openFailure,
  resolutions,
  unmetPredictions,
  type Resolution,
} from './gotchas.ts';
import { pairsOf } from './dropped-text.ts';
import { notFixedReport } from './not-fixed.ts';
import { findingObservations } from './findings.ts';
import { outcomeObservations } from './outcomes.ts';
import { floorOfEvents } from './evidence-trust.ts';
import { mergeSummary } from './rolling-summary.ts';
import { tasksFinished, tasksSubject, ticketObservation, todoObservation } from './task-state.ts';
import { withLaterEdits } from './task-evidence.ts';
import type { TodoItem } from './todo-list.ts';
import { oneStoryEach } from './turn-parts.ts';
import { asString } from './text.ts';

export interface TurnInput {
  /** Absolute project root, to make file paths relative. */
  projectRoot: string;
  /** One turn of one session, in order (may be partial, or hold several prompts). */
  events: QueuedEvent[];
  /** The session's summary so far. */
  previousSummary: SummaryDraft | null;
  /** What the assistant said during the turn (from the transcript), when available. */
  narration?: Narration[];
  /**
   * The git branch the host recorded for the turn (its transcript): '' when the session works in no
   * git repository; absent when the host does not say.
   */
  branch?: string;
  /** The session's numbered tasks still open before this turn (a later TaskUpdate names only the number). */
  earlierTasks?: TodoItem[];
}

export interface TurnResult {
  /** A few meaningful observations (not one per tool call); may be empty. */
  observations: ObservationDraft[];
  /** The updated rolling summary of the session, or null when the turn adds nothing. */
  summary: SummaryDraft | null;
  /** Commands that ended the turn working: they close failures of the same command left open earlier. */
  resolutions?: Resolution[];
  /** Subjects of task lists the turn finished (their memories are closed). */
  finishedTasks?: string[];
  /** The items of the list it finished (a stored list with other items still open stays open). */
  doneTasks?: string[];
  /** Project files the turn removed: earlier work of the session on them is no longer part of it. */
  removedFiles?: string[];
  /** Project files the turn renamed: earlier work of the session on them is told under the new name. */
  movedFiles?: { from: string; to: string }[];
  /** The session's task list at the end of the turn, when the turn touched it (the next turn's `earlierTasks`). */
  tasks?: TodoItem[];
  /** Documents the turn edited and the word pairs they stopped saying (see `dropped-text.ts`). */
  droppedText?: DroppedText[];
  /** The user's words when the turn opened saying the work before did not do it (see `not-fixed.ts`). */
  notFixed?: string;
}

/** A document and the word pairs an edit took out of it. */
export interface DroppedText {
  path: string;
  pairs: string[];
}

/**
 * The documents of the turn's edits with what they stopped saying, each once — only what the turn's
 * own words named (the user's prompt, the assistant's narration): a wording the turn talked about
 * and took out was taken back; one that went in a rewrite nobody spoke of may still hold.
 */
function droppedText(a: TurnAnalysis): DroppedText[] {
  const said = pairsOf([...a.prompts, ...a.narration.map((n) => n.text)].join('\n'));
  const byPath = new Map<string, Set<string>>();
  for (const e of a.edits) {
    const named = e.dropped.filter((p) => said.has(p));
    if (named.length === 0) continue;
    const pairs = byPath.get(e.path) ?? new Set<string>();
    for (const p of named) pairs.add(p);
    byPath.set(e.path, pairs);
  }
  return [...byPath].map(([path, pairs]) => ({ path, pairs: [...pairs] }));
}

export interface Distiller {
  distilTurn(input: TurnInput): TurnResult;
}

function distil(input: TurnInput, maxFacts: number): TurnResult {
  const events = Array.isArray(input.events) ? input.events : [];
  const root = typeof input.projectRoot === 'string' ? input.projectRoot : '';
  const narration = Array.isArray(input.narration) ? input.narration : [];
  const a = analyseTurn(
    events,
    root,
    narration,
    input.previousSummary?.filesEdited ?? [],
    typeof input.branch === 'string' ? input.branch : null,
    Array.isArray(input.earlierTasks) ? input.earlierTasks : [],
  );
  // An item the turn's edits did after the list was last written is done, whatever the list says.
  a.todos = withLaterEdits(a.todos, a.edits, a.todosAt);
  const sessionId = asString(events[0]?.sessionId) || 'session';
  const candidates = [
    ...outcomeObservations(a, maxFacts),
    ...gotchaObservations(a),
    ...unmetPredictions(a),
    openFailure(a),
    ...findingObservations(a, sessionId),
    ...commandFactObservations(a),
    ...conventionObservations(a),
    todoObservation(a, sessionId),
    ticketObservation(a),
  ];
  const seen = new Set<string>();
  const observations: ObservationDraft[] = [];
  for (const o of candidates) {
    if (!o || o.title.trim() === '') continue;
    const key = o.subject ?? `${o.type}\u0000${o.title.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    observations.push(o);
  }
  return {
    observations: oneStoryEach(observations),
    summary: mergeSummary(
      input.previousSummary ?? null,
      a,
      floorOfEvents(events, root || undefined) === 'external',
    ),
    resolutions: resolutions(a),
    finishedTasks: tasksFinished(a) ? [tasksSubject(sessionId)] : [],
    ...(tasksFinished(a) ? { doneTasks: (a.todos ?? []).map((t) => t.content) } : {}),
    ...(a.removed.length > 0 ? { removedFiles: a.removed.map((r) => r.path) } : {}),
    ...(a.moved.length > 0 ? { movedFiles: a.moved.map((m) => ({ from: m.from, to: m.to })) } : {}),
    ...(a.todos ? { tasks: a.todos } : {}),
    ...(a.edits.some((e) => e.dropped.length > 0) ? { droppedText: droppedText(a) } : {}),
    ...(notFixedReport(a.prompts) !== '' ? { notFixed: notFixedReport(a.prompts) } : {}),
  };
}

/**
 * The heuristic distiller. `maxFacts` caps the facts of an outcome memory (default 12). Never throws
 * on odd input: any field of any event may be missing or of the wrong type.
 */
export function createHeuristicDistiller(options: { maxFacts?: number } = {}): Distiller {
  const maxFacts = Math.max(3, options.maxFacts ?? 12);
  return { distilTurn: (input) => distil(input, maxFacts) };
}

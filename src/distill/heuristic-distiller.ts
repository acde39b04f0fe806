/**
 * The default distiller: local, deterministic, no LLM and no network. One turn's events become a few
 * typed observations (the request and what was done; errors and fixes; a commit; subagent findings;
 * open tasks; a compaction summary) and an updated rolling summary of the session.
 */
import type { ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { analyseTurn } from './analyse-turn.ts';
import { mergeSummary } from './rolling-summary.ts';
import {
  commitObservation,
  compactObservation,
  errorObservation,
  mainObservation,
  subagentObservations,
  todoObservation,
} from './turn-observations.ts';

export interface TurnInput {
  /** Absolute project root, to make file paths relative. */
  projectRoot: string;
  /** One turn of one session, in order (may be partial, or hold several prompts). */
  events: QueuedEvent[];
  /** The session's summary so far. */
  previousSummary: SummaryDraft | null;
}

export interface TurnResult {
  /** A few meaningful observations (not one per tool call); may be empty. */
  observations: ObservationDraft[];
  /** The updated rolling summary of the session, or null when the turn adds nothing. */
  summary: SummaryDraft | null;
}

export interface Distiller {
  distilTurn(input: TurnInput): TurnResult;
}

function distil(input: TurnInput, maxFacts: number): TurnResult {
  const events = Array.isArray(input.events) ? input.events : [];
  const root = typeof input.projectRoot === 'string' ? input.projectRoot : '';
  const a = analyseTurn(events, root);
  const main = mainObservation(a, maxFacts);
  const candidates = [
    main,
    errorObservation(a),
    commitObservation(a, main?.title ?? ''),
    ...subagentObservations(a),
    todoObservation(a),
    compactObservation(a),
  ];
  const seen = new Set<string>();
  const observations: ObservationDraft[] = [];
  for (const o of candidates) {
    if (!o || o.title.trim() === '') continue;
    const key = `${o.type}\u0000${o.title.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    observations.push(o);
  }
  return { observations, summary: mergeSummary(input.previousSummary ?? null, a) };
}

/**
 * The heuristic distiller. `maxFacts` caps the facts of the main observation (default 12). Never
 * throws on odd input: any field of any event may be missing or of the wrong type.
 */
export function createHeuristicDistiller(options: { maxFacts?: number } = {}): Distiller {
  const maxFacts = Math.max(3, options.maxFacts ?? 12);
  return { distilTurn: (input) => distil(input, maxFacts) };
}

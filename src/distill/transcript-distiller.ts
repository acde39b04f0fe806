/**
 * Transcripts → memories. A session's entries are split into turns (a new turn at each prompt); each
 * turn becomes the same events the hooks would have captured, with the assistant's words between
 * them, and goes through the heuristic distiller (backfill); the typed extractors add what only a
 * transcript shows: decisions, the user's choices, corrections, standing preferences and conventions,
 * tool versions. In live use the hooks already captured the tool events, so only the extractors run
 * (no duplicate observations).
 */
import type { CapturedEvent, ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import type { TranscriptEntry } from '../core/transcript.ts';
import type { Narration } from './analyse-turn.ts';
import { extractAnswers } from './extractors/answers.ts';
import { extractCorrections } from './extractors/corrections.ts';
import { extractDecisions } from './extractors/decisions.ts';
import type { Extracted } from './extractors/extracted.ts';
import { extractPreferences } from './extractors/preferences.ts';
import { extractProjectFacts } from './extractors/project-facts.ts';
import type { Resolution } from './gotchas.ts';
import type { Distiller } from './heuristic-distiller.ts';

export interface TranscriptMemory {
  draft: ObservationDraft;
  /** Transcript record uuids it came from. */
  provenance: string[];
  at: number;
}

export interface TranscriptDistillation {
  memories: TranscriptMemory[];
  /** Commands that ended a turn working (they close failures left open earlier), oldest first. */
  resolutions: Resolution[];
  /** Task lists finished (their memories are closed), with when. */
  finishedTasks: { subject: string; at: number; done?: string[] }[];
  summary: SummaryDraft | null;
  turns: number;
}

/** Run every extractor over a session's entries; keep what passes `minConfidence`. */
export function extractAll(entries: readonly TranscriptEntry[], minConfidence = 0.5): Extracted[] {
  return [
    ...extractDecisions(entries),
    ...extractAnswers(entries),
    ...extractCorrections(entries),
    ...extractPreferences(entries),
    ...extractProjectFacts(entries),
  ].filter((x) => x.confidence >= minConfidence);
}

export function splitTranscriptTurns(entries: readonly TranscriptEntry[]): TranscriptEntry[][] {
  const turns: TranscriptEntry[][] = [];
  let current: TranscriptEntry[] = [];
  for (const e of entries) {
    if (e.kind === 'prompt' && current.some((c) => c.kind !== 'compact_boundary')) {
      turns.push(current);
      current = [];
    }
    current.push(e);
  }
  if (current.length > 0) turns.push(current);
  return turns;
}

/**
 * Each entry's time, kept in the transcript's order: an entry stamped no later than the one before
 * it (records written in the same millisecond, or rewritten with one time) comes 1 ms after it, so
 * the assistant's words stay between the tool calls they were said between.
 */
export function entryTimes(turn: readonly TranscriptEntry[]): Map<TranscriptEntry, number> {
  const out = new Map<TranscriptEntry, number>();
  let previous = -Infinity;
  for (const e of turn) {
    const at = e.at > previous ? e.at : previous + 1;
    out.set(e, at);
    previous = at;
  }
  return out;
}

/** What the assistant said during a turn (the words between its tool calls). */
export function turnNarration(
  turn: readonly TranscriptEntry[],
  times: ReadonlyMap<TranscriptEntry, number> = entryTimes(turn),
): Narration[] {
  return turn.flatMap((e) =>
    e.kind === 'assistant_text' ? [{ at: times.get(e) ?? e.at, text: e.text }] : [],
  );
}

/** The events the hooks would have captured for one transcript turn. */
export function turnEvents(
  turn: readonly TranscriptEntry[],
  times: ReadonlyMap<TranscriptEntry, number> = entryTimes(turn),
): { event: CapturedEvent; at: number; uuid: string }[] {
  const out: { event: CapturedEvent; at: number; uuid: string }[] = [];
  let last: Extract<TranscriptEntry, { kind: 'assistant_text' }> | null = null;
  for (const original of turn) {
    const e = { ...original, at: times.get(original) ?? original.at } as TranscriptEntry;
    if (e.kind === 'prompt') out.push({ event: { kind: 'prompt', prompt: e.text }, at: e.at, uuid: e.uuid });
    else if (e.kind === 'assistant_text') last = e;
    else if (e.kind === 'compact_summary')
      out.push({ event: { kind: 'post_compact', trigger: 'auto', summary: e.text }, at: e.at, uuid: e.uuid });
    else if (e.kind === 'tool_call' && e.result && !e.sidechain) {
      const base = { tool: e.name, toolUseId: e.id, input: e.input };
      const structured = e.result.structured;
      const fields =
        structured !== null && typeof structured === 'object' && !Array.isArray(structured) ? structured : {};
      // The tool's structured result where there is one; its text result fills in what it lacks.
      const response =
        'stdout' in fields || 'content' in fields ? fields : { ...fields, content: e.result.text };
      out.push({
        event: e.result.isError
          ? { kind: 'tool_failure', ...base, error: e.result.text, interrupted: false }
          : { kind: 'tool', ...base, response },
        at: e.at,
        uuid: e.uuid,
      });
    }
  }
  if (last) out.push({ event: { kind: 'stop', lastMessage: last.text }, at: last.at, uuid: last.uuid });
  return out;
}

/**
 * `context`: entries read before (already distilled); extractors see them so a new prompt can be read
 * against what preceded it, but nothing is produced from them again.
 */
export function distilTranscript(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[],
  options: {
    distiller: Distiller | null;
    projectRoot: string;
    sessionId: string;
    previousSummary: SummaryDraft | null;
  },
): TranscriptDistillation {
  const memories: TranscriptMemory[] = [];
  const resolutions: Resolution[] = [];
  const finishedTasks: { subject: string; at: number; done?: string[] }[] = [];
  let summary = options.previousSummary;
  const turns = splitTranscriptTurns(entries);
  const times = entryTimes(entries);
  if (options.distiller) {
    for (const turn of turns) {
      const events = turnEvents(turn, times);
      if (events.length === 0) continue;
      const queued: QueuedEvent[] = events.map((e, i) => ({
        seq: i,
        sessionId: options.sessionId,
        projectId: '' as never,
        cwd: options.projectRoot,
        transcriptPath: null,
        at: e.at,
        event: e.event,
        attempts: 0,
      }));
      const result = options.distiller.distilTurn({
        projectRoot: options.projectRoot,
        events: queued,
        previousSummary: summary,
        narration: turnNarration(turn, times),
      });
      const at = events[events.length - 1]?.at ?? 0;
      const provenance = [...new Set(events.map((e) => e.uuid))].slice(0, 20);
      for (const draft of result.observations) memories.push({ draft, provenance, at });
      resolutions.push(...(result.resolutions ?? []));
      for (const subject of result.finishedTasks ?? [])
        finishedTasks.push({ subject, at, ...(result.doneTasks ? { done: result.doneTasks } : {}) });
      if (result.summary) summary = result.summary;
    }
  }
  const old = new Set(context.map((e) => e.uuid));
  for (const x of extractAll([...context, ...entries])) {
    if (!old.has(x.uuid)) memories.push({ draft: x.draft, provenance: [x.uuid], at: x.at });
  }
  return {
    memories,
    resolutions,
    finishedTasks,
    summary: options.distiller ? summary : null,
    turns: turns.length,
  };
}

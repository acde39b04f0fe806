/**
 * The part of a session transcript engram has not ingested yet, read without storing anything: what
 * the assistant said during the turn being distilled (its words between tool calls, which no hook
 * carries), and the extracts the LLM step shows the model. The ingest that follows the turn stores
 * the transcript's progress, as before.
 */
import { existsSync } from 'node:fs';
import { fingerprintMatches, readJsonlFrom } from '../capture/transcript/read-jsonl.ts';
import { transcriptReaderFor } from '../capture/hosts/transcript-readers.ts';
import type { ParsedTranscript } from '../capture/transcript/parsed-transcript.ts';
import type { QueuedEvent } from '../core/model.ts';
import type { TranscriptEntry } from '../core/transcript.ts';
import type { Narration } from '../distill/analyse-turn.ts';
import { branchOf } from '../distill/transcript-turns.ts';
import type { Store } from '../store/store.ts';

export interface PendingTranscript {
  parsed: ParsedTranscript;
  /** The previous read's last entries (context for extractors). */
  context: TranscriptEntry[];
}

/** Read what was appended to the turn's transcript since the last ingest, or null without one. */
export function readPendingTranscript(
  store: Store,
  events: readonly QueuedEvent[],
): PendingTranscript | null {
  const path = [...events].reverse().find((e) => e.transcriptPath)?.transcriptPath;
  if (!path || !existsSync(path)) return null;
  const previous = store.transcripts.progress(path);
  const keep = previous !== null && fingerprintMatches(path, previous.fingerprint);
  const context = keep ? previous.tail : [];
  const reader = transcriptReaderFor(path);
  const chunk = readJsonlFrom(path, keep ? previous.offset : 0, {
    peek: reader.peek,
    maxBytes: 8_000_000,
  });
  const parser = reader.parser(context, keep ? previous.chain : []);
  for (const line of chunk.lines) {
    if (line.skipped !== undefined) parser.skip(line.skipped);
    else parser.add(line.value);
  }
  return { parsed: parser.result(), context };
}

/** What the assistant said between the turn's first and last event (a second of slack each side). */
export function turnNarration(
  pending: PendingTranscript | null,
  events: readonly QueuedEvent[],
): Narration[] {
  const first = events[0]?.at ?? 0;
  const last = events[events.length - 1]?.at ?? 0;
  if (!pending) return [];
  return pending.parsed.entries.flatMap((e) =>
    e.kind === 'assistant_text' && e.at >= first - 1000 && e.at <= last + 1000
      ? [{ at: e.at, text: e.text }]
      : [],
  );
}

/** The git branch the transcript recorded with the turn's prompt (see `TurnInput.branch`), if it did. */
export function turnBranch(
  pending: PendingTranscript | null,
  events: readonly QueuedEvent[],
): { branch?: string } {
  if (!pending) return {};
  const first = events[0]?.at ?? 0;
  const last = events[events.length - 1]?.at ?? 0;
  return branchOf(pending.parsed.entries.filter((e) => e.at >= first - 1000 && e.at <= last + 1000));
}

/**
 * The turn's events with what only the transcript knows of their outcome: a tool call the hook reported
 * as done (Codex's PostToolUse carries a command's output, never its exit status) whose transcript
 * record says it failed — a non-zero exit code — becomes the failure it was. Matched by the call's id;
 * a call id used again is matched to the transcript's call nearest in time. Events are not rewritten in
 * the store: this is how the turn is read.
 */
export function withTranscriptOutcomes(
  events: QueuedEvent[],
  pending: PendingTranscript | null,
): QueuedEvent[] {
  if (!pending) return events;
  const failed = new Map<string, Extract<TranscriptEntry, { kind: 'tool_call' }>[]>();
  for (const e of pending.parsed.entries)
    if (e.kind === 'tool_call' && e.result?.isError && !e.sidechain)
      failed.set(e.id, [...(failed.get(e.id) ?? []), e]);
  if (failed.size === 0) return events;
  return events.map((q) => {
    const e = q.event;
    if (e.kind !== 'tool' || !e.toolUseId) return q;
    const calls = failed.get(e.toolUseId);
    if (!calls) return q;
    // Another call with this id that succeeded may be nearer: then this one did not fail.
    const same = pending.parsed.entries.filter(
      (c): c is Extract<TranscriptEntry, { kind: 'tool_call' }> =>
        c.kind === 'tool_call' && c.id === e.toolUseId,
    );
    const nearest = same.reduce((a, b) => (Math.abs(b.at - q.at) < Math.abs(a.at - q.at) ? b : a));
    if (!nearest.result?.isError) return q;
    const { response: _response, ...rest } = e;
    return {
      ...q,
      event: { ...rest, kind: 'tool_failure', error: nearest.result.text, interrupted: false },
    };
  });
}

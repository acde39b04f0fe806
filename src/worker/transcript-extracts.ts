/**
 * What the transcript adds to a turn before the LLM sees it: the extractors' findings (decisions,
 * corrections, preferences, project facts) and the assistant's own words between tool calls, read
 * from the part of the session transcript engram has not ingested yet. Read-only: the transcript's
 * progress is stored by the ingest that follows the turn, as before.
 */
import type { QueuedEvent } from '../core/model.ts';
import { extractAll } from '../distill/transcript-distiller.ts';
import type { Store } from '../store/store.ts';
import { readPendingTranscript } from './pending-transcript.ts';

const clip = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** Up to `maxChars` of one-line extracts for the turn, or none when there is no transcript. */
export function transcriptExtracts(store: Store, events: readonly QueuedEvent[], maxChars = 1500): string[] {
  const pending = readPendingTranscript(store, events);
  if (!pending) return [];
  const { context } = pending;
  const entries = pending.parsed.entries;
  const lines = [
    ...extractAll(entries, context, { unverified: true }).map(
      (x) => `${x.draft.type}: ${clip(x.draft.title, 200)}`,
    ),
    ...entries
      .filter((e) => e.kind === 'assistant_text')
      .slice(-4)
      .map((e) => `assistant: ${clip(e.kind === 'assistant_text' ? e.text : '', 300)}`),
  ];
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars) break;
    out.push(line);
    used += line.length + 1;
  }
  return out;
}

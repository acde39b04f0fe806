/**
 * What the transcript adds to a turn before the LLM sees it: the extractors' findings (decisions,
 * corrections, preferences, project facts) and the assistant's own words between tool calls, read
 * from the part of the session transcript engram has not ingested yet. Read-only: the transcript's
 * progress is stored by the ingest that follows the turn, as before.
 */
import { existsSync } from 'node:fs';
import { fingerprintMatches, readJsonlFrom } from '../capture/transcript/read-jsonl.ts';
import { createTranscriptParser, peekSkippedType } from '../capture/transcript/transcript-entries.ts';
import type { QueuedEvent } from '../core/model.ts';
import { extractAll } from '../distill/transcript-distiller.ts';
import type { Store } from '../store/store.ts';

const clip = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** Up to `maxChars` of one-line extracts for the turn, or none when there is no transcript. */
export function transcriptExtracts(store: Store, events: readonly QueuedEvent[], maxChars = 1500): string[] {
  const path = [...events].reverse().find((e) => e.transcriptPath)?.transcriptPath;
  if (!path || !existsSync(path)) return [];
  const previous = store.transcripts.progress(path);
  const keep = previous !== null && fingerprintMatches(path, previous.fingerprint);
  const context = keep ? previous.tail : [];
  const chunk = readJsonlFrom(path, keep ? previous.offset : 0, {
    peek: peekSkippedType,
    maxBytes: 8_000_000,
  });
  const parser = createTranscriptParser(context);
  for (const line of chunk.lines) {
    if (line.skipped !== undefined) parser.skip(line.skipped);
    else parser.add(line.value);
  }
  const entries = parser.result().entries;
  const old = new Set(context.map((e) => e.uuid));
  const lines = [
    ...extractAll([...context, ...entries])
      .filter((x) => !old.has(x.uuid))
      .map((x) => `${x.draft.type}: ${clip(x.draft.title, 200)}`),
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

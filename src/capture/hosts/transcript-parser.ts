/**
 * The transcript reader for a file, by whose it is: a Copilot CLI session log (`…/session-state/<id>/
 * events.jsonl`) or Claude Code's JSONL (anything else). Both give the same `ParsedTranscript`, so the
 * worker's ingest and its read of the pending turn need not know which host wrote the file.
 */
import type { ChainLink, TranscriptEntry } from '../../core/transcript.ts';
import { createTranscriptParser } from '../transcript/transcript-entries.ts';
import { createCopilotEventsParser, isCopilotEventsLog } from './copilot/events-log.ts';

export type TranscriptParser = ReturnType<typeof createTranscriptParser>;

export function transcriptParserFor(
  path: string,
  context: readonly TranscriptEntry[] = [],
  chain: readonly ChainLink[] = [],
): TranscriptParser {
  return isCopilotEventsLog(path)
    ? createCopilotEventsParser(context)
    : createTranscriptParser(context, chain);
}

/**
 * What a read of any host's transcript gives: the session and its working directory, the entries, token
 * usage, the record types seen (and how many carried nothing kept), the branches rewound away from and
 * the record chain to carry into the next read. Every host's parser fills one.
 */
import type { ChainLink, Rewind, TranscriptEntry, UsageRecord } from '../../core/transcript.ts';

export interface ParsedTranscript {
  sessionId: string | null;
  cwd: string | null;
  entries: TranscriptEntry[];
  usage: UsageRecord[];
  /** Record type → how many were seen, and how many of them carried nothing engram keeps. */
  types: Map<string, { seen: number; skipped: number }>;
  /** Branches the user rewound away from (their entries are not in `entries`). */
  rewinds: Rewind[];
  /** The end of the record chain, to carry into the next read. */
  chain: ChainLink[];
}

/** A read's result before any record: nothing seen yet, the record chain carried on from `chain`. */
export function emptyParsed(chain: readonly ChainLink[] = []): ParsedTranscript {
  return {
    sessionId: null,
    cwd: null,
    entries: [],
    usage: [],
    types: new Map(),
    rewinds: [],
    chain: [...chain],
  };
}

/** Count a record of `type` read, and whether it carried nothing engram keeps. */
export function countRecord(parsed: ParsedTranscript, type: string, skipped: boolean): void {
  const c = parsed.types.get(type) ?? { seen: 0, skipped: 0 };
  c.seen++;
  if (skipped) c.skipped++;
  parsed.types.set(type, c);
}

/**
 * Host-neutral transcript entries: what engram reads out of an agent's session transcript.
 */
import type { Json } from './model.ts';

/** One meaningful item of a transcript, with provenance (the record's uuid) and time. */
export type TranscriptEntry =
  | {
      kind: 'prompt';
      uuid: string;
      at: number;
      /** What the user typed; for a slash command or skill, `/name args`. */
      text: string;
      /** The slash command or skill it invoked (`/review-pr`), when it was one. */
      command?: string;
    }
  | { kind: 'interrupt'; uuid: string; at: number }
  | { kind: 'assistant_text'; uuid: string; at: number; messageId: string; text: string }
  | {
      kind: 'tool_call';
      uuid: string;
      at: number;
      id: string;
      name: string;
      input: Json;
      /** Filled in when the result arrives. */
      result: { text: string; isError: boolean; structured: Json; uuid: string } | null;
      sidechain: boolean;
    }
  | { kind: 'compact_summary'; uuid: string; at: number; text: string }
  | { kind: 'compact_boundary'; uuid: string; at: number };

/** Token usage of one API message. */
export interface UsageRecord {
  messageId: string;
  model: string;
  at: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One kept transcript record in the `parentUuid` chain (progress records resolved past). */
export interface ChainLink {
  uuid: string;
  parent: string | null;
  at: number;
  /** It made an entry (something was said or done in it). */
  entry: boolean;
}

/** A rewind: the records of the branch the user went back from, oldest first, and when it started. */
export interface Rewind {
  /** The record the new prompt attached to (where the conversation went back to). */
  from: string;
  abandoned: string[];
  since: number;
  at: number;
}

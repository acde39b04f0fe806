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
      /** That command's text as the host expanded it (the host's words, not the user's). */
      expansion?: string;
      /**
       * Typed while the agent worked (queued): the host handed it to the running turn instead of
       * starting a new one, so it does not begin a turn of its own.
       */
      queued?: boolean;
      /**
       * The git branch the host recorded as the prompt was typed: '' where the working directory is in
       * no git repository; absent where the host does not say.
       */
      branch?: string;
    }
  | {
      kind: 'interrupt';
      uuid: string;
      at: number;
      /** The tool call the user rejected (the call itself is dropped from the entries). */
      rejected?: { tool: string; input: Json };
      /** What the user typed when rejecting it (their words, the host's wrapping removed). */
      reason?: string;
    }
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
      /** Made by a subagent, not the main agent. */
      sidechain: boolean;
      /** Which subagent (its id, or the first record of its chain where the host writes no id). */
      agent?: string;
      /** The shell's working directory as the call was made, where the host records it. */
      cwd?: string;
    }
  | { kind: 'compact_summary'; uuid: string; at: number; text: string }
  /**
   * A hook that held the agent back: a Stop hook that refused to let the turn end, a hook's blocking
   * feedback. The host's text, never the user's words.
   */
  | { kind: 'hook_feedback'; uuid: string; at: number; event: string; command: string; text: string }
  | { kind: 'compact_boundary'; uuid: string; at: number }
  /**
   * The host's note that a background task ended (`<task-notification>`: its id, status, a summary
   * with its exit code, its output file), delivered as a user-role message or queued while the agent
   * worked. The host's text, never the user's words.
   */
  | { kind: 'task_notification'; uuid: string; at: number; text: string };

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

/** The host's answer to a rejected tool call ("doesn't want to proceed", "doesn't want to take this action"). */
const REJECTION = /^The user doesn't want to (?:proceed with this tool use|take this action)/;
/**
 * What the user typed when rejecting, after the host's lead-in ("To tell you how to proceed, the user
 * said:", or in Claude Code 2.1.x "The user provided the following reason for the rejection:").
 */
const REJECTION_REASON =
  /(?:To tell you how to proceed, the user said|The user provided the following reason for the rejection):[ \t]*\n?([\s\S]*)$/;
/** Host text that can follow the lead-in without being the user's: a request to clarify a question. */
const HOST_REASON = /^The user wants to clarify these questions\b/;

/** Whether a tool's result is the host saying the user rejected the call. */
export function isRejection(text: string): boolean {
  return REJECTION.test(text.trim());
}

/** The user's words typed as the reason of a rejection, the host's wrapping removed; '' without any. */
export function rejectionReason(text: string): string {
  const said = REJECTION_REASON.exec(text)?.[1] ?? '';
  // Newer hosts append a note for the model after the user's words.
  const words = said.replace(/\n\s*\n\s*Note: The user's next message may contain[\s\S]*$/, '').trim();
  return HOST_REASON.test(words) ? '' : words;
}

/**
 * Context a host puts into the user's message that the user did not type: its system reminders, and an
 * IDE extension's notes of the file the user has open or the lines selected (`<ide_opened_file>`,
 * `<ide_selection>`, …).
 */
const HOST_CONTEXT = /<(system-reminder|ide_[a-z_]+)>[\s\S]*?<\/\1>/g;

/** A user message without the context its host added (see HOST_CONTEXT). */
/** The host's note that a background task ended (`<task-notification>`), sent as a user-role message. */
export const isTaskNotification = (text: string) => /^\s*<task-notification>/.test(text);

export function withoutHostContext(text: string): string {
  return text.replace(HOST_CONTEXT, ' ');
}

/** Transcript entries for the extractors' tests, written as a conversation reads. */
import type { Json } from '../../core/model.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';

let n = 0;

export const prompt = (
  text: string,
  extra: { queued?: boolean; command?: string } = {},
): TranscriptEntry => ({
  kind: 'prompt',
  uuid: `u${++n}`,
  at: n,
  text,
  ...extra,
});

export const say = (text: string): TranscriptEntry => ({
  kind: 'assistant_text',
  uuid: `a${++n}`,
  at: n,
  messageId: `m${n}`,
  text,
});

export const tool = (name: string, input: Json, text = '', isError = false): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `t${++n}`,
  at: n,
  id: `id${n}`,
  name,
  input,
  result: { text, isError, structured: null, uuid: `r${n}` },
  sidechain: false,
});

export const bash = (command: string, text = '', isError = false) => tool('Bash', { command }, text, isError);

export const interrupt = (): TranscriptEntry => ({ kind: 'interrupt', uuid: `i${++n}`, at: n });

/** The user declined a tool call, with the reason they typed (or none). */
export const reject = (name: string, input: Json, reason = ''): TranscriptEntry => ({
  kind: 'interrupt',
  uuid: `x${++n}`,
  at: n,
  rejected: { tool: name, input },
  ...(reason ? { reason } : {}),
});

export const ask = (text: string, isError = false): TranscriptEntry =>
  tool('AskUserQuestion', {}, text, isError);

export const digest = (text: string): TranscriptEntry => ({
  kind: 'compact_summary',
  uuid: `c${++n}`,
  at: n,
  text,
});

export const titles = (xs: readonly { draft: { title: string } }[]) => xs.map((x) => x.draft.title);

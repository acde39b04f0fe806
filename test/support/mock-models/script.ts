/**
 * What a scripted mock model answers, independent of the wire format: text, tool calls (optionally with
 * some text first), or an HTTP error. Each API family (`openai-responses.ts`, `openai-chat.ts`,
 * `gemini.ts`) reads its request into a `Turn` and writes the `Reply` in its own format.
 */

export interface ToolCall {
  name: string;
  /** The call's arguments, as the host's tool schema wants them. */
  args: Record<string, unknown>;
  /** Defaults to an id the `sequence` helper can recognise when the result comes back. */
  id?: string;
}

export type Reply =
  | { text: string }
  | { toolCalls: ToolCall[]; text?: string }
  | { error: { status: number; message?: string } };

export type ReplyLike = Reply | string;

export interface ToolResult {
  /** The call id the host sent back with the result. */
  callId: string;
  name: string | undefined;
  /** The result text the host sent to the model. */
  output: string;
}

/** One request, as the script sees it. */
export interface Turn {
  /** Which API family answered. */
  api: 'openai-responses' | 'openai-chat' | 'gemini';
  /** Text of the latest user message (the prompt of the current turn, host wrappers included). */
  prompt: string;
  /** The tool results that came back since the model's last reply (empty for a fresh prompt). */
  toolResults: ToolResult[];
  /** Model replies since the latest user message (0 for the first reply to it). */
  stepInTurn: number;
  /** Names of the tools the host offered. */
  tools: string[];
  /** All text the request carries (system, messages, tool results), for assertions. */
  text: string;
  body: Record<string, unknown>;
}

export type Script = (turn: Turn) => ReplyLike;

export function normalizeReply(reply: ReplyLike): Reply {
  return typeof reply === 'string' ? { text: reply } : reply;
}

const CALL_TAG = 'call_mock_s';

/**
 * Reply `steps[i]` at step i of a turn, then `after` (default `Done.`). The step is read from the ids of
 * the tool calls this helper handed out (`call_mock_s<i>_<n>`) when the host echoes them back, else from
 * the number of model replies since the prompt (Gemini CLI, for one, renames calls).
 */
export function sequence(steps: ReplyLike[], after: ReplyLike = 'Done.'): Script {
  let calls = 0;
  const stepOf = (turn: Turn): number => {
    if (turn.toolResults.length === 0) return 0;
    for (const r of turn.toolResults) {
      const m = r.callId.startsWith(CALL_TAG) ? /^(\d+)_/.exec(r.callId.slice(CALL_TAG.length)) : null;
      if (m) return Number(m[1]) + 1;
    }
    return turn.stepInTurn;
  };
  return (turn) => {
    const i = stepOf(turn);
    const reply = normalizeReply(steps[i] ?? after);
    if (!('toolCalls' in reply)) return reply;
    return {
      ...reply,
      toolCalls: reply.toolCalls.map((c) => ({
        ...c,
        args: structuredClone(c.args),
        id: c.id ?? `${CALL_TAG}${i}_${++calls}`,
      })),
    };
  };
}

/** Split a string into a few pieces, as a real stream would deliver it. */
export function chunks(s: string, parts = 3): string[] {
  if (s.length < parts * 4) return [s];
  const size = Math.ceil(s.length / parts);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** Text of a content value that is a string, or a list of blocks with `text`. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: unknown) => {
      if (!b || typeof b !== 'object') return '';
      const text = (b as { text?: unknown }).text;
      return typeof text === 'string' ? text : '';
    })
    .join('\n');
}

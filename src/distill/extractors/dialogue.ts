/**
 * The dialogue around each thing the user said: every utterance of the user's — a prompt, a prompt
 * typed while the agent worked, the reason typed when rejecting a tool call, an answer to the
 * assistant's question, a message quoted in the host's compaction digest — with what it answers
 * (the assistant's last words before it, the few messages before that, the tool call it rejected or
 * interrupted) and what came of it (the assistant's first words after it). Reading an utterance by its
 * role in the dialogue needs exactly this; the words alone do not say whether "A" is a choice or
 * "no." a correction.
 */
import type { Json } from '../../core/model.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { digestUserMessages } from '../compact-summary.ts';

export type Channel = 'prompt' | 'queued' | 'rejection' | 'answer' | 'digest';

export interface Utterance {
  uuid: string;
  at: number;
  channel: Channel;
  /** What the user typed (for a rejection, the reason; for an answer, the option picked). */
  text: string;
  /** The assistant's last words before it ('' when none was read). */
  prior: string;
  /** The assistant's last few messages before it, oldest first (options offered a little earlier). */
  recent: string[];
  /** The tool call it rejected or interrupted. */
  action: { tool: string; input: Json } | null;
  /** Typed right after an interrupt or a rejection. */
  interrupted: boolean;
  /** The action was a tool call the user declined (not merely stopped). */
  declined?: boolean;
  /** The assistant's first words after it ('' when none followed in what was read). */
  reply: string;
  /** For an answer: the question asked. */
  question?: string;
  /** What the assistant did after it (tool calls until the next utterance). */
  then: { tool: string; input: Json; ok: boolean }[];
  /** The user's prompt before it (what the assistant's words before it answered), when there was one. */
  before?: string;
}

const RECENT = 4;

/** The answers in an AskUserQuestion result: `"question"="answer"` pairs. */
function answers(text: string): { question: string; answer: string }[] {
  return [...text.matchAll(/"([^"]{3,400}?)"="([^"]{1,400})"/g)].map((m) => ({
    question: (m[1] ?? '').trim(),
    answer: (m[2] ?? '').trim(),
  }));
}

const same = (a: string, b: string) => {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const x = norm(a);
  const y = norm(b);
  return (
    x !== '' &&
    y !== '' &&
    (x === y || (y.length >= 20 && x.startsWith(y)) || (x.length >= 20 && y.startsWith(x)))
  );
};

/**
 * The utterances of `entries`, read with `context` (entries read before) for what they answer. Slash
 * commands are not utterances (their arguments are the command's input).
 */
export function readDialogue(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
): Utterance[] {
  const old = new Set(context.map((e) => e.uuid));
  const all = [...context, ...entries];
  const out: (Utterance & { fresh: boolean })[] = [];
  const recent: string[] = [];
  const prompts: string[] = [];
  let action: Utterance['action'] = null;
  let interrupted = false;
  let declined = false;
  /** The last prompt the user typed (or the slash command they ran), for what an utterance follows. */
  const lastPrompt = { text: '' };
  /** The utterance the assistant's next words answer (held in an object: closures assign it). */
  const last: { current: (Utterance & { fresh: boolean }) | null } = { current: null };

  const utter = (u: Omit<Utterance, 'prior' | 'recent' | 'reply' | 'then'>, e: TranscriptEntry) => {
    const before = lastPrompt.text;
    const made = {
      ...u,
      ...(before !== '' && before !== u.text ? { before } : {}),
      prior: recent[recent.length - 1] ?? '',
      recent: [...recent],
      reply: '',
      then: [],
      fresh: !old.has(e.uuid),
    };
    out.push(made);
    last.current = made;
  };

  for (const e of all) {
    switch (e.kind) {
      case 'assistant_text': {
        if (last.current && last.current.reply === '') last.current.reply = e.text;
        recent.push(e.text);
        if (recent.length > RECENT) recent.shift();
        action = null;
        interrupted = false;
        declined = false;
        break;
      }
      case 'tool_call': {
        if (e.sidechain) break;
        if (last.current)
          last.current.then.push({ tool: e.name, input: e.input, ok: e.result ? !e.result.isError : true });
        action = { tool: e.name, input: e.input };
        if (e.name === 'AskUserQuestion' && e.result && !e.result.isError) {
          for (const a of answers(e.result.text))
            utter(
              {
                uuid: e.result.uuid || e.uuid,
                at: e.at,
                channel: 'answer',
                text: a.answer,
                question: a.question,
                action: null,
                interrupted: false,
              },
              e,
            );
        }
        break;
      }
      case 'interrupt': {
        const rejected = e.rejected ?? null;
        if (rejected) {
          action = rejected;
          declined = true;
        }
        interrupted = true;
        if (e.reason)
          utter(
            {
              uuid: e.uuid,
              at: e.at,
              channel: 'rejection',
              text: e.reason,
              action,
              interrupted: true,
              declined: true,
            },
            e,
          );
        break;
      }
      case 'prompt': {
        if (e.command !== undefined) {
          prompts.push(e.text);
          lastPrompt.text = e.text;
          last.current = null;
          break;
        }
        prompts.push(e.text);
        utter(
          {
            uuid: e.uuid,
            at: e.at,
            channel: e.queued ? 'queued' : 'prompt',
            text: e.text,
            action: interrupted ? action : null,
            interrupted,
            ...(interrupted && declined ? { declined: true } : {}),
          },
          e,
        );
        lastPrompt.text = e.text;
        action = null;
        interrupted = false;
        declined = false;
        break;
      }
      case 'compact_summary': {
        // The digest's quotes of the user come without what they answered.
        recent.length = 0;
        for (const said of digestUserMessages(e.text)) {
          if (prompts.some((p) => same(p, said))) continue;
          prompts.push(said);
          utter(
            { uuid: e.uuid, at: e.at, channel: 'digest', text: said, action: null, interrupted: false },
            e,
          );
        }
        last.current = null;
        break;
      }
      default:
        break;
    }
  }
  return out.filter((u) => u.fresh).map(({ fresh: _fresh, ...u }) => u);
}

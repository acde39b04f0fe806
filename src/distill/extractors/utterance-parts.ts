/**
 * The parts of reading an utterance (see user-words.ts): how the assistant's reply takes it, the tool
 * call it is about, its sentences and their moods, what it contradicts, and the memory draft named by
 * the utterance (`said:<hash>`).
 */
import type { Json, ObservationDraft } from '../../core/model.ts';
import { hash32Hex } from '../../core/ids.ts';
import { clip } from '../text.ts';
import { READ_ONLY_TOOLS } from '../tool-kinds.ts';
import type { Utterance } from './dialogue.ts';
import { clipWords, extracted, type Extracted } from './extracted.ts';
import { CONFIRM_FOLLOWER, contrasts, core, moodOf, negates, opensWithRefusal, type Mood } from './mood.ts';
import { closestSentence, refersTo, sharedScore } from './shared-words.ts';
import { proseSentences, userProse } from './user-prose.ts';

export const AGREE =
  /^(?:yes|yeah|yep|exactly|correct|right|indeed|agreed|absolutely|true|good (?:catch|call|point)|great (?:catch|call|point)|you'?re (?:absolutely |completely |totally |quite )?right|you'?re not wrong|that'?s (?:right|correct|true|a good point)|(?:ah|oh),? (?:you'?re right|i see|good catch)|fair (?:point|enough))\b/i;
export const DISAGREE =
  /^(?:no\b|nope\b|not (?:quite|exactly|really|necessarily)\b|actually,? (?:no|that'?s not|it'?s not|it doesn'?t)\b|i don'?t think so|that'?s not (?:quite |exactly )?(?:right|correct|true|the case|how)|i disagree|unfortunately,? (?:no|not)|not true)/i;
/** Answers that are no choice at all. */
export const TRIVIAL_ANSWER =
  /^(?:yes|no|ok(?:ay)?|none|skip|n\/a|no rig|other|cancel|either|both|neither)\b[.!]?$/i;
/** An answer that hands the choice back ("Not sure / you decide", "no preference"): the user chose nothing. */
export const DEFERRED_ANSWER =
  /\b(?:you decide|you choose|you pick|up to you|your call|not sure|no preference|don'?t mind|don'?t care|whatever you (?:think|prefer|recommend))\b/i;

export const unmark = (s: string) =>
  s
    .replace(/\*\*|__|`/g, '')
    .replace(/^[^A-Za-z0-9(]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();
export const firstSentences = (text: string, n: number) =>
  text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map(unmark)
    .filter((s) => s.length > 1)
    .slice(0, n);

/**
 * How the assistant's answer takes what the user said: it agrees ("Exactly.", "You're right") or
 * disagrees ("No, it's only …") in its opening words; anything else says neither.
 */
export function replyStance(reply: string, claim: string): 'agree' | 'disagree' | 'none' {
  const opening = firstSentences(reply, 3);
  const first = (opening[0] ?? '').replace(
    /^(?:(?:oh|ah|ok(?:ay)?|hmm+|well|great|perfect|good|so)\b[,.!]*\s*)+/i,
    '',
  );
  if (DISAGREE.test(first)) return 'disagree';
  if (AGREE.test(first)) return 'agree';
  // "You're right to question that", "Good catch — …" a little later in the opening.
  if (
    opening.slice(1).some((s) => /^(?:you'?re (?:absolutely |completely )?right|good catch)\b/i.test(s)) &&
    claim !== ''
  )
    return 'agree';
  return 'none';
}

/** A tool call, briefly: "Edit app/routes/api.stream.ts: // biome-ignore …", "Bash `rm -rf dist`". */
export function describeAction(action: { tool: string; input: Json } | null): string {
  if (!action) return '';
  const input = (action.input ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  if (str('command')) return `${action.tool} \`${clip(str('command'), 120)}\``;
  const file = str('file_path') || str('notebook_path') || str('path');
  // What the call would have written: the lines an edit adds, or a new file's first line.
  const before = new Set(
    str('old_string')
      .split('\n')
      .map((l) => l.trim()),
  );
  const added =
    (str('new_string') || str('content')).split('\n').find((l) => l.trim() !== '' && !before.has(l.trim())) ??
    '';
  if (file) return `${action.tool} ${file}${added ? `: ${clip(added.trim(), 100)}` : ''}`;
  // A plan put up for approval: named by its title (its first line), not its JSON.
  const plan = str('plan');
  if (plan)
    return `the plan "${clip((plan.split('\n').find((l) => l.trim() !== '') ?? '').replace(/^#+\s*/, ''), 100)}"`;
  const other = JSON.stringify(action.input ?? '');
  return `${action.tool}${other && other !== '""' && other !== '{}' ? ` ${clip(other, 100)}` : ''}`;
}

/** The text of a tool call that words may refer to (its command, file, and what it would write). */
export function actionText(action: { tool: string; input: Json } | null): string {
  if (!action) return '';
  const input = (action.input ?? {}) as Record<string, unknown>;
  return ['command', 'file_path', 'path', 'old_string', 'new_string', 'content', 'pattern', 'description']
    .map((k) => (typeof input[k] === 'string' ? (input[k] as string).slice(0, 2000) : ''))
    .join('\n');
}

export const normalised = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** A short stable name for an utterance's words. */
export const hash = hash32Hex;

/** The subject every reading of the same words shares. */
export const saidSubject = (text: string) => `said:${hash(normalised(text).slice(0, 600))}`;

export interface Parts {
  words: string;
  sentences: string[];
  moods: Mood[];
}

export function partsOf(u: Utterance): Parts | null {
  const prose = u.channel === 'answer' ? { text: u.text, report: false } : userProse(u.text);
  if (prose.report || prose.text.trim() === '') return null;
  const sentences = proseSentences(prose.text);
  const moods = sentences.map(moodOf);
  // "… need to be the same agent? but tell me if I'm wrong": the claim before it asks for confirmation.
  sentences.forEach((s, i) => {
    if (i > 0 && CONFIRM_FOLLOWER.test(s.trim())) {
      moods[i - 1] = 'confirm';
      moods[i] = 'statement';
    }
  });
  return { words: prose.text, sentences, moods };
}

export const without = (s: string) =>
  s.replace(/\s*(?:,\s*)?(?:right|correct|no|yes|yeah|true|am i right|or not)\s*\?+[!?]*\s*$/i, '').trim();

/** What a user's message contradicts (see the module comment), and the sentence of it that does ('' when the whole message; both '' when it contradicts nothing). */
export interface Contradiction {
  rejected: string;
  by: string;
}

export function contradicted(u: Utterance, p: Parts): Contradiction {
  const none = { rejected: '', by: '' };
  if (u.channel === 'rejection')
    return { rejected: describeAction(u.action) || 'the assistant’s tool call', by: '' };
  // Words about the call the user stopped (not a question or a new request): a correction of it. About
  // the very call the user declined, one word in common is enough.
  const acted = actionText(u.action);
  const about = p.sentences.some((s, i) => {
    const mood = p.moods[i];
    if (mood === 'question' || mood === 'request' || mood === 'confirm' || mood === 'hypothesis')
      return false;
    return u.declined ? sharedScore(s, acted) >= 1 : refersTo(s, acted);
  });
  // Stopping a search or a read redirects the work; what the user says next corrects nothing of it
  // (the reason typed when declining it is a correction of its own: the rejection channel).
  const reading = READ_ONLY_TOOLS.has(u.action?.tool ?? '');
  if (u.interrupted && u.action && about && !reading) return { rejected: describeAction(u.action), by: '' };
  if (u.prior === '') return none;
  // The assistant's sentence a correction is about: the one closest to the user's sentence that objects
  // (not to the whole message, whose praise or other requests may be closer to another sentence).
  const rejectedBy = (by: string) => ({
    rejected: closestSentence(u.prior, by || p.words) || firstSentences(u.prior, 1)[0] || '',
    by,
  });
  // A quote of the assistant's own line, then an objection to it.
  const priorText = normalised(u.prior);
  const quoted = p.sentences.filter((s) => normalised(s).length >= 20 && priorText.includes(normalised(s)));
  const rest = p.sentences.filter((s) => !quoted.includes(s));
  if (quoted.length > 0 && rest.some((s) => negates(s) || moodOf(s) === 'norm' || moodOf(s) === 'challenge'))
    return { rejected: quoted.map(unmark).join(' '), by: '' };
  // A bare "no" to a question the assistant asked declines it; it corrects nothing (and says nothing).
  if (opensWithRefusal(p.sentences)) {
    const more = p.sentences.some(
      (s, i) => core(s) !== '' && p.moods[i] !== 'refusal' && p.moods[i] !== 'approval',
    );
    return more ? rejectedBy('') : none;
  }
  for (let i = 0; i < p.sentences.length; i++) {
    const s = p.sentences[i] ?? '';
    const mood = p.moods[i];
    // A doubt put as a question right after the assistant's words is about them (one word in common);
    // it counts only once the assistant grants it (see readUtterance).
    if (mood === 'challenge' && (/^why\b/i.test(core(s)) || sharedScore(s, u.prior) >= 1))
      return rejectedBy(s);
    // "let's use X instead of Y" chooses; it is read as the user's choice, not as a correction.
    // A bracket's words go on the sentence before them ("point it at X (which routes to Y) instead of
    // Z" in an edit the user asks for): a contrast there belongs to that sentence, not to the reply.
    if (
      mood !== 'question' &&
      mood !== 'request' &&
      mood !== 'choice' &&
      !s.startsWith('(') &&
      contrasts(s) &&
      refersTo(s, u.prior)
    )
      return rejectedBy(s);
  }
  return none;
}

export function draft(
  u: Utterance,
  type: ObservationDraft['type'],
  title: string,
  narrative: string,
  facts: string[],
  confidence: number,
): Extracted {
  return extracted(type, title, narrative, u, confidence, {
    title: clipWords(title, 120),
    facts: facts.map((f) => clip(f, 300)),
    concepts: [type === 'decision' ? 'decision' : type, 'user'],
    subject: saidSubject(u.text),
  });
}

export const quote = (s: string, max = 600) => `“${clip(s, max)}”`;

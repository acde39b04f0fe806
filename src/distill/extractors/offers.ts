/**
 * What an assistant message put to the user: labelled options ("### Option 1: …", "**A) …**"), its
 * recommendation, the proposal a yes would accept ("I can add `MODEL_NAME` … Want me to add that?"),
 * and the questions it asked. Read from the message's layout (labels, headings, the closing question),
 * so that "A", "Option 1" or "ok" can be read as the choice or the approval they are.
 */
import { statementSentences } from '../narration.ts';
import { clip } from '../text.ts';

export interface Option {
  /** "A", "1" (upper case). */
  label: string;
  /** The option's own line (its name), markup removed. */
  title: string;
  /** Its first detail lines, markup removed. */
  details: string[];
}

const plain = (s: string) =>
  s
    .replace(/\*\*|__|`/g, '')
    .replace(/^[-*#>\s]+/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A labelled option line: "### Option 1: …", "**A) …**", "- (b) …", "Option C - …". */
const OPTION_LINE =
  /^\s*(?:#{1,6}\s*)?(?:[-*]\s+)?(?:\*\*)?\s*(?:(option|choice|approach|alternative)\s+([A-Z]|\d{1,2})\b\s*[:.)-]?|\(?([A-Z])\)\s*|([A-Z])[:]\s+|(\d{1,2})\)\s+)\s*(?:\*\*)?\s*[:.-]?\s*(.*)$/i;

/** The labelled options of a message, in order. */
export function optionsIn(text: string): Option[] {
  const out: Option[] = [];
  let current: Option | null = null;
  for (const line of text.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const m = OPTION_LINE.exec(line);
    const label = (m?.[2] ?? m?.[3] ?? m?.[4] ?? m?.[5] ?? '').toUpperCase();
    // A one-letter label needs the option's own markup ("A)", "**A:") — a sentence may start with "A".
    if (
      m &&
      label !== '' &&
      (m[1] !== undefined || /\*\*|\)|#|^\s*[-*]/.test(line) || /^[A-Z]:/.test(line.trim()))
    ) {
      current = { label, title: clip(plain(m[6] ?? ''), 160), details: [] };
      out.push(current);
      continue;
    }
    if (current && line.trim() !== '' && current.details.length < 4 && /^\s*(?:[-*]|\d+\.)\s+/.test(line))
      current.details.push(clip(plain(line), 160));
    else if (/^\s*#{1,6}\s/.test(line)) current = null;
  }
  return out;
}

/** The label a reply picks: "A", "option 1", "I like Option 1", "(b)", "the second one". */
export function pickedLabel(text: string): string | null {
  const t = text.trim();
  const alone = /^\(?([A-Da-d]|[1-9])\)?[.!]?$/.exec(t);
  if (alone?.[1]) return alone[1].toUpperCase();
  const named = /\b(?:option|choice|approach|alternative)\s+([A-Z]|\d{1,2})\b/i.exec(t);
  if (named?.[1] && named.index < 80) return named[1].toUpperCase();
  const lead = /^\(?([A-Da-d]|[1-9])[).:,]\s/.exec(t);
  if (lead?.[1]) return lead[1].toUpperCase();
  const ordinal = /^(?:the\s+)?(first|second|third|fourth|last)\s+(?:one|option)\b/i
    .exec(t)?.[1]
    ?.toLowerCase();
  return ordinal
    ? (({ first: '1', second: '2', third: '3', fourth: '4' } as Record<string, string>)[ordinal] ?? null)
    : null;
}

export interface PickedOption extends Option {
  /** The other options offered beside it (what the choice turned down). */
  others: Option[];
  /** Why they were offered: the message's statements before its first option. */
  context: string;
  /** What the options answer: the line that leads into them ("For the MVP, do you want to:"), or ''. */
  question: string;
  /** Picked by its name (a bold-named list item), not by a label. */
  named?: boolean;
}

/**
 * The option a label picks, from the most recent message that offered it (newest last in `messages`),
 * with the options it was chosen over and the statements that led to them.
 */
export function findOption(label: string, messages: readonly string[]): PickedOption | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] ?? '';
    const options = optionsIn(message);
    const found = options.find((o) => o.label === label);
    if (!found || options.length < 2) continue;
    const firstOption = message.split('\n').findIndex((line) => OPTION_LINE.test(line) && /\S/.test(line));
    const before = firstOption > 0 ? message.split('\n').slice(0, firstOption).join('\n') : '';
    const context = clip(
      statementSentences(before.replace(/\*\*|__/g, ''))
        .slice(0, 3)
        .join(' '),
      300,
    );
    // The line right before the options, when it asks or leads in (not a heading).
    const lead = plain(
      before
        .split('\n')
        .filter((l) => l.trim() !== '')
        .at(-1) ?? '',
    );
    const question =
      /[?:]$/.test(lead) && !/^#/.test(before.trim().split('\n').at(-1) ?? '')
        ? clip(lead.replace(/:$/, ''), 160)
        : '';
    return { ...found, others: options.filter((o) => o !== found), context, question };
  }
  return null;
}

/** The questions a message ends with (its last paragraph's sentences that ask). */
export function questionsIn(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  return (prose.match(/[^.!?\n]*[A-Za-z][^.!?\n]*\?/g) ?? [])
    .map((q) => plain(q))
    .filter((q) => q.length >= 8)
    .slice(-4);
}

/** A recommendation the message makes ("My recommendation: **Option 1** - commit the wrapper …"). */
export function recommendationIn(text: string): string {
  const m =
    /(?:my recommendation|i(?:'d| would)? recommend|i(?:'d| would) suggest|my instinct|i(?:'d| would) lean(?: towards?)?)\b[^\n:]*[:\n]?\s*\n?\s*([^\n]{8,300})/i.exec(
      text,
    );
  return m?.[1] ? clip(plain(m[1]), 220) : '';
}

/** A question offering to do something: "Want me to copy it into the repo?" → "copy it into the repo". */
const OFFER =
  /^(?:want me to|shall i|should i|do you want me to|would you like me to|can i|ok(?:ay)? to|ready (?:for me )?to)\s+(.+?)\?$/i;

/**
 * What the message ends by offering to do, when one of its last sentences asks to do it ("Want me to
 * copy it into the repo and commit it?"), with the code the next sentence names ("Something like
 * `session.jsonl`?"); '' when it offers nothing.
 */
export function offerIn(text: string): string {
  const sentences = text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .filter((x) => plain(x) !== '');
  for (let i = sentences.length - 1; i >= Math.max(0, sentences.length - 3); i--) {
    const offer = OFFER.exec(plain(sentences[i] ?? ''))?.[1];
    if (!offer) continue;
    const named = /`[^`\n]+`/.exec(sentences[i + 1] ?? '')?.[0];
    return clip(named && !offer.includes(named) ? `${offer} (${named})` : offer, 200);
  }
  return '';
}

/** What a yes to this message accepts: a recommendation, what an offer question offers, or the plan's key lines. */
export function proposalIn(text: string): string {
  const recommended = recommendationIn(text);
  if (recommended) return recommended;
  const prose = text.replace(/```[\s\S]*?```/g, ' ');
  const sentences = prose
    .split(/(?<=[.!?])\s+|\n+/)
    .map(plain)
    .filter(Boolean);
  for (let i = sentences.length - 1; i >= Math.max(0, sentences.length - 4); i--) {
    const s = sentences[i] ?? '';
    const offer = OFFER.exec(s);
    if (
      offer?.[1] &&
      !/^(?:do|add|make|go|proceed|continue|implement|fix|change) (?:that|this|it|so|ahead)$/i.test(offer[1])
    )
      return clip(offer[1], 220);
    if (offer || /^(?:does|do|would|will|is) (?:this|that|it)\b.*\?$/i.test(s)) {
      // "I can add X … Want me to add that?": the offer is the sentence before.
      const before = sentences[i - 1] ?? '';
      if (/\b(?:i can|i could|i'll|i will|we can|we could)\b/i.test(before)) return clip(before, 220);
      const keyLines = text
        .split('\n')
        .map((l) => /^\s*(?:[-*]\s*)?\*\*([^*]{2,40})\*\*\s*:\s*(\S.{2,160})$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .slice(0, 2)
        .map((m) => `${m[1]}: ${plain(m[2] ?? '')}`);
      if (keyLines.length > 0) return clip(keyLines.join('; '), 220);
    }
  }
  return '';
}

/** A list item named in bold at its start: "- **small.en** (466 MB) — ~2-3 seconds. Meaningfully better." */
const NAMED_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+\*\*([^*\n]{2,40})\*\*\s*(.*)$/;
/** Words that pick one of several offered things ("let's do …", "go with …", "use …", "yes, …"). */
const PICKS =
  /^(?:(?:ok(?:ay)?|yes|yeah|yep|sure)[,.!]?\s+)?(?:let'?s\s+(?:do|use|go with|try|take|pick)|(?:i'?ll|we'?ll)\s+(?:take|go with|use)|go with|use|pick|take|choose|i'?d (?:like|prefer|go with|take))\b/i;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The item of a list the assistant offered that the user picks by its name ("Yes let's do small.en"
 * after "- **tiny.en** … - **small.en** … Want to use that?"): a sentence of the user's that picks
 * ("let's do", "go with", "use" …) and names exactly one of the bold-named items of a recent message
 * that asked something; the latest such message is the one answered. Null when nothing is picked so.
 */
export function namedOption(sentences: readonly string[], messages: readonly string[]): PickedOption | null {
  const picking = sentences.filter((s) => PICKS.test(s.trim()) && !/[?？]\s*$/.test(s));
  if (picking.length === 0) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] ?? '';
    if (questionsIn(message).length === 0) continue;
    const items = message
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .map((line) => NAMED_ITEM.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: (m[1] ?? '').trim(), rest: plain(m[2] ?? '').replace(/^[—–:-]\s*/, '') }));
    if (items.length < 2) continue;
    const named = (s: string) =>
      items.filter((it) =>
        new RegExp(`(?:^|[^\\w.-])${escapeRegExp(it.name.toLowerCase())}(?![\\w-]|\\.\\w)`).test(
          s.toLowerCase(),
        ),
      );
    const hits = picking.map(named).find((h) => h.length > 0);
    if (!hits) continue;
    const [found, ...more] = hits;
    if (!found || more.length > 0) return null;
    const firstSentence = (rest: string) => clip(rest.split(/(?<=[.!?])\s+/)[0] ?? '', 140);
    return {
      label: found.name,
      title: [found.name, firstSentence(found.rest)].filter(Boolean).join(' — '),
      details: [],
      others: items
        .filter((it) => it !== found)
        .map((it) => ({ label: it.name, title: it.name, details: [] })),
      context: '',
      question: questionsIn(message).at(-1) ?? '',
      named: true,
    };
  }
  return null;
}

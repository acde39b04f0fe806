/**
 * Reading the assistant's own words for what they say is now true and why: the sentence that states
 * an outcome ("`cartTotal` now sums integer cents"), the ones that explain a cause ("jsdom has no
 * `structuredClone`"), and the stated next steps — never the step-by-step narration ("Now let me run
 * the tests", "Now also rename X") or the filler around it.
 */
import { clip, isFiller, isTitleCaseLabel, withoutCode } from './text.ts';
import { isTrackerTalk } from './tickets.ts';

/** Prose → sentences (code blocks dropped, list markers and emphasis removed). */
export function proseSentences(text: string): string[] {
  return (
    text
      .replace(/```[\s\S]*?```/g, ' ')
      // Japanese and Chinese close a sentence with a full-width stop and no space after it.
      // A stop inside emphasis ("**Still failing.** The issue …") ends its sentence too.
      // A sentence may open with an identifier written in lower case ("… are closed. spotter-fum.5 is …").
      .split(/(?<=[.!?](?:\*\*|__)?)\s+(?=[A-Z`*"([]|[a-z][\w]*[-_.][\w.-]*\d[\w.-]*\s)|(?<=[。！？])\s*|\n+/)
      .map((s) =>
        s
          .trim()
          .replace(/^(?:[-*•>#]+|\d+[.)]|\[[ x]\])\s*/g, '')
          .replace(/\*\*/g, '')
          // Check marks and emoji decorate a sentence; they are not part of what it says.
          .replace(/^(?:(?:\p{Extended_Pictographic}|[\u2713\u2714\u2717\u2718]|\uFE0F|\u200D)+\s*)+/u, '')
          .replace(/(?:\s*(?:\p{Extended_Pictographic}|\uFE0F|\u200D)+)+$/u, '')
          .trim(),
      )
      .filter((s) => s.length >= 3)
  );
}

/** A hedge or a condition: what might be, not what is. */
const HEDGE =
  /\b(?:would|could|might|may|should|probably|likely|perhaps|maybe|hopefully)\b|^(?:if|unless|once|when)\b/i;
/**
 * What might be, said as such: a hedge ("probably", "we'd need to …") or a condition ("If GPT-5 uses
 * …"). Not "should" or "must", which as often state what is required ("The listener should not await
 * cleanup").
 */
const SPECULATION =
  /\b(?:would|could|might|may|probably|likely|perhaps|maybe|hopefully|seems?|apparently|looks like)\b|\b(?:I|we|you|it|that|they)'d\b|^(?:if|unless)\b/i;
export const isHedge = (sentence: string) => SPECULATION.test(sentence.replace(/`[^`]*`/g, ''));

/**
 * The whole statements of a reply, in order: prose lines only (no heading, list item, table or a line
 * leading into a list), each sentence starting as a sentence does and closed by a stop (or a link or
 * code it ends on), of three words or more, neither a step nor a hedge. A poem's lines or a list's items are not statements.
 */
export function statementSentences(text: string): string[] {
  const out: string[] = [];
  const plain = text
    .replace(/```[\s\S]*?```/g, '\n')
    // A lead-in whose link stands on the next line: one statement.
    .replace(/:[ \t]*\n+[ \t]*(https?:\/\/\S+)/g, ': $1');
  // A paragraph of three or more short lines is verse (or a hard-wrapped quote), not prose.
  const verse = (para: string) => {
    const lines = para.split('\n').filter((l) => l.trim() !== '');
    return (
      lines.length >= 3 && lines.every((l) => l.trim().length < 80 && !/^\s*(?:[-*•>|]|\d+[.)]\s)/.test(l))
    );
  };
  const lines = plain
    .split(/\n\s*\n/)
    .filter((para) => !verse(para))
    .flatMap((para) => para.split('\n'));
  for (const line of lines) {
    const l = line.trim();
    if (l === '' || /^(?:[-*•>#|]|\d+[.)]\s|\[[ x]\])/.test(l) || l.endsWith(':')) continue;
    for (const sentence of proseSentences(l)) {
      // Closed by a stop, or naming a concrete result (a link, code) as its last word.
      const closed = /[.!。！]$/.test(sentence) || /(?:https?:\/\/\S+|`[^`]+`)$/.test(sentence);
      if (!STARTS_SENTENCE.test(sentence) || !closed) continue;
      if (wordsIn(sentence) < 3 || isStep(sentence) || isFiller(sentence) || HEDGE.test(sentence)) continue;
      out.push(sentence);
    }
  }
  return out;
}

/** A sentence starts with a capital, a digit, code or a quote — or a letter of a script without case. */
const STARTS_SENTENCE = /^(?:[A-Z0-9`"(「『]|\p{Lo})/u;
/** Letters of scripts written without spaces between words (Chinese, Japanese …). */
const UNSPACED = /\p{Lo}/gu;

/** About how many words a sentence has: spaces count them, or three letters of an unspaced script one. */
export function wordsIn(sentence: string): number {
  const unspaced = sentence.match(UNSPACED)?.length ?? 0;
  const spaced = sentence.replace(UNSPACED, ' ').trim();
  return spaced.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length + Math.floor(unspaced / 3);
}

/**
 * A reply's headline: its first heading or bold line that says something (three words or more, no
 * question), markup removed — the conclusion a reply opens with when it has no sentence of prose.
 */
export function headline(text: string): string {
  for (const line of text.replace(/```[\s\S]*?```/g, '\n').split('\n')) {
    const m = /^\s*(?:#{1,4}\s+(.+)|\*\*([^*].*)\*\*:?)\s*$/.exec(line);
    const head = (m?.[1] ?? m?.[2] ?? '').replace(/\*\*/g, '').trim();
    if (head !== '' && !head.includes('?') && wordsIn(head) >= 3) return head;
  }
  return '';
}

/**
 * The points a reply makes as a list: the bold lead of each list item ("1. **Tight feedback loop** -
 * Agent sees results…" → "Tight feedback loop"), in order, at most `max`.
 */
export function keyPoints(text: string, max = 5): string[] {
  const out: string[] = [];
  for (const m of text
    .replace(/```[\s\S]*?```/g, '')
    .matchAll(/^\s*(?:[-*•]|\d+[.)])\s+\*\*([^*\n]{3,60})\*\*/gm)) {
    const point = (m[1] ?? '').replace(/[:.\s]+$/, '').trim();
    if (point !== '' && !out.includes(point)) out.push(point);
    if (out.length >= max) break;
  }
  return out;
}

/** Narration of a step, a plan for the next minute, or filler: never knowledge. */
const STEP =
  /^(?:step \d+\b|phase \d+\b|let me|let's|now\b(?!:)|continuing (?:with|on)\b|next,? (?:let me|i'?ll)|first,? (?:let me|i'?ll)|then,? (?:let me|i'?ll)|i'?ll (?:now|start|begin|read|check|look|run|write|create|add|update|implement|mark|apply|wait|use that)|i need to (?:read|check|look|run|see|wait)|(?:good|great|perfect|excellent|done|ok(?:ay)?|alright|all green|clean compile|expected)\b|here(?:'s| is| are)\b|still\b.*\b(?:compiling|running|waiting)|(?:all )?\d+ tests? pass|all \d+ .*tests? pass)/i;

export function isStep(sentence: string): boolean {
  return STEP.test(sentence.trim()) || sentence.trim().endsWith('?') || sentence.trim().endsWith(':');
}

const STATE =
  /\b(?:now|no longer|added|fixed|removed|renamed|updated|replaced|moved|switched|created|implemented|wraps?|sums?|uses|returns|reads|goes|sends|stores|runs|is|are|has|have|go out|rounds?|validates?|computes?|checks?|handles?|covers?)\b/i;
/** A state verb that says what the code does, not only that something "is". */
const ACTING =
  /\b(?:now|no longer|added|fixed|removed|renamed|updated|replaced|moved|switched|created|implemented|wraps?|sums?|uses|returns|reads|goes|sends|stores|runs|go out|rounds?|validates?|computes?|checks?|handles?|covers?)\b/i;
/** A bare pronoun for subject: "It …", "That's …", "They …", "This is …". */
const ORPHAN_SUBJECT = /^(?:it|that|they|these|those)\b|^this\s+(?:is|was|means|should|will)\b/i;
/** Words of the working tree's state, as `git status` gives it. */
const REPO_STATE = /\b(?:unstaged|uncommitted|untracked|working tree|nothing to commit)\b/i;
/** "The tests now pass", "all checks are green": how a check went. */
const CHECK_WENT =
  /\b(?:tests?|specs?|checks?|lint|build|typecheck|ci)\b[^.]*\b(?:pass(?:es|ed|ing)?|green|clean|succeed(?:s|ed)?)\b/i;
const CAUSE =
  /\b(?:because|since|so that|(?:problem|issue|cause) (?:is|was)|caused by|due to|doesn'?t|does not|can'?t|cannot|isn'?t|is not|aren'?t|needs?|requires?|only|missing|without|no longer|instead of|rather than|has no|have no)\b/i;

/**
 * A sentence that explains why (a cause, a constraint: "`core.excludesfile` needs an absolute path"),
 * not what the work made so ("X now does Y"): it stays true when later work changes the code again.
 */
export function explainsCause(sentence: string): boolean {
  return (
    CAUSE.test(sentence) &&
    !/\b(?:now|no longer)\b/i.test(sentence) &&
    !isStep(sentence) &&
    !PLAN.test(sentence)
  );
}

/**
 * A sentence with no subject, opening on a verb in its "-s" form and then its object ("Verifies
 * `x()` …", "Creates a file …"); a plural noun opening a sentence is followed by its verb instead.
 */
const PREDICATE = /^[A-Z][a-z]+s\s+(?:`|(?:the|a|an|that|it|its|each|all|every|no|whether)\b)/;
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * The subject a line leading into a list names: its last sentence when that is a few words closed by a
 * colon ("Done. The test:" → "The test"); '' for any other line.
 */
function leadInSubject(line: string): string {
  const last = proseSentences(line).pop() ?? '';
  if (!/:$/.test(line.trim()) || !/^[A-Z]/.test(last)) return '';
  const words = last.replace(/:$/, '').trim();
  return wordsIn(words) <= 4 && !/[.!?,;]/.test(words) ? words : '';
}

/**
 * The sentence that states the outcome: declarative, about the changed code (its files or symbols
 * when named), latest message first. '' when nothing says it.
 */
export function outcomeSentence(
  texts: readonly string[],
  names: readonly string[] = [],
  keep: (sentence: string) => boolean = () => true,
): string {
  let best = '';
  let bestScore = 0;
  const known = names.filter((n) => n.length >= 3).map((n) => n.toLowerCase());
  [...texts].reverse().forEach((text, age) => {
    // The short subject a line leading into a list names ("The test:"), while its items follow.
    let subject = '';
    for (const line of text.replace(/```[\s\S]*?```/g, ' ').split('\n')) {
      // A table's row is a cell of an inventory, and a note an aside: neither tells what the work did.
      if (/^\s*\|/.test(line) || /^\s*(?:[*_]{0,2}(?:note|nb|p\.s\.)[*_]{0,2}\s*:|>)/i.test(line)) continue;
      // A list item that states nothing ("Custom `useTodos` hook with `useReducer`") names a part
      // of the work, not what is now true.
      const item = /^\s*(?:[-*•]|\d+[.)])\s/.test(line);
      if (!item && line.trim() !== '') subject = leadInSubject(line);
      for (const said of proseSentences(line)) {
        // An item that is a predicate of the lead-in ("4. Verifies `x()` returns false" under "The
        // test:") says it of that subject; alone it has none.
        const s = item && subject !== '' && PREDICATE.test(said) ? `${subject} ${lowerFirst(said)}` : said;
        if (item && !STATE.test(withoutCode(s))) continue;
        consider(s, age);
      }
    }
  });
  return bestScore >= 2 ? best : '';

  function consider(s: string, age: number): void {
    // What the assistant was about to do ("I need to add it back since …") is no outcome.
    if (s.length < 25 || s.length > 260 || isStep(s) || isPlan(s) || !keep(s)) return;
    // A few words with no closing stop and no code: a heading or a list item, not a statement.
    if (!/[.!?)"'`。！]$/.test(s) && !s.includes('`') && s.split(/\s+/).length < 6) return;
    const lower = s.toLowerCase();
    // What git status shows ("The only remaining unstaged change is `.mcp.json`") is the repository's
    // state, which the summary's state line tells; unless it names the work's own code, not the work.
    if (REPO_STATE.test(s) && !known.some((n) => lower.includes(n))) return;
    // A sentence whose subject is a bare pronoun ("It IS tracked in git", "That was expected") says
    // nothing alone: its subject is in another sentence.
    if (ORPHAN_SUBJECT.test(s)) return;
    // A verb inside code (`type-check`, `runs.ts`) is no verb of the sentence.
    const plain = withoutCode(s);
    let score = 0;
    if (ACTING.test(plain)) score += 2;
    else if (STATE.test(plain)) score += 1;
    if (/\bnow\b|\bno longer\b/i.test(s)) score += 1;
    if (known.some((n) => lower.includes(n))) score += 2;
    if (/`[^`]+`/.test(s)) score += 1;
    // How a check went says nothing of the work (the check's own fact states it), unless it names code.
    else if (CHECK_WENT.test(s) && !known.some((n) => lower.includes(n))) score -= 1;
    // An exclamation cheers a result; a plain sentence states it.
    if (s.endsWith('!')) score -= 2;
    if (/\b(?:I|we)(?:'ll| will| could| might)\b/i.test(s)) score -= 3;
    // A hedge or a conditional states what might be, not what is.
    if (/\b(?:would|could|might|may|should|probably|likely|perhaps|maybe|hopefully)\b/i.test(s)) score -= 3;
    score -= age * 0.5;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
}

/**
 * A report's sentence as a title, said of the work rather than of its author: "I changed `x()` to …" →
 * "Changed `x()` to …", "We've added …" → "Added …". Other sentences stay as they are.
 */
export function impersonal(sentence: string): string {
  const m =
    /^(?:I|We)(?:'ve| have)?\s+([a-z]+ed|made|wrote|rewrote|built|set|put|split|took|kept|left|ran|found|gave)\b/.exec(
      sentence,
    );
  if (!m?.[1]) return sentence;
  const rest = sentence.slice(m[0].length - m[1].length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Where work or a thing the assistant looked for stands: done, committed, blocked, present, in place. */
const STATUS =
  '(?:un)?blocked|committed|pushed|merged|deployed|done|complete(?:d)?|finished|clean|closed|open|ready|resolved|fixed|green|passing|in[ _-]progress|claimed|available|present|in place|there|staged';
const STATUS_NOTE = new RegExp(
  `^(?:(?:so|ok(?:ay)?|good|great|now|and)\\b,?\\s+)?(?:\\S+\\s+){1,6}?(?:is|are)\\s+(?:(?:now|already|all|both)\\s+)?(?:${STATUS})(?:(?:\\s*,\\s*|\\s+and\\s+)(?:${STATUS}))*(?:\\s+(?:by|to|on)\\s+[^,;.]{1,40})?\\s*[.!]?$`,
  'i',
);
/**
 * A note of where something stands, said on the way ("spotter-4te.3 is committed", "Task 6 is blocked
 * by 4 and 5", "Everything is clean and pushed", "So `stdout` is available"): the commits, tickets and
 * checks of the evidence tell that; it explains nothing of the code.
 */
export const isStatusNote = (sentence: string) => STATUS_NOTE.test(sentence.trim());

/**
 * A sentence placing the failure outside the work ("pre-existing issues, none from our code", "unrelated
 * to my changes", "a flaky test"): whose the failure is, not why it happens — a guess the assistant
 * makes on the way and a user often refutes ("main was clean"), and of a failure the session then fixed
 * a verdict the fix itself questions. Never an explanation, never a cause.
 */
const DISOWNS =
  /\bpre-?existing\b|\bflak(?:y|iness)\b|\b(?:from|in) (?:our|my) (?:own )?code\b|\b(?:not|none|nothing) (?:of |is |are )?(?:from|in|caused by|related to|due to|introduced by) (?:our|my|this session'?s?|the new) (?:own )?(?:code|changes?|work|edits?|files?)\b|\bunrelated to (?:our|my|this|these|the) (?:own )?(?:changes?|work|pr|branch|code|edits?)\b|\bfiles? (?:I|we) (?:didn[’']?t|did not|never) (?:touch|change|edit)/i;

/** What the assistant was about to do, said before doing it: no explanation once it is done. */
const PLAN =
  /^(?:(?:I|we)(?:'ll| will| need to| have to| must| should)|I need|(?:also |still |just )?need to)\b/i;
/**
 * The assistant's own next move or unfinished step inside a sentence ("The alias is used, but I need to
 * update the action first", "The import isn't used yet because I haven't updated the template"): where
 * the work stood half-way, which the end of the work no longer says.
 */
const MIDWAY = /\b(?:I|we)(?:'ll| will| need to| have to| still need| haven[’']?t| have not| can just)\b/i;
/** A leading subordinate clause ("Since no tests exist, …"): the main clause after it says what is meant. */
const LEADING_CLAUSE =
  /^(?:since|because|as|if|now that|once|given that|so|then|for|in|on|with|after|before)\b[^,]{1,120},\s*/i;
/** A clause that only says what the assistant looked at before the sentence's own subject ("Looking at the feedback, these …"). */
const LEAD_IN = /^(?:looking at|based on|after|given|with|from|in)\b[^,]{1,80},\s*/i;
/** A word that only takes up the last result before the sentence says what comes next ("Right, I need …"). */
const INTERJECTION = /^(?:right|ok(?:ay)?|alright|good|great|perfect|hmm|ah|so|now)\b[,.!]?\s+/i;
/** A sentence of what the assistant is about to do ("I'll …", "Right, we need to …"). */
export const isPlan = (s: string) => {
  const plain = s.trim().replace(INTERJECTION, '');
  return PLAN.test(plain) || PLAN.test(plain.replace(LEADING_CLAUSE, ''));
};

/**
 * The assistant's explanation: causes and outcomes, no steps or filler, within `max` characters;
 * `keep` drops what the evidence does not support (see claims.ts).
 */
export function explanation(
  texts: readonly string[],
  max = 600,
  keep: (sentence: string) => boolean = () => true,
): string {
  const picked: string[] = [];
  let used = 0;
  for (const text of texts) {
    // A bare pronoun's sentence ("It's only in X") stands only right after the one it refers to.
    let previousPicked = false;
    for (const s of explainingSentences(text)) {
      const fits: boolean =
        s.length >= 20 &&
        !isStep(s) &&
        !isFiller(s) &&
        !isPlan(s) &&
        // An exclamation cheers the result ("… is now properly committed!"); it explains nothing.
        !s.trim().endsWith('!') &&
        !picked.includes(s) &&
        !picked.includes(`${s}.`) &&
        (previousPicked || !ORPHAN_SUBJECT.test(s.replace(LEAD_IN, ''))) &&
        !isStatusNote(s) &&
        !DISOWNS.test(s) &&
        !MIDWAY.test(s) &&
        !isTitleCaseLabel(s) &&
        !isTrackerTalk(s) &&
        // What git status showed ("I have uncommitted changes from …") is the tree's state, not a cause.
        !(REPO_STATE.test(s) && !CAUSE.test(s)) &&
        keep(s) &&
        (CAUSE.test(s) || STATE.test(s));
      previousPicked = fits;
      if (!fits) continue;
      // A heading or a list item has no stop of its own: it gets one, so the next does not run on.
      const closed = /(?:[.!?。！？]|https?:\/\/\S+)$/.test(s) ? s : `${s}.`;
      if (used + closed.length + 1 > max) return picked.join(' ');
      picked.push(closed);
      used += closed.length + 1;
    }
  }
  return picked.join(' ');
}

/**
 * The sentences of a text that say something on their own: every sentence of its prose, and of a list
 * item only the first — the one that names what the item is about. An item's later sentences speak of
 * it without naming it ("- **small.en** (466 MB) — ~2-3 s. Meaningfully better."): taken apart from it,
 * they would tell of another item, or of none.
 */
function explainingSentences(text: string): string[] {
  // The line a list hangs from ("Next steps would be:"): items under one that says what comes next or
  // what could be are plans and options, not what is.
  let leadIn = '';
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .split('\n')
    .flatMap((line) => {
      const sentences = proseSentences(line);
      if (!/^\s*(?:[-*•]|\d+[.)])\s/.test(line)) {
        if (line.trim() !== '') leadIn = line.trim();
        return sentences;
      }
      return leadIn.endsWith(':') && ahead(leadIn) ? [] : sentences.slice(0, 1);
    });
}

/** Words of a lead-in to what is not done yet, or not decided. */
const AHEAD =
  /\b(?:next|to ?do|todos?|remaining|still|left|later|future|follow-?ups?|options?|ideas?|suggestions?|recommend(?:ations?|ed)?|consider|possible|potential)\b/i;
/** A lead-in to what comes next or what could be ("Next steps would be:", "You could:", "Options:"). */
const ahead = (leadIn: string) => {
  const last = proseSentences(leadIn).pop() ?? leadIn;
  return AHEAD.test(last) || isHedge(last) || isPlan(last);
};

const LOOKING = /^(?:let me|let's|now let me|i'?ll (?:check|look|read|wait|see))\b/i;
/** "Push failed because the TypeScript check failed": a failure reported again, its reason another failure — no cause. */
const REPORT = /\b(?:fail(?:ed|s)?|errors?)\b[^.]*?\bbecause\b[^.]*?\b(?:fail(?:ed|s|ing)?|errors?)\b/i;
const ACTION = /\b(?:need|add|import|install|set|use|configure|run|rewrite|switch|move|enable|disable)\b/i;
/** A sentence saying what will be done about it. */
const INTENT =
  /\b(?:I(?:'ll| will| need to| have to)|we(?:'ll| need to| should)|so (?:I|we)\b|needs? to be|must be|should be)\b/i;

/** A sentence that says what the problem is ("The problem is duplicate interfaces."): about the failure it follows. */
const PROBLEM = /\b(?:problem|issue|cause|culprit)\s+(?:is|was)\b/i;

/**
 * What the assistant said after a failure about why it failed and what fixes it: the first sentence
 * that names a cause or a fix (and is `about` this failure, or says outright what the problem is) —
 * never a plan for the next step ("Now I need to update the interface:" says what comes next, not why
 * it failed) — and the fix that follows it ("… has no `structuredClone`. They don't need a DOM, so
 * I'll run that file in the node environment."). With no cause said, the first thing it said it would
 * do about this failure is its word for the fix.
 */
export function causeSentences(
  texts: readonly string[],
  about: (sentence: string) => boolean = () => true,
): { cause: string; fix: string } {
  const all = texts
    .flatMap((t) => proseSentences(t))
    .filter(
      (s) => s.length >= 15 && s.length <= 260 && !LOOKING.test(s) && !REPORT.test(s) && !DISOWNS.test(s),
    );
  // A plan leading with its reason ("Since the module is ESM, I'll …") still says why.
  const planned = (s: string) => isStep(s) || PLAN.test(s);
  const i = all.findIndex(
    (s) => !planned(s) && (CAUSE.test(s) || ACTION.test(s)) && (about(s) || PROBLEM.test(s)),
  );
  if (i >= 0) {
    const cause = all[i] ?? '';
    const next = all[i + 1] ?? '';
    return { cause, fix: !INTENT.test(cause) && INTENT.test(next) ? next : '' };
  }
  const plan = all.find((s) => planned(s) && INTENT.test(s) && ACTION.test(s) && about(s));
  return { cause: '', fix: plan ?? '' };
}

const NEXT =
  /^(?:next(?: steps?)?\s*[:—-]\s*|still to do\s*[:—-]\s*|remaining\s*[:—-]\s*|to ?do\s*[:—-]\s*|follow-?ups?\s*[:—-]\s*|what'?s left\s*[:—-]\s*)(.{8,})$/i;
const NEXT_INLINE = /^(?:the )?next step (?:is|will be) (?:to )?(.{8,})$/i;

/** "If this still fails, we can build locally and copy dist/ in." → a plan for when it does. */
const FALLBACK =
  /^if ([^,]{4,80}),\s*(?:then\s+)?(?:we|you|i)(?:'ll| can| could| should| will| might)(?: just| also| then| instead)?\s+(.{8,})$/i;

/**
 * The plans a reply makes for a case ("If this still fails, we can …"): "if this still fails: build
 * locally and copy …". Worth keeping only while what they are for is open (the caller decides).
 */
/** Whether a next-steps item is such a plan (as `statedFallbacks` writes it). */
export const isFallbackItem = (item: string) => /^if [^:]{4,80}: /.test(item);

export function statedFallbacks(text: string): string[] {
  const out: string[] = [];
  for (const s of proseSentences(text)) {
    const m = FALLBACK.exec(s.replace(/\*\*/g, ''));
    if (m?.[1] && m[2]) out.push(clip(`if ${m[1]}: ${m[2].replace(/[.!]+$/, '')}`, 160));
  }
  return out.slice(0, 2);
}

/** What the assistant said it (or the user) would do next. */
export function statedNextSteps(text: string): string[] {
  const out: string[] = [];
  for (const s of proseSentences(text)) {
    const m = NEXT.exec(s) ?? NEXT_INLINE.exec(s);
    if (m?.[1]) out.push(clip(m[1].replace(/[.!]+$/, ''), 160));
  }
  return out;
}

/**
 * `text` without the sentences that state one of `statements` (compared through `key`, which
 * normalises both sides); the text unchanged when none does.
 */
export function withoutSentences(
  text: string,
  statements: readonly string[],
  key: (s: string) => string,
): string {
  const sentences = text.split(/(?<=[.!?])\s+/);
  const kept = sentences.filter((s) => {
    const k = key(s);
    return k.length < 25 || !statements.some((r) => r.includes(k) || k.includes(r));
  });
  return kept.length === sentences.length ? text : kept.join(' ');
}

/**
 * What two texts are both about: the content words and identifiers they share (stems, so "uncommitted"
 * meets "committed" and "importing" meets "import"). How an utterance is tied to what it answers.
 */

const STOP = new Set(
  `the a an and or but of to in on for with from by at as is are was were be been being it its this that these those
  there here we i you he she they them our your my me us his her their what which who whom when where why how not no
  yes do does did done have has had will would should could can may might must shall just also only very really
  some any all each every more most other such than then too so if into onto out up down over under again about
  after before while because since until through both either neither nor own same few many much one two three
  now still yet even ever never always let lets let's get got make made use using used see look like need want
  think know sure okay ok thing things way something anything nothing everything right well good great perfect
  please thanks thank going gonna able via per etc am as at be by he if me my of on or to up im ive`.split(
    /\s+/,
  ),
);

/** A word's stem: lower case, without a plural or verb ending, "un-" kept apart. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/^[`'"(]+|[`'")?!.,:;]+$/g, '');
  if (/^un[a-z]{5,}/.test(w)) w = w.slice(2);
  w = w.replace(/'s$/, '');
  if (w.length > 5) w = w.replace(/(?:ing|ed|es)$/, '');
  if (w.length > 4) w = w.replace(/s$/, '');
  return w.replace(/(.)\1$/, '$1');
}

/** Identifiers: backticked spans, paths, dotted or snake/kebab names, flags. */
function identifiers(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\n]{2,80})`/g)) out.add((m[1] ?? '').toLowerCase());
  for (const m of text.matchAll(/(?:^|\s)((?:--?)?[A-Za-z0-9_]+(?:[./:_-][A-Za-z0-9_]+)+)/g))
    out.add((m[1] ?? '').toLowerCase());
  return out;
}

/** The content words of a text, stemmed. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().match(/[a-z0-9_][a-z0-9_'-]*[a-z0-9_]|[a-z0-9]/g) ?? []) {
    if (STOP.has(raw) || raw.length < 2 || /^\d+$/.test(raw)) continue;
    const s = stem(raw);
    if (s.length >= 2 && !STOP.has(s)) out.add(s);
  }
  return out;
}

/** How much two texts share: words count once, identifiers twice. */
export function sharedScore(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  let score = [...wa].filter((w) => wb.has(w)).length;
  const ib = identifiers(b);
  for (const id of identifiers(a)) if (ib.has(id) || b.toLowerCase().includes(id)) score += 2;
  return score;
}

/** Whether `a` is about what `b` says (an identifier, or two words in common). */
export function refersTo(a: string, b: string): boolean {
  return a.trim() !== '' && b.trim() !== '' && sharedScore(a, b) >= 2;
}

/**
 * The words an objection denies: the base of a negated word ("uncommitted" → committed, "incorrect" →
 * correct) and the word a negation stands before ("not working", "isn't committed", "never ran").
 */
function deniedWords(text: string): string[] {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const m of lower.matchAll(/\b(?:un|in|non-?)([a-z]{5,})\b/g)) out.add(m[1] ?? '');
  for (const m of lower.matchAll(
    /\b(?:not|never|no longer|\w+n't)\s+(?:been\s+|be\s+|yet\s+)?([a-z]{4,})\b/g,
  ))
    out.add(m[1] ?? '');
  return [...out].filter((w) => w !== '' && !STOP.has(w));
}

/**
 * The sentence of `text` that `about` shares most with (markup removed), or ''. A sentence that asserts
 * what `about` denies ("I see four uncommitted files?" against "… is now properly committed") weighs
 * more than one that only shares its words; of equals, the later — a reply's conclusion comes last.
 */
export function closestSentence(text: string, about: string): string {
  const denied = deniedWords(about).map((w) => new RegExp(`\\b${w}\\b`, 'i'));
  let best = '';
  let bestScore = 0;
  for (const s of text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) =>
      x
        .replace(/\*\*|__/g, '')
        .replace(/^[-*#>\s\d.)]+/, '')
        .trim(),
    )
    .filter((x) => x.length >= 12)) {
    const score = sharedScore(s, about) + 2 * denied.filter((d) => d.test(s)).length;
    if (score > 0 && score >= bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/**
 * A phrase erased on another machine (`engram forget --match` there) reaching this one. The phrase
 * itself never travels: the pulled memory or summary holds `[erased]` where it was. Set against this
 * machine's copy, the erased spans are read back; when they are all one phrase, it is erased from what
 * the team shares here (every version) and the context injected of it (`erasePhraseHere`). When they
 * cannot be told, the memory's earlier versions are dropped instead, so none keeps what was erased.
 * Either way the caller compacts the file after the pull (`compactStore`).
 */
import { ERASED, checkPhrase, phrasePattern, phraseWordsPattern } from '../core/phrase.ts';
import { erasePhraseFrom } from '../store/erase-text.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

/** The texts of a memory or a summary, field by field (lists joined, one item a line). */
export type Texts = Record<string, string>;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const markers = (text: string) => text.split(ERASED).length - 1;

/** The spans of `before` that `after` shows as `[erased]`; null when the two do not line up. */
function erasedSpans(before: string, after: string): string[] | null {
  if (!after.includes(ERASED)) return before === after ? [] : null;
  const parts = after.split(ERASED).map(escapeRe);
  const match = new RegExp(`^${parts.join('([\\s\\S]+?)')}$`).exec(before);
  if (!match) return null;
  // A span erased before (already `[erased]` here) is not a new one.
  return match.slice(1).filter((span) => span !== ERASED);
}

export type Erasure = { kind: 'phrase'; phrase: string } | { kind: 'unknown' } | null;

/**
 * What the pulled texts erased from the local ones: one phrase, something that cannot be told, or
 * nothing (no more `[erased]` than here).
 */
export function erasureBetween(local: Texts, pulled: Texts): Erasure {
  const added = Object.keys(pulled).reduce(
    (n, k) => n + markers(pulled[k] ?? '') - markers(local[k] ?? ''),
    0,
  );
  if (added <= 0) return null;
  const spans: string[] = [];
  for (const key of Object.keys(pulled)) {
    const found = erasedSpans(local[key] ?? '', pulled[key] ?? '');
    if (found === null) return { kind: 'unknown' };
    spans.push(...found);
  }
  const phrases = new Set(spans.map((s) => s.toLowerCase()));
  const [phrase] = spans;
  if (phrases.size !== 1 || phrase === undefined || checkPhrase(phrase) !== null) return { kind: 'unknown' };
  return { kind: 'phrase', phrase };
}

/**
 * Erase a phrase told by a pulled record from what the team shares of the project here — its memories
 * (every version) and summaries — and from the context this machine injected of them. Not from the
 * rest this machine keeps (its own prompts, events, unshared memories, vault notes): a teammate's
 * record may only reach what the team shares.
 */
export function erasePhraseHere(store: Store, projectId: string, phrase: string, ctx: MutationContext): void {
  erasePhraseFrom(
    store.db,
    store.memory,
    { phrase, pattern: phrasePattern(phrase), words: phraseWordsPattern(phrase), projectId },
    {
      memories: new Set(store.team.syncedIds(projectId, 'memory')),
      summaries: new Set(store.team.syncedIds(projectId, 'summary')),
      places: ['injected context'],
    },
    ctx,
  );
}

/** The texts of a memory (local or pulled) that an erasure changes. */
export function memoryTexts(m: {
  title: string;
  subtitle: string;
  narrative: string;
  facts: string[];
  filesRead: string[];
  filesModified: string[];
  statusReason: string | null;
}): Texts {
  return {
    title: m.title,
    subtitle: m.subtitle,
    narrative: m.narrative,
    facts: m.facts.join('\n'),
    filesRead: m.filesRead.join('\n'),
    filesModified: m.filesModified.join('\n'),
    statusReason: m.statusReason ?? '',
  };
}

/** The texts of a session summary. */
export function summaryTexts(s: {
  request: string;
  investigated: string;
  learned: string;
  completed: string;
  nextSteps: string;
  notes: string;
  filesRead: string[];
  filesEdited: string[];
}): Texts {
  return {
    request: s.request,
    investigated: s.investigated,
    learned: s.learned,
    completed: s.completed,
    nextSteps: s.nextSteps,
    notes: s.notes,
    filesRead: s.filesRead.join('\n'),
    filesEdited: s.filesEdited.join('\n'),
  };
}

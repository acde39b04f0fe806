/**
 * A memory's text as it may be stored: cleaned of control characters, scrubbed, trimmed, lists
 * deduplicated and capped; and the snapshot of a memory kept as one of its versions.
 */
import { cleanText } from '../core/clean-text.ts';
import { EngramError } from '../core/errors.ts';
import { contentOf, type MemorySnapshot, type Observation, type ObservationDraft } from '../core/model.ts';
import { scrubText } from '../core/scrub.ts';
import { observationHash } from './observations-repo.ts';

export const MAX_LIST = 40;
export const MAX_PROVENANCE = 60;
const TYPE_RE = /^[a-z][a-z0-9_-]{0,39}$/;
/** A subject key: `command:test`, `fail:npm run build`, `env:port:dev`… (one line, bounded). */
const SUBJECT_RE = /^[a-z][a-z-]*:[^\n]{1,200}$/;

/**
 * Text as the mutation path stores it: control characters removed (`core/clean-text.ts`: NUL, escape
 * codes, lone surrogates; line feeds and tabs stay), then secrets scrubbed. Every text column of a
 * memory, summary or link passes through here, so no stored record is refused downstream.
 */
export const storableText = (text: string): string => scrubText(cleanText(text));

export const unique = (items: readonly string[]) => [...new Set(items)];
export const cleanList = (items: readonly string[] | undefined, max = MAX_LIST) =>
  unique(
    (items ?? [])
      .filter((s): s is string => typeof s === 'string')
      .map((s) => storableText(s).trim())
      .filter((s) => s !== ''),
  ).slice(0, max);

/** A draft as it may be stored: scrubbed, trimmed, lists deduplicated; refuses what cannot be a memory. */
export function cleanDraft(d: ObservationDraft): ObservationDraft {
  const type = typeof d.type === 'string' ? d.type.trim() : '';
  if (!TYPE_RE.test(type))
    throw new EngramError('INPUT_INVALID', `"${String(d.type)}" is not a memory type`, {
      hint: 'Types are lower-case words such as decision, bugfix, fact.',
    });
  const title = storableText(String(d.title ?? ''))
    .replace(/\s+/g, ' ')
    .trim();
  if (title === '')
    throw new EngramError('INPUT_INVALID', 'a memory needs a title', { hint: 'Give it one line.' });
  return {
    type: type as ObservationDraft['type'],
    title,
    subtitle: storableText(String(d.subtitle ?? '')).trim(),
    narrative: storableText(String(d.narrative ?? '')).trim(),
    facts: cleanList(d.facts),
    concepts: cleanList(d.concepts),
    filesRead: cleanList(d.filesRead),
    filesModified: cleanList(d.filesModified),
    ...(typeof d.subject === 'string' && SUBJECT_RE.test(d.subject)
      ? { subject: storableText(d.subject) }
      : {}),
  };
}

/**
 * A state about to be written, its texts cleaned of control characters: what `rewrite` stores, so a
 * version kept from before cleaning existed (restored, merged into) cannot bring a NUL back.
 */
export function cleanSnapshot(s: MemorySnapshot): MemorySnapshot {
  const list = (l: readonly string[]) => l.map(cleanText);
  return {
    ...s,
    title: cleanText(s.title),
    subtitle: cleanText(s.subtitle),
    narrative: cleanText(s.narrative),
    facts: list(s.facts),
    concepts: list(s.concepts),
    filesRead: list(s.filesRead),
    filesModified: list(s.filesModified),
    statusReason: s.statusReason === null ? null : cleanText(s.statusReason),
    ...(s.subject ? { subject: cleanText(s.subject) } : {}),
  };
}

export function snapshotOf(o: Observation): MemorySnapshot {
  return {
    ...contentOf(o),
    status: o.status,
    statusReason: o.statusReason,
    supersedes: o.supersedes,
    pinned: o.pinned,
    ...(o.subject ? { subject: o.subject } : {}),
  };
}

export const sameDraft = (a: ObservationDraft, b: ObservationDraft) =>
  observationHash(a) === observationHash(b) &&
  a.subtitle === b.subtitle &&
  a.narrative === b.narrative &&
  (a.subject ?? null) === (b.subject ?? null) &&
  JSON.stringify([a.concepts, a.filesRead, a.filesModified]) ===
    JSON.stringify([b.concepts, b.filesRead, b.filesModified]);

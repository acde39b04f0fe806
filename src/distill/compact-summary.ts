/**
 * The host's compaction summary: its own digest of everything before it. Claude Code writes it in
 * numbered sections (primary request and intent, key concepts, files and code, errors and fixes,
 * problem solving, all user messages, pending tasks, current work, next step); the headings are found
 * by the words they contain, not by their exact text or number, and markdown headings work as well.
 * What is read: errors and fixes (gotchas), the user's messages (their words, typed before the
 * compaction), pending tasks and the next step (the session's open items).
 */
import type { ObservationDraft } from '../core/model.ts';
import { clipWords } from './extractors/extracted.ts';
import { clip, unique } from './text.ts';

const PREAMBLE =
  /^This session is being continued from a previous conversation[^\n]*\n(?:[^\n]*summary below[^\n]*\n)?/i;
const TRAILER =
  /\n\s*(?:If you need specific details from before compaction|Please continue the conversation from where we left)[\s\S]*$/i;

/** The summary without its wrapping: the `<analysis>` scratchpad, the preamble and the closing instructions. */
export function cleanCompactSummary(text: string): string {
  let t = text.trim();
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(t)?.[1];
  if (tagged !== undefined) t = tagged;
  else t = t.replace(/<analysis>[\s\S]*?<\/analysis>/g, '');
  t = t.replace(PREAMBLE, '').replace(TRAILER, '').trim();
  // The transcript form: "Analysis:\n…\n\nSummary:\n…" — keep what follows "Summary:".
  const plain = /(?:^|\n)\s*Analysis:\s*\n[\s\S]*?\n\s*Summary:\s*\n([\s\S]*)$/.exec(t)?.[1];
  return (plain ?? t).trim();
}

export type SectionKind = 'request' | 'errors' | 'user' | 'pending' | 'current' | 'next' | 'other';

/** A heading line: "3. Files and Code Sections:", "## Errors and fixes", "**Pending Tasks**:". */
const HEADING =
  /^\s{0,3}(?:#{1,4}\s*)?(?:\d{1,2}[.)]\s+)?\*{0,2}([A-Za-z][A-Za-z /&'()-]{2,60}?)\*{0,2}\s*(?::\*{0,2}[ \t]*(.*)|\*{0,2}\s*)$/;

/** What a section is about, from the words of its heading. */
export function kindOf(heading: string): SectionKind {
  const h = heading.toLowerCase();
  if (/\buser(?:'s)? messages?\b/.test(h)) return 'user';
  if (/\berrors?\b|\bfix(?:es)?\b/.test(h)) return 'errors';
  if (/\bpending\b|\bopen tasks?\b|\bremaining\b|\btodo\b/.test(h)) return 'pending';
  if (/\bnext steps?\b/.test(h)) return 'next';
  if (/\bcurrent work\b/.test(h)) return 'current';
  if (/\brequest\b|\bintent\b/.test(h)) return 'request';
  return 'other';
}

/** The summary's sections by kind, each with its text (the body under the heading). */
export function compactSections(text: string): Map<SectionKind, string> {
  const sections = new Map<SectionKind, string>();
  let kind: SectionKind | null = null;
  let body: string[] = [];
  const flush = () => {
    if (kind && kind !== 'other')
      sections.set(kind, `${sections.get(kind) ?? ''}\n${body.join('\n')}`.replace(/^\s*\n|\s+$/g, ''));
    body = [];
  };
  for (const line of cleanCompactSummary(text).split('\n')) {
    // A heading is numbered or marked up, at the left margin, and names a section.
    const numbered =
      /^\s{0,3}(?:#{1,4}\s+|\d{1,2}[.)]\s+(?=\*{0,2}[A-Z])|\*\*(?=[A-Z][^*]{2,60}\*\*\s*:?\s*$))/.test(line);
    const m = numbered ? HEADING.exec(line) : null;
    const name = m?.[1]?.trim() ?? '';
    if (
      m &&
      name !== '' &&
      (kindOf(name) !== 'other' || /^\s{0,3}(?:#|\d)/.test(line)) &&
      line.trim().length < 120
    ) {
      flush();
      kind = kindOf(name);
      if (m[2]?.trim()) body.push(m[2].trim());
      continue;
    }
    body.push(line);
  }
  flush();
  return sections;
}

/** First-level items of a section ("- …" or "* …", with their continuation lines). */
function items(body: string): string[] {
  const out: string[] = [];
  const lines = body.split('\n');
  const bullet = /^(\s*)[-*•]\s+(.*)$/;
  const indent = Math.min(...lines.map((l) => bullet.exec(l)?.[1]?.length ?? Number.POSITIVE_INFINITY));
  for (const line of lines) {
    const m = bullet.exec(line);
    if (m && (m[1] ?? '').length <= indent) {
      out.push(m[2] ?? '');
    } else if (out.length > 0 && line.trim() !== '') {
      out[out.length - 1] = `${out[out.length - 1]} ${line.trim()}`;
    }
  }
  return out.map((i) => i.trim()).filter(Boolean);
}

export const plain = (s: string) =>
  s
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The user's messages the digest quotes (its "all user messages" section). Only quoted text is the
 * user's: an item without quotes is the summariser's paraphrase ("(interrupted the test run)").
 */
export function digestUserMessages(text: string): string[] {
  const body = compactSections(text).get('user') ?? '';
  const said: string[] = [];
  for (const item of items(body)) {
    const quoted =
      /^["“](.+?)["”](?:\s|$|[,.;:(—-])/.exec(item)?.[1] ?? /["“]([^"”]{2,})["”]/.exec(item)?.[1];
    if (quoted && quoted.trim().length >= 2) said.push(quoted.trim());
  }
  return unique(said);
}

/** The open items at the time of the compaction: its pending tasks, then its next step. */
export function digestOpenItems(text: string): string[] {
  const sections = compactSections(text);
  const pending = items(sections.get('pending') ?? '')
    .map(plain)
    // "None", "No pending tasks", "Nothing left": nothing is pending.
    .filter((i) => !/^(?:none|n\/a|nothing|no)\b/i.test(i));
  const next = plain((sections.get('next') ?? '').split(/\n\s*\n/)[0] ?? '');
  return unique([...pending.map((p) => clip(p, 160)), ...(next ? [clip(next, 200)] : [])]).slice(0, 6);
}

const FIX_VERB =
  /\b(?:fix(?:ed|es)?|resolv\w*|solv\w*|chang\w*|add(?:ed|ing)?|switch\w*|us(?:e|ed|ing)|rewr\w*|remov\w*|replac\w*|set|wrapp?\w*|instead|moved?|renam\w*|upgrad\w*|downgrad\w*|pinn?\w*)\b/i;

/** Errors and fixes of the digest: "problem: what caused it, how it was fixed". */
export function digestErrors(text: string): { problem: string; fix: string; text: string }[] {
  return errorItems(items(compactSections(text).get('errors') ?? ''));
}

/** Items of an errors-and-fixes list read as "problem: what caused it, how it was fixed". */
export function errorItems(list: readonly string[]): { problem: string; fix: string; text: string }[] {
  const out: { problem: string; fix: string; text: string }[] = [];
  for (const item of list) {
    const bold = /^\*\*(.+?)\*\*:?\s*(.*)$/.exec(item);
    const split = bold ?? /^([^:]{6,160}):\s+(.+)$/.exec(item);
    const problem = plain(split?.[1] ?? '');
    const rest = plain(split?.[2] ?? '');
    if (problem === '' || rest === '') continue;
    // An error the assistant expected (a step of the work) is not a gotcha.
    if (/^expected\b/i.test(rest) || /\bas expected\b/i.test(rest)) continue;
    const sentences = rest.split(/(?<=[.!?])\s+/);
    const fix = sentences.filter((s) => FIX_VERB.test(s)).join(' ') || rest;
    out.push({ problem, fix, text: plain(item) });
  }
  return out;
}

/** Gotchas from the digest's errors and fixes (symptom → fix), one per error, named by the problem. */
export function digestGotchas(text: string): ObservationDraft[] {
  return errorGotchas(digestErrors(text), {
    source: 'compaction summary',
    from: "the session's compaction summary",
  });
}

/**
 * Gotchas from errors and fixes read out of a digest or a report (symptom → fix), one per error, named
 * by the problem; `source` names the text they were read from.
 */
export function errorGotchas(
  errors: readonly { problem: string; fix: string; text: string }[],
  source: { source: string; from: string },
): ObservationDraft[] {
  return errors.map((e) => {
    const key = e.problem
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(' ')
      .slice(0, 8)
      .join('-');
    return {
      type: 'gotcha',
      title: clipWords(`${e.problem} → ${e.fix}`, 200),
      subtitle: '',
      narrative: clip(`${e.text} (from ${source.from})`, 900),
      facts: [`problem: ${clip(e.problem, 200)}`, `fix: ${clip(e.fix, 300)}`, `source: ${source.source}`],
      concepts: ['gotcha', source.source],
      filesRead: [],
      filesModified: [],
      subject: `gotcha:digest:${key}`,
    };
  });
}

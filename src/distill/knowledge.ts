/**
 * Knowledge across turns and sessions, decided without the store: which memories are standing (kept
 * in every SessionStart index), whether two rules are the same claim or a newer claim on the same
 * subject, what a command fact seen again adds, how a later success closes a failure left open, and
 * how a commit attaches to the work it commits. The worker looks the memories up and applies these
 * through the store's mutation path.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { Resolution } from './gotchas.ts';
import { gotchaDraft } from './gotchas.ts';
import { clip, unique } from './text.ts';

const RULES = new Set(['preference', 'convention', 'correction']);
const REASON =
  /\b(?:because|since|so that|as it|instead of|rather than|over|to avoid|which (?:avoids|keeps|means))\b/i;

/**
 * Standing knowledge: preferences, conventions, corrections, decisions with a reason (or made by the
 * user), and how to build, test, lint and run — in every SessionStart index until superseded.
 */
export function isStanding(d: ObservationDraft, options: { byUser?: boolean } = {}): boolean {
  if (RULES.has(d.type)) return true;
  if (d.type === 'decision')
    return (
      options.byUser === true ||
      REASON.test(`${d.title} ${d.narrative}`) ||
      d.facts.some((f) => f.startsWith('chosen:'))
    );
  return d.type === 'fact' && (d.subject?.startsWith('command:') ?? false);
}

const STOP = new Set(
  'the a an and or of to in on for with from by at as is are be it this that these those we i you our your always never use using prefer from now on going forward future please make sure not no do dont don will would should can all any each every new old instead rather than over into only just also so because since'.split(
    ' ',
  ),
);

/** The words a rule is about (lower case, light stemming, no stop words). */
export function topicWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z0-9_][a-z0-9_.-]*[a-z0-9_]|[a-z0-9]/g) ?? [])
      .map((w) => w.replace(/(?:ies)$/, 'y').replace(/(?<=[a-z]{3})s$/, ''))
      .filter((w) => w.length >= 3 && !STOP.has(w)),
  );
}

export type RuleRelation = 'same' | 'newer' | 'other';

/**
 * How a new rule relates to an older one: `same` (the same claim again: merge), `newer` (another
 * claim about the same subject: it supersedes the older), or `other`.
 */
export function ruleRelation(older: ObservationDraft, newer: ObservationDraft): RuleRelation {
  const family = (t: string) => (t === 'decision' || RULES.has(t) ? 'rule' : t);
  if (family(older.type) !== 'rule' || family(newer.type) !== 'rule') return 'other';
  const a = topicWords(older.title);
  const b = topicWords(newer.title);
  if (a.size === 0 || b.size === 0) return 'other';
  const shared = [...a].filter((w) => b.has(w)).length;
  const jaccard = shared / (a.size + b.size - shared);
  if (jaccard >= 0.8) return 'same';
  return shared >= 2 && shared / Math.min(a.size, b.size) >= 0.6 ? 'newer' : 'other';
}

const COMMAND_FACT = /^command: `(.+)`$/;

/**
 * A command fact seen again: its other forms added (a different main command becomes "also: …");
 * null when it adds nothing.
 */
export function mergedCommandFact(
  existing: ObservationDraft,
  seen: ObservationDraft,
): Partial<ObservationDraft> | null {
  const main = existing.facts.map((f) => COMMAND_FACT.exec(f)?.[1]).find(Boolean);
  const incoming = seen.facts.flatMap((f) => {
    const other = COMMAND_FACT.exec(f)?.[1];
    if (other === undefined) return [f];
    return other === main ? [] : [`also: \`${other}\``];
  });
  const facts = unique([...existing.facts, ...incoming]).slice(0, 12);
  if (facts.length === existing.facts.length) return null;
  const port = facts.map((f) => /^port: (\d+)$/.exec(f)?.[1]).find(Boolean);
  const narrative =
    port && !existing.narrative.includes(`port ${port}`)
      ? existing.narrative.replace(/\.$/, ` (on port ${port}).`)
      : existing.narrative;
  return { facts, narrative };
}

/** A failed attempt closed by a later success of the same command: it becomes a gotcha with its fix. */
export function closedFailure(
  failed: ObservationDraft & { createdAt: number },
  r: Resolution,
): Partial<ObservationDraft> {
  const canonical = r.key.replace(/^cmd:/, '');
  const message =
    failed.facts.map((f) => /^error: (.+)$/.exec(f)?.[1]).find(Boolean) ??
    failed.title.replace(/^`[^`]*` fails: /, '');
  const gotcha = gotchaDraft(
    { canonical, message, command: r.command },
    {
      short: r.fix || 'it worked in a later session',
      cause: '',
      files: r.files,
      steps: [],
      resolvedBy: r.command,
    },
    failed.facts.filter((f) => /^(?:also failed|suggested): /.test(f)).map((f) => `tried before: ${f}`),
  );
  return {
    type: 'gotcha',
    title: gotcha.title,
    narrative: clip(`${gotcha.narrative} (It was still failing at the end of an earlier session.)`, 900),
    facts: gotcha.facts,
    concepts: unique([...gotcha.concepts, ...failed.concepts.filter((c) => c !== 'failed attempt')]).slice(
      0,
      10,
    ),
    filesModified: unique([...failed.filesModified, ...gotcha.filesModified]),
    ...(gotcha.subject ? { subject: gotcha.subject } : {}),
  };
}

/** A commit of work done in an earlier turn, attached to that work's memory. */
export function attachedCommit(
  outcome: ObservationDraft,
  commit: ObservationDraft,
): Partial<ObservationDraft> {
  const commitFacts = commit.facts.filter((f) => f.startsWith('committed'));
  const typed = commit.type === 'change' ? outcome.type : commit.type;
  return {
    type: typed,
    title: commit.title,
    subtitle: outcome.title !== commit.title ? clip(outcome.title, 200) : outcome.subtitle,
    facts: unique([...outcome.facts, ...commitFacts]).slice(0, 14),
  };
}

/** An outcome memory that has no commit yet (a later commit may attach to it). */
export const uncommitted = (d: ObservationDraft) =>
  ['feature', 'bugfix', 'refactor', 'change'].includes(d.type) &&
  !d.facts.some((f) => f.startsWith('committed'));

/** How much of the dialogue a reading of the user's words used: a correction or a choice more than a bare rule. */
const READING_RANK: Record<string, number> = { correction: 3, decision: 2, preference: 1, convention: 1 };

/**
 * The same words of the user read again: the new reading replaces the stored one when it used as much
 * of the dialogue or more (a correction read from the transcript over a preference read from the
 * prompt alone), and says something else; null when it adds nothing.
 */
export function saidReading(
  existing: ObservationDraft,
  again: ObservationDraft,
): Partial<ObservationDraft> | null {
  const rank = (t: string) => READING_RANK[t] ?? 0;
  if (rank(again.type) < rank(existing.type)) return null;
  if (existing.type === again.type && existing.title === again.title && existing.narrative === again.narrative)
    return null;
  return { type: again.type, title: again.title, narrative: again.narrative, facts: again.facts };
}

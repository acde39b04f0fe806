/**
 * Knowledge across turns and sessions, decided without the store: which memories are standing (kept
 * in every SessionStart index), whether two rules are the same claim or a newer claim on the same
 * subject, what a command fact seen again adds, how a later run of the same purpose closes a failure
 * left open (as a gotcha, or archived when it was only progress), and
 * how a commit attaches to the work it commits. The worker looks the memories up and applies these
 * through the store's mutation path.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { Resolution } from './gotchas.ts';
import { errorClass } from './diagnostics.ts';
import { PASTED_REPORT } from './extractors/pasted-report.ts';
import { CHANGED_SINCE_FACT, FAILURE_TITLE, gotchaDraft } from './gotchas.ts';
import { clip, unique } from './text.ts';

const RULES = new Set(['preference', 'convention', 'correction']);
const REASON =
  /\b(?:because|since|so that|as it|instead of|rather than|over|to avoid|which (?:avoids|keeps|means))\b/i;

/**
 * Standing knowledge: preferences, conventions, corrections (not those only asked), decisions with a reason (or made by the
 * user), and how to build, test, lint and run — in every SessionStart index until superseded.
 */
export function isStanding(d: ObservationDraft, options: { byUser?: boolean } = {}): boolean {
  // A correction the user only put as a question ("I see four uncommitted files?") set this session's
  // claim right; it is not a rule for every later one.
  if (d.type === 'correction' && d.facts.some((f) => f.startsWith('asked: '))) return false;
  if (RULES.has(d.type)) return true;
  // An earlier session's account the user pasted: its decisions are that agent's claims, not standing.
  if (d.facts.includes(PASTED_REPORT)) return false;
  if (d.type === 'decision')
    return (
      options.byUser === true ||
      REASON.test(`${d.title} ${d.narrative}`) ||
      d.facts.some((f) => f.startsWith('chosen:'))
    );
  // A purpose's command fact, or the commands card that gathers them (`commands-card.ts`).
  return d.type === 'fact' && /^commands?:/.test(d.subject ?? '');
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
  const seenMain = seen.facts.map((f) => COMMAND_FACT.exec(f)?.[1]).find(Boolean);
  const same = seenMain === undefined || seenMain === main;
  const incoming = seen.facts.flatMap((f) => {
    const other = COMMAND_FACT.exec(f)?.[1];
    if (other !== undefined) return other === main ? [] : [`also: \`${other}\``];
    // What another form runs, or that CI runs it, is said of that form.
    if (!same && /^(?:runs|CI runs it): /.test(f))
      return [`${f.replace(/:.*$/, '')} (\`${seenMain}\`): ${f.replace(/^[^:]+: /, '')}`];
    return [f];
  });
  const facts = unique([...existing.facts, ...incoming]).slice(0, 12);
  if (facts.length === existing.facts.length) return null;
  const port = facts.map((f) => /^port: (\d+)$/.exec(f)?.[1]).find(Boolean);
  let narrative =
    port && !existing.narrative.includes(`port ${port}`)
      ? existing.narrative.replace(/\.$/, ` (on port ${port}).`)
      : existing.narrative;
  // Seen run by CI now: the title says so (evidence of the project's gate).
  const ci = facts.map((f) => /^CI runs it: (.+)$/.exec(f)?.[1]).find(Boolean);
  const title =
    ci && !existing.title.includes('CI runs it') ? `${existing.title} — CI runs it` : existing.title;
  if (ci && !narrative.includes('CI runs it')) narrative = `${narrative} CI runs it (${ci}).`;
  return title === existing.title ? { facts, narrative } : { title, facts, narrative };
}

/** The failure subjects a resolution may close: its purpose key, and the older per-command form. */
export function failureSubjects(r: Resolution): string[] {
  const key = r.key.replace(/^(?:purpose|cmd):/, '');
  const legacy = r.canonical ? [`fail:${r.canonical}`] : [];
  return [...new Set([`fail:${key}`, ...legacy])];
}

const factOf = (facts: readonly string[], name: string) =>
  facts.map((f) => new RegExp(`^${name}: (.+)$`).exec(f)?.[1]).find((x): x is string => x !== undefined);

/**
 * Whether a later passing run closes a failure left open: it must have happened after the failure was
 * last seen, and cover what failed — a whole run closes any failure of its purpose, a single-file run
 * only the failure of that same target.
 */
export function closes(
  failed: ObservationDraft & { createdAt: number; lastSeenAt?: number },
  r: Resolution,
): boolean {
  if (Math.max(failed.createdAt, failed.lastSeenAt ?? 0) >= r.at) return false;
  const target = factOf(failed.facts, 'target') ?? '';
  return r.target === '' || r.target === target;
}

/** Flags as written (`--no-verify`), to see a fix that was a changed flag. */
const flags = (command: string) =>
  new Set(
    (command.match(/(?:^|\s)(--?[A-Za-z][\w-]*)/g) ?? [])
      .map((f) => f.trim())
      .filter((f) => !/^-(?:m|am|qm|v|q)$/.test(f)),
  );

/**
 * A failed attempt closed by a later run of the same purpose: a gotcha with its fix when the error is
 * worth keeping (a setup problem or a tool's rule, or fixed by another command, a changed flag or a
 * configuration change); otherwise it is simply no longer true (archived with what fixed it).
 */
export function closedFailure(
  failed: ObservationDraft & { createdAt: number },
  r: Resolution,
): { gotcha: Partial<ObservationDraft> } | { archive: string } {
  const key = r.key.replace(/^(?:purpose|cmd):/, '');
  const purpose = (failed.subject ?? '').replace(/^fail:/, '').split(/[:@]/)[0] ?? '';
  const message = factOf(failed.facts, 'error') ?? failed.title.replace(FAILURE_TITLE, '');
  const rule = factOf(failed.facts, 'rule') ?? '';
  const before = (factOf(failed.facts, 'command') ?? '').replace(/^`|`$/g, '');
  // A flag added to the same command (`git commit --no-verify`), not another command altogether.
  const head = (c: string) =>
    c
      .split(/\s+/)
      .filter((w) => w !== '' && !w.startsWith('-'))
      .slice(0, 2)
      .join(' ');
  const sameCommand = before !== '' && head(before) === head(r.command);
  const added = sameCommand ? [...flags(r.command)].filter((f) => !flags(before).has(f)) : [];
  const changedFlag = added.length > 0 ? `\`${clip(`${r.canonical ?? key} ${added.join(' ')}`, 80)}\`` : '';
  const cls = errorClass({ line: message, rule }, purpose);
  // A setup problem fixed outside the sessions (a service started, a key set): what the assistant
  // said would fix it, when it named a command; else only that it works now.
  const suggested = factOf(failed.facts, 'suggested');
  const said = cls === 'setup' || cls === 'rule' ? suggested : undefined;
  const fixText =
    changedFlag ||
    r.fix ||
    (said ? `${said} (as suggested)` : '') ||
    (cls === 'setup' ? 'it worked in a later session' : '');
  const byCommand = changedFlag !== '' || /^run `/.test(r.fix);
  const config = r.files.some((f) =>
    /\.(?:json|ya?ml|toml|ini|cfg|conf|lock|env)$|(?:^|\/)\.[\w-]+$|Dockerfile|Containerfile|Makefile/.test(
      f,
    ),
  );
  const worth =
    fixText !== '' && cls !== 'assertion' && (cls === 'setup' || cls === 'rule' || byCommand || config);
  if (!worth)
    return {
      archive: `fixed: \`${clip(r.command, 80)}\` passed later${fixText ? ` (${clip(fixText, 120)})` : ''}`,
    };
  const canonical = r.canonical ?? failed.title.match(/^`([^`]+)`/)?.[1] ?? key;
  const gotcha = gotchaDraft(
    { canonical, message, command: before || r.command, key: r.key, ...(rule ? { rule } : {}) },
    { short: fixText, cause: '', files: r.files, steps: [], resolvedBy: r.command },
    failed.facts.filter((f) => /^(?:also failed|suggested): /.test(f)).map((f) => `tried before: ${f}`),
  );
  return {
    gotcha: {
      type: 'gotcha',
      title: gotcha.title,
      narrative: clip(
        `${gotcha.narrative} (${
          failed.facts.some((f) => f.startsWith(CHANGED_SINCE_FACT))
            ? 'It failed in an earlier turn, and was not run again there after the code changed.'
            : 'It was still failing at the end of an earlier turn.'
        })`,
        900,
      ),
      facts: gotcha.facts,
      concepts: unique([...gotcha.concepts, ...failed.concepts.filter((c) => c !== 'failed attempt')]).slice(
        0,
        10,
      ),
      filesModified: unique([...failed.filesModified, ...gotcha.filesModified]),
      ...(gotcha.subject ? { subject: gotcha.subject } : {}),
    },
  };
}

/** A commit of work done in an earlier turn, attached to that work's memory. */
export function attachedCommit(
  outcome: ObservationDraft,
  commit: ObservationDraft,
): Partial<ObservationDraft> {
  // The commit and what its message says the work does (`commit says: …`).
  const commitFacts = commit.facts.filter((f) => f.startsWith('committed') || f.startsWith('commit says: '));
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
  if (
    existing.type === again.type &&
    existing.title === again.title &&
    existing.narrative === again.narrative
  )
    return null;
  return { type: again.type, title: again.title, narrative: again.narrative, facts: again.facts };
}

/**
 * A project's defined scripts without those a command fact already states (`commandFacts`: the
 * commands card's entries, or a store's older per-purpose facts; a script run in some session has its
 * own entry, with how it went): null when none is left.
 */
export function scriptsNotKnown(
  scripts: ObservationDraft,
  commandFacts: readonly Pick<ObservationDraft, 'title' | 'facts'>[],
): ObservationDraft | null {
  const known = commandFacts.flatMap((c) => [c.title, ...c.facts]).join('\n');
  const run = (fact: string) => /^`([^`]+)` runs /.exec(fact)?.[1] ?? null;
  const facts = scripts.facts.filter((f) => {
    const command = run(f);
    return command === null || !known.includes(`\`${command}\``);
  });
  const left = facts.filter((f) => run(f) !== null);
  if (left.length === 0) return null;
  if (left.length === scripts.facts.filter((f) => run(f) !== null).length) return scripts;
  const names = left.map((f) => (run(f) ?? '').replace(/^npm (?:run )?/, ''));
  return {
    ...scripts,
    title: clip(`${scripts.title.replace(/:.*$/, '')}: ${names.join(', ')}`, 90),
    narrative: `${scripts.narrative.replace(/ defines: .*$/, '')} defines: ${left.join('; ')}.`,
    facts,
  };
}

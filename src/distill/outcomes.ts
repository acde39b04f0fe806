/**
 * One memory per outcome: each task of a turn that changed something (see `Segment`) becomes one
 * memory titled by what is now true — its commit, the todo item it finished, or the assistant's own
 * statement of the result — never by the prompt, with the assistant's explanation as its narrative.
 * A turn that only ran or read things has no outcome (what it ran may still strengthen a fact).
 */
import { REMOVED_FACT } from '../core/graph.ts';
import type { ObservationDraft, ObservationType } from '../core/model.ts';
import type { Segment, TurnAnalysis } from './analyse-turn.ts';
import { requestedType } from './classify-request.ts';
import { conceptsOf } from './concepts.ts';
import { askedFromRequest, doneFromRequest } from './done-request.ts';
import { debugging } from './failure-stretches.ts';
import { describeFileChange } from './file-changes.ts';
import { commitMessage, commitSweep } from './commit-commands.ts';
import { topicWords } from './knowledge.ts';
import { unsupportedClaim } from './claims.ts';
import type { PartRun } from './command-runs.ts';
import { shortError } from './gotchas.ts';
import { countedRuns, editedAfter, purposeState } from './purpose-state.ts';
import {
  explanation,
  impersonal,
  isHedge,
  isStatusNote,
  outcomeSentence,
  proseSentences,
} from './narration.ts';
import { clip, findingSentence, informativeSentence, unique, withoutFiller } from './text.ts';
import { checkFacts, dependencyFacts, requestOf } from './turn-observations.ts';
import { commitRecord } from './turn-tasks.ts';

const MAX_FILES = 30;

const CONVENTIONAL = /^(\w+)(?:\(([^)]*)\))?!?:\s*(.+)$/;
const COMMIT_TYPES: Record<string, ObservationType> = {
  feat: 'feature',
  feature: 'feature',
  fix: 'bugfix',
  bugfix: 'bugfix',
  hotfix: 'bugfix',
  refactor: 'refactor',
  perf: 'refactor',
  docs: 'change',
  test: 'change',
  tests: 'change',
  chore: 'change',
  build: 'change',
  ci: 'change',
  style: 'change',
};

/** "feat(checkout): add checkout page route" → "Add checkout page route". */
export function commitTitle(message: string): string {
  const m = CONVENTIONAL.exec(message.trim());
  const text = m?.[3] && m[1] && COMMIT_TYPES[m[1].toLowerCase()] ? m[3] : message.trim();
  return clip(text.charAt(0).toUpperCase() + text.slice(1), 100);
}

export function commitType(message: string): ObservationType | null {
  const m = CONVENTIONAL.exec(message.trim());
  return m?.[1] ? (COMMIT_TYPES[m[1].toLowerCase()] ?? null) : null;
}

const inSegment = (s: Segment, index: number) => index >= s.start && index <= s.end;

/** The failures a check found in the code that the task's work fixed (the test passes after it). */
function fixedTests(a: TurnAnalysis, s: Segment) {
  return a.errors.filter((e) => e.fixed && !e.minor && inSegment(s, e.index) && e.cls === 'assertion');
}

/** The assistant's words during a task (and its final message, for the last one). */
function segmentTexts(
  a: TurnAnalysis,
  s: Segment,
  last: boolean,
  keep: (index: number) => boolean = () => true,
): string[] {
  // After the task's commits, a reply that leaves the user a choice of what comes next ("Want me to
  // (a) … or (b) …? I haven't touched anything yet") recommends; it says nothing of the committed work.
  const committed = s.commits.length > 0 ? Math.max(...s.commits.map((c) => c.index)) : Infinity;
  const proposes = (text: string, index: number) => index > committed && leavesChoice(text);
  const texts = a.narration
    .filter((n) => inSegment(s, n.index) && keep(n.index) && !proposes(n.text, n.index))
    .map((n) => n.text);
  if (last && a.lastMessage !== '' && !texts.includes(a.lastMessage) && !proposes(a.lastMessage, Infinity))
    texts.push(a.lastMessage);
  return texts;
}

/** A reply that ends by asking the user which way to go on ("Want me to (a) …, (b) … or (c) …?"). */
function leavesChoice(text: string): boolean {
  const asks = text
    .split(/\n+/)
    .map((l) => l.trim())
    .filter((l) => /[?？]\s*(?:\S+\s+){0,12}\S*$/.test(l));
  // Ways set against each other ("(a) … (b) …", "…, or …"): a "Want me to push?" after the report of
  // the work leaves no choice of direction.
  return asks.some(
    (l) =>
      /\b(?:want me to|should I|shall I|would you like(?: me)? to|do you want(?: me)? to|which (?:option|one|way|approach))\b/i.test(
        l,
      ) && /\bor\b|\(b\)|\bb\)/i.test(l),
  );
}

function outcomeType(a: TurnAnalysis, s: Segment, request: string): ObservationType {
  for (const c of s.commits) {
    if (c.reused) continue;
    const t = commitType(c.message);
    if (t) return t;
  }
  const asked = requestedType(s.completed[0] ?? '') ?? requestedType(request);
  // A check that found the code wrong, fixed by this change: a bugfix, unless a feature was asked for.
  const fixedBug = fixedTests(a, s).length > 0;
  if (fixedBug && asked !== 'feature' && asked !== 'refactor') return 'bugfix';
  return asked ?? 'change';
}

/** The message of the segment's last commit attempt that failed, when it names the work (≥ 3 words). */
function attemptedCommitTitle(a: TurnAnalysis, s: Segment): string {
  const tries = a.commands.filter(
    (c) =>
      c.purpose === 'commit' &&
      (c.outcome === 'failed' || c.outcome === 'nothing') &&
      c.where === 'project' &&
      inSegment(s, c.index),
  );
  const message = commitMessage(tries[tries.length - 1]?.command ?? '') ?? '';
  const named = message === '' ? '' : commitTitle(message);
  return named.split(/\s+/).length >= 3 ? named : '';
}

/**
 * What is now true, by the strength of its evidence: the commit's subject; the assistant's end-of-turn
 * report (what it says after its last tool call, not what it expected before running something);
 * the one checklist item the task finished; its other words; the request stated as done; the failing
 * test it made pass; the change.
 */
function title(
  a: TurnAnalysis,
  s: Segment,
  texts: readonly string[],
  request: string,
  last: boolean,
): string {
  // An amend that kept the earlier message names that earlier work, not this.
  const commit = s.commits.find((c) => !c.reused);
  // A commit subject of a word or two ("init", "wip") says nothing of the work: the report does.
  const told = commit && commitTitle(commit.message).split(/\s+/).length >= 3;
  if (commit && told) return commitTitle(commit.message);
  // A commit tried for this work that did not land ("nothing to commit", a hook refusing it): its
  // message is still its author's name for the change, over narration about why it did not land.
  const tried = commit ? '' : attemptedCommitTitle(a, s);
  if (tried !== '') return tried;
  const files = s.files.files();
  const names = [
    ...files.flatMap((f) => [...f.added, ...f.changed, ...f.renamed]),
    ...files.map((f) => f.path.split('/').pop() ?? f.path),
  ];
  const supported = (x: string) => !unsupportedClaim(x, a);
  const reported = last && a.lastMessage !== '' ? outcomeSentence([a.lastMessage], names, supported) : '';
  if (reported !== '') return clip(impersonal(reported), 110);
  if (commit) return commitTitle(commit.message);
  const finished = s.completed.length === 1 ? s.completed[0] : undefined;
  if (finished) return clip(finished.charAt(0).toUpperCase() + finished.slice(1), 100);
  const said = outcomeSentence(texts, names, supported);
  if (said !== '') return clip(impersonal(said), 110);
  const done = doneFromRequest(request);
  if (done !== '') return supported(done) ? done : triedTitle(a, request);
  // A test that found the code wrong and passes after the work: what it fixed says more than a diff.
  const [fixed] = fixedTests(a, s);
  if (fixed) return clip(`Fixed: ${shortError(fixed.message, 100)}`, 110);
  const first = files[0];
  return first ? clip(describeFileChange(first), 100) : '';
}

/**
 * The request as tried, when the turn's runs do not bear out that it was done ("Fix the failing price
 * test" with the test failing at its last run): what still fails, or that it was not run again after
 * the code changed.
 */
function triedTitle(a: TurnAnalysis, request: string): string {
  const asked = askedFromRequest(request);
  const open = purposeState(a.commands).open[0];
  const last = open?.runs[open.runs.length - 1];
  const outcome = last
    ? `\`${clip(last.canonical, 40)}\` ${editedAfter(a.edits, last.index).length > 0 ? 'not re-run' : 'still failed'}`
    : 'no run bore it out';
  // The request is cut, never the outcome after it (a later run reads it back: work-state).
  return `Tried: ${clip(asked, 80)} — ${outcome}`;
}

/** Words any failure's output may hold: they say nothing of what failed. */
const GENERIC_ERROR_WORD =
  /^(?:err(?:or)?s?|fail\w*|fatal|exit\w*|code|status|process\w*|complete\w*|success\w*|command|run\w*|found|not|unknown|cannot|could|did|does|line|file|expected|received|warn\w*|panic\w*|exception|traceback|undefined|null|true|false|\d+)$/;

/**
 * The failures a task's work answered: purposes failing when it began. For each, what the next run of
 * that purpose in the turn said — still failing (the work was an attempt, not the fix), passed (the
 * checks' facts say so), or not run again (the work is untested against it).
 */
export function answeredFailures(
  a: TurnAnalysis,
  s: Segment,
  texts: readonly string[],
): { canonical: string; message: string; after: PartRun | null }[] {
  const open = purposeState(a.commands.filter((c) => c.index <= s.start)).open;
  const runs = countedRuns(a.commands);
  // The work is about the failure when it touches a file the error names, or its words (the
  // assistant's, the commit's) share a distinctive word with the error — not one every error has.
  const files = s.files.files().map((f) => f.path.split('/').pop() ?? f.path);
  const words = topicWords([...texts, ...s.commits.map((c) => c.message)].join(' '));
  const about = (r: PartRun) => {
    if (files.some((f) => f.length > 3 && r.message.includes(f))) return true;
    for (const w of topicWords(r.message)) if (!GENERIC_ERROR_WORD.test(w) && words.has(w)) return true;
    return false;
  };
  return open
    .map((o) => ({ o, last: o.runs[o.runs.length - 1] as PartRun }))
    .filter(({ last }) => about(last))
    .slice(0, 2)
    .map(({ o, last }) => {
      const later = runs.filter((r) => r.key === o.key && r.index > s.end);
      return { canonical: last.canonical, message: last.message, after: later[later.length - 1] ?? null };
    });
}

/** The fact naming the failure a task's work answered (the worker matches it to later runs). */
export const answeredFact = (canonical: string, message: string) =>
  `after \`${clip(canonical, 60)}\` failed: ${shortError(message || 'failed', 80)}`;
/** The failure a task's work answered was not run again after it in that turn: the work is untested. */
export const untestedFact = (canonical: string) =>
  `untested: \`${clip(canonical, 60)}\` not run after it in that turn`;
export const stillFailedFact = (canonical: string, message: string) =>
  `\`${clip(canonical, 60)}\` still failed after it: ${shortError(message || 'failed', 80)}`;
/** A title stating an attempt: the work was done, the failure it answered was not gone. */
export const attemptTitle = (title: string, canonical: string) =>
  /^Tried: /.test(title)
    ? // Told as not run again, and a later run of it failed.
      title.replace(/ not re-run$/, ' still failed')
    : clip(`Tried: ${title} — \`${clip(canonical, 40)}\` still failed`, 140);

/** The project files (or folders) the task removed, as one fact; the graph marks them deleted. */
function removedFact(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  const shown = paths.slice(0, 12).join(', ');
  return [`${REMOVED_FACT}${shown}${paths.length > 12 ? ` (+${paths.length - 12} more)` : ''}`];
}

/** The outcome memory of one task, or null when it changed nothing. */
/** Work on a task still in progress at the end of the turn: its state is the task list, not an outcome. */
function unfinished(a: TurnAnalysis, s: Segment, last: boolean): boolean {
  return (
    last &&
    s.commits.length === 0 &&
    s.completed.length === 0 &&
    (a.todos ?? []).some((t) => t.status === 'in_progress')
  );
}

/** A plan written down for approval is a proposal, not an outcome (what it leads to will be). */
function planOnly(a: TurnAnalysis, s: Segment): boolean {
  const files = s.files.files();
  const planFiles = files.every((f) => /(?:^|\/)(?:plans?\/[^/]+|[^/]*plan[^/]*)\.md$/i.test(f.path));
  return s.commits.length === 0 && files.every((f) => /plan/i.test(f.path)) && (a.planned || planFiles);
}

function outcome(
  a: TurnAnalysis,
  s: Segment,
  last: boolean,
  maxFacts: number,
  busy: (index: number) => boolean,
): ObservationDraft | null {
  const files = s.files.files().map((f) => f.path);
  if (files.length === 0 && s.commits.length === 0) return null;
  if (unfinished(a, s, last) || planOnly(a, s)) return null;
  const request = s.prompt || requestOf(a);
  const texts = segmentTexts(a, s, last);
  const told = title(a, s, texts, request, last);
  if (told === '') return null;
  const answered = answeredFailures(a, s, texts);
  const stillFailing = answered.find((f) => f.after?.outcome === 'failed');
  const heading = stillFailing ? attemptTitle(told, stillFailing.canonical) : told;
  const answeredFacts = answered.flatMap((f) => [
    answeredFact(f.canonical, f.message),
    ...(f.after?.outcome === 'failed' ? [stillFailedFact(f.canonical, f.after.message)] : []),
    ...(f.after === null ? [untestedFact(f.canonical)] : []),
  ]);
  const findings = a.subagents.filter((f) => inSegment(s, f.index) && f.agentType !== 'Plan');
  const commitFacts = s.commits.flatMap((c) => {
    const sweep = commitSweep(c.filesChanged ?? null, c.created ?? [], files.length + c.staged.length);
    return [
      `committed${c.hash ? ` ${c.hash}` : ''}${c.reused ? ' (amending the last commit, its message kept)' : ''}: ${clip(c.message, 100)}${c.branch ? ` (on ${c.branch})` : ''}${sweep ? ` — ${sweep}` : ''}`,
      // What the commit's body says it does: the project's own record of the change.
      ...(c.body ?? []).map((line) => `commit says: ${clip(line, 140)}`),
    ];
  });
  // A test that found the code wrong and passes now: the bug this work fixed.
  const fixedHere = fixedTests(a, s).map((e) => `fixed: ${clip(e.message, 100)}`);
  // What happened (commits, checks, a push) before the todo items ticked along the way.
  const others = unique([
    ...answeredFacts,
    ...commitFacts,
    ...removedFact(a.removed.filter((r) => inSegment(s, r.index)).map((r) => r.path)),
    ...checkFacts(a, (i) => inSegment(s, i)),
    ...fixedHere,
    ...(last && a.pushed ? ['pushed to the remote'] : []),
    ...s.completed.map((t) => `[x] ${clip(t, 100)}`),
    ...(last ? dependencyFacts(a) : []),
    ...findings.map((f) => `found (${f.agentType || 'subagent'}): ${informativeSentence(f.findings, 160)}`),
  ]).slice(0, Math.max(3, Math.ceil(maxFacts / 2)));
  const fileFacts = s.files.files().map(describeFileChange);
  const room = Math.max(1, maxFacts - others.length);
  const shownFiles =
    fileFacts.length <= room
      ? fileFacts
      : [...fileFacts.slice(0, room - 1), `… and ${fileFacts.length - room + 1} more files changed`];
  const supported = (x: string) => !unsupportedClaim(x, a);
  // What was said outside the stretches spent on a failure; when nothing was, all of it. What the
  // work is says what is so: not what might be ("If it differs, we'd need to …").
  const stated = (x: string) => supported(x) && !isHedge(x);
  const why =
    explanation(
      segmentTexts(a, s, last, (i) => !busy(i)),
      600,
      stated,
    ) || explanation(texts, 600, stated);
  // A question in the report ("Want me to commit it?") offers a next step; it says nothing of the work.
  const fallback =
    last && a.lastMessage !== '' && !(s.commits.length > 0 && leavesChoice(a.lastMessage))
      ? clip(
          // Its headings name parts of the report; they say nothing of the work.
          proseSentences(withoutFiller(a.lastMessage).replace(/^[ \t]*#.*$/gm, ''))
            .filter((x) => supported(x) && !/\?\s*$/.test(x) && !isStatusNote(x))
            .join(' '),
          600,
        )
      : '';
  const narrative = [
    why || fallback,
    // What a subagent found, when it said it in prose; an inventory (`Version: 1.5.0`, `Endpoint: …`)
    // is no finding, and stays a fact.
    ...findings.flatMap((f) => {
      const agent = f.agentType || 'subagent';
      const found = findingSentence(f.findings, 300);
      // A subagent's report of its own work is a claim like the assistant's: kept where the runs back it.
      return found === '' || !supported(found)
        ? []
        : [`${/^[aeiou]/i.test(agent) ? 'An' : 'A'} ${agent} subagent found: ${found}`];
    }),
  ].filter(Boolean);
  const subtitle = s.commits.length > 1 ? `${s.commits.length} commits` : '';
  const type = outcomeType(a, s, request);
  return {
    // Work that did not fix what it was for is a change, not a bugfix.
    type: type === 'bugfix' && /^Tried: /.test(heading) ? 'change' : type,
    title: heading,
    subtitle,
    narrative:
      clip(narrative.join('\n'), 900) || commitRecord(s) || (saysWhat(request) ? clip(request, 300) : ''),
    facts: unique([...shownFiles, ...others]).slice(0, maxFacts),
    concepts: conceptsOf({
      prompt: `${heading} ${request}`,
      files: [...files, ...a.filesRead],
      commands: a.commands
        .filter((c) => c.purpose !== 'inspect' && c.purpose !== 'other')
        .map((c) => c.command),
    }),
    filesRead: a.filesRead.slice(0, MAX_FILES),
    // A commit of work done in an earlier turn names what it staged; the worker attaches it to the
    // memory of that work.
    filesModified: (files.length > 0 ? files : unique(s.commits.flatMap((c) => c.staged))).slice(
      0,
      MAX_FILES,
    ),
    ...(files.length === 0 ? { subject: 'attach:commit' } : {}),
  };
}

/**
 * A request that says what was wanted: a go-ahead ("ok", "ok 開始", "yes please") names nothing of the
 * work and is no account of it. Three words, or a dozen characters of a script written without spaces.
 */
const saysWhat = (request: string) =>
  request
    .trim()
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]{2}/u.test(w)).length >= 3 ||
  (request.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []).length >=
    12;

/** One memory per task of the turn that changed something. */
export function outcomeObservations(a: TurnAnalysis, maxFacts: number): ObservationDraft[] {
  // The stretches spent on a failure, worked out once for all the turn's tasks.
  const busy = debugging(a);
  return a.segments.flatMap((s, i) => {
    const o = outcome(a, s, i === a.segments.length - 1, maxFacts, busy);
    return o ? [o] : [];
  });
}

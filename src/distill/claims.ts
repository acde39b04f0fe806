/**
 * The assistant's words are kept only where what happened supports them. A sentence that claims how a
 * check went ("all tests pass", "the build is green", "lint is clean") stands only when the turn ran
 * that check and its last run passed; a claim about a check that cannot run here (CI) or that no run
 * backs, a hope ("this should fix it", "it will probably work"), a conditional ("this would catch a
 * regression") and a verdict on the work as a whole
 * ("production-ready", "fully ready to go") are not knowledge and are never stored as if they were.
 */
import type { TurnAnalysis } from './analyse-turn.ts';
import type { Purpose } from './purpose-names.ts';
import { countedRuns, purposeState } from './purpose-state.ts';

/** A hope or a guess about what will happen, not a statement of what did. */
const HOPE =
  /\b(?:should (?:now )?(?:work|pass|fix|be (?:fixed|green|good|ready|resolved|working))|(?:will|would) (?:now )?(?:work|pass|fix|succeed)|probably|hopefully|ought to|expected to (?:work|pass))\b/i;
/** A conditional: what would or could be, not what is ("this would catch a regression if …"). */
const CONDITIONAL = /\b(?:would|could|might)\b|\b(?:would|could|might)n'?t\b/i;

/** The work as a whole declared finished or fit for use: a self-assessment no run can back. */
const VERDICT =
  /\b(?:(?:fully|now|is|are|all) (?:ready|complete|production[- ]ready)|ready (?:to go|for (?:use|production|review|ci|testing))|production[- ]ready|(?:the )?complete (?:mvp|implementation|solution)|everything (?:is |now )?(?:works?|working|fixed|done|ready)|(?:is|are) (?:now )?(?:fully )?(?:working|functional) (?:correctly|as expected|perfectly)|fully (?:functional|working|operational))\b/i;

/** What a check's outcome is said to be. */
const OUTCOME =
  /\b(?:pass(?:es|ed|ing)?|green|clean|succeed(?:s|ed)?|successful(?:ly)?|work(?:s|ing)?|fixed|resolved|ready|complete|all good)\b/i;

/** A sentence saying a problem is gone (not how a named check went). */
const REMEDIED = /\b(?:fix(?:es|ed)?|resolv(?:es|ed)|solv(?:es|ed)|works?(?: now)?|working)\b/i;

/** The checks a sentence names, as the purposes of the commands that run them. */
const CHECKS: [RegExp, Purpose[] | 'unverifiable'][] = [
  [/\bci\b|\bpipeline\b|\bgithub actions\b/i, 'unverifiable'],
  [/\btests?\b|\bspecs?\b|\btest suite\b/i, ['test']],
  [/\blint(?:er|ing)?\b/i, ['lint']],
  [/\btype ?check(?:s|ing)?\b|\btypes?\b|\btsc\b/i, ['typecheck']],
  [/\bbuilds?\b|\bcompiles?\b/i, ['build']],
  [/\b(?:all|quality) checks\b|\bchecks\b/i, ['gate', 'test', 'lint', 'typecheck', 'build']],
];

/**
 * Whether the last run of each purpose that ran passed, and at least one of them ran. Runs as the
 * project's outcomes count them: each part of a chain on its own, and a gate whose output shows the
 * suite passing is also a test run (`just check` after `pytest` failed: the tests now pass).
 */
function lastRunsPassed(a: TurnAnalysis, kinds: readonly Purpose[]): boolean {
  const runs = countedRuns(a.commands);
  let ran = false;
  for (const kind of kinds) {
    const last = runs.filter((r) => r.purpose === kind).pop();
    if (!last) continue;
    ran = true;
    if (last.outcome !== 'passed') return false;
  }
  return ran;
}

/**
 * Whether a sentence of the assistant's claims more than the turn's evidence shows: a hope, or a
 * check's outcome that no run of that check in the turn backs.
 */
export function unsupportedClaim(sentence: string, a: TurnAnalysis): boolean {
  if (HOPE.test(sentence) || VERDICT.test(sentence) || CONDITIONAL.test(sentence)) return true;
  const remedied = REMEDIED.test(sentence);
  if (!OUTCOME.test(sentence) && !remedied) return false;
  for (const [names, kinds] of CHECKS) {
    if (!names.test(sentence)) continue;
    return kinds === 'unverifiable' ? true : !lastRunsPassed(a, kinds);
  }
  // Naming no check: a failure still open when the turn ends refutes a claim that the problem is gone.
  if (remedied && purposeState(a.commands).open.length > 0) return true;
  return false;
}

/**
 * Whether the turn changed the project after a failure it leaves open: a fix no run has borne out.
 * What was done stands (the files changed, the commit); what the assistant says of it — the cause,
 * the fix, "the issue was …" — is its account, not a result of the turn. (A turn that only looked
 * keeps its diagnosis: it answers what was asked.)
 */
export function fixUnconfirmed(a: TurnAnalysis): boolean {
  return purposeState(a.commands).open.some((failure) =>
    failure.runs.some((run) => [...a.edits, ...a.commits].some((c) => c.index > run.index)),
  );
}

/**
 * Commands addressed to the agent (see instruction-screen.ts): a clause that opens with an action verb
 * (after a leading condition and any insistence), by how far the command reaches. Pure.
 */
import { OUTSIDE, SECRETS } from './screen-words.ts';

let targetRe: RegExp | null = null;
/** Somewhere outside the machine, or a secret (what a send or a fetch acts on to reach outside). */
const target = () => (targetRe ??= new RegExp(`${OUTSIDE}|${SECRETS}`));
/** A cheap first look for `target` (a dot, an at sign, a scheme or a secret's word part). */
const TARGET_CUE = /[./@]|secret|credential|passw|token|key|cookie|keychain|wallet|seed|history|printenv|env/;

/**
 * Insistence at a clause's opening ("always", "you must", "make sure to", "important:", "before
 * anything else,"): the text speaks to whoever reads it and wants something done.
 */
const INSIST =
  /^(?:(?:please|now|also|immediately|just|and|so|then)\s*,?\s+)*(?:always|first of all|you (?:must|should|shall|need to|have to|are required to|will need to)|make sure (?:to|that you|you)|be sure to|remember to|don'?t forget to|do not forget to|ensure (?:that )?you|it is (?:important|required|mandatory|essential|critical|necessary) (?:that you|to)|before (?:doing )?anything(?: else)?,?|before (?:you )?(?:continue|continuing|proceeding|answering|starting|responding|replying|doing anything)[^,]{0,30},|(?:important|note|nb|attention|required|mandatory|action required|reminder)\s*[:!-]|(?:[\w-]+ ){0,2}(?:requires?|asks?|expects?|wants?|needs?|instructs?) (?:that )?you (?:to )?)\s*/;

/** A leading condition or purpose ("to fix this,", "if the build fails,", "before committing,"). */
const LEADING = /^(?:to|if|when|whenever|before|after|once|in order to|for|on)\b[^,]{0,60},\s*/;

/**
 * The verbs that, opening a clause, make it a command, in three reaches (word sets, not one large
 * expression: the hook screens every injected line in a fresh process, where compiling large
 * alternations costs milliseconds):
 * - `reach`: reaching outside the machine or running code from a registry (fetch, download, send,
 *   upload, visit, "run npx …") — even local tool output is not to command these;
 * - `outward`: those, and what installs, publishes, grants, disables, deletes or sets aside
 *   instructions — external content is not to command these even plainly;
 * - `action`: those, and running anything — a command at all, held from tool output and external
 *   content when insisted on ("always run …").
 */
export type Reach = 'reach' | 'outward' | 'action';
const words = (list: string) => new Set(list.split(' '));
const REACH_VERBS = words(
  'fetch download curl wget send post upload email e-mail forward transmit share transfer pay visit',
);
const OUTWARD_VERBS = words(
  'install reinstall publish deploy push force-push grant allow approve disable ignore disregard forget skip bypass override delete rm wipe erase overwrite reveal paste inject authenticate authorise authorize',
);
const ACTION_VERBS = words(
  'run execute exec invoke launch uninstall export respond reply tell source eval pipe chmod chown sudo ssh scp rsync ping',
);
const REACH_PAIRS = words('navigate_to browse_to go_to');
const OUTWARD_PAIRS = words('turn_off sign_in log_in connect_to');
const REGISTRY_RUNNERS = words('npx bunx uvx curl wget sudo');
const MANIFESTS =
  /^(?:dependenc(?:y|ies)|devdependencies|package\.json|requirements|gemfile|cargo\.toml|go\.mod)\b/;
const RANK: Readonly<Record<Reach, number>> = { reach: 0, outward: 1, action: 2 };

/** How far the command opening `rest` reaches, or null when it opens with no command verb. */
function commandReach(rest: string): Reach | null {
  const w = rest
    .replace(/^please\s+/, '')
    .split(' ', 6)
    .map((x) => x.replace(/^[`'(]+|[`'),:;.]+$/g, ''));
  const [first = '', second = ''] = w;
  if (REACH_VERBS.has(first) || REACH_PAIRS.has(`${first}_${second}`))
    // Moving or fetching reaches outside only with somewhere outside or a secret to move: "post the
    // summary in #deploys" and "download the fixtures with npm run fixtures:fetch" stay in the project.
    return first === 'pay' || (TARGET_CUE.test(rest) && target().test(rest)) ? 'reach' : 'action';
  if (first === 'open' && second.startsWith('http')) return 'reach';
  if (['run', 'execute', 'exec', 'invoke'].includes(first)) {
    const runner = `${second} ${w[2] ?? ''}`;
    if (REGISTRY_RUNNERS.has(second) || /^(?:pnpm dlx|yarn dlx|pipx run)$/.test(runner)) return 'reach';
    return 'action';
  }
  if (OUTWARD_VERBS.has(first) || OUTWARD_PAIRS.has(`${first}_${second}`) || first === 'login')
    return 'outward';
  // "add <package> to the dependencies": a dependency chosen for the project.
  if (first === 'add' && (w[2] === 'to' || w[2] === 'as')) {
    const after = w
      .slice(3)
      .filter((x) => !['the', 'a', 'your'].includes(x))
      .join(' ');
    if (MANIFESTS.test(after)) return 'outward';
  }
  if (ACTION_VERBS.has(first)) return 'action';
  if (
    ['add', 'append', 'set'].includes(first) &&
    (second === 'this' || (second === 'the' && w[2] === 'following'))
  )
    return 'action';
  return null;
}

/** A prohibition opening a clause: not a command to act. */
export const NEGATED = /^(?:please\s+)?(?:never|don'?t|do not|avoid|no|not)\b/;

/** Clauses: split at sentence ends, colons, semicolons, dashes between words, bullets, quotes, brackets. */
export function clauses(text: string): string[] {
  return text
    .split(
      /[.!?;]+(?:\s+|$)|:\s+|\n+|\s[\u2014\u2013\u2192-]+>?\s|\s\u00B7\s|\]\s+|\s\(|\)\s+|[\u201C\u201D"]/,
    )
    .map((c) =>
      c
        .trim()
        .replace(/^[-*>#\u2022+\d.)(\s'`]+/, '')
        .trim(),
    )
    .filter((c) => c.length >= 4);
}

/**
 * The first clause of `folded` that commands the agent to act: an action verb opening it (after a
 * leading condition) with insistence before it ("always run …"), or a `plain` one even without
 * (external content: any outward command; tool output: one that reaches outside the machine).
 */
export function commandClause(folded: string, plain: Reach): string | null {
  for (const c of clauses(folded)) {
    if (NEGATED.test(c)) continue;
    const afterLead = c.replace(LEADING, '');
    const rest = afterLead.replace(INSIST, '');
    if (NEGATED.test(rest)) continue;
    const reach = commandReach(rest);
    if (reach === null) continue;
    // Insisted on, any command; plain, only one that reaches as far as `plain` or further.
    if (rest !== afterLead || RANK[reach] <= RANK[plain]) return c;
  }
  return null;
}

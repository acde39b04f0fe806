/**
 * The instruction screen: does a text address the agent or the user's tools — tell it to run, fetch,
 * send, install, disable, grant, ignore its instructions, keep something from the user — or carry a
 * hidden or encoded payload? Text like that, remembered from content the user did not write, is how
 * a planted instruction would come back in every later session, so the mutation path holds it for
 * review and the context hooks drop any line of it they were about to inject.
 *
 * Rules come in two severities:
 * - `hostile`: reaches outside the project or against the user — overriding or hiding from the
 *   agent's instructions, exfiltration, running remote code, disabling a safety gate, changing
 *   permissions, addressing AI agents as such, hidden characters and encoded blobs;
 * - `imperative`: a command addressed to the agent (a clause that opens with an action verb: run,
 *   fetch, install, send, delete, …), whatever it asks for.
 * Who may say what: the user's own words are never screened; the repository may tell the agent how to
 * work on itself ("run npm test before committing") but nothing hostile; local tool output (the
 * agent's own commands and words: todo items and fix steps are commands by nature) nothing hostile, no
 * insistent command ("always run …", "you must send …") and no plain one reaching outside the machine
 * ("to repair it, run npx …", "upload the log to …"); external content (a page, a dependency,
 * a teammate's memory) not even a plain outward one ("download …", "run npx …"), though it may say
 * how the project works ("run migrations with pnpm db:migrate before tests"). A prohibition ("never run …", "don't …") is not a command to act.
 *
 * `SCREEN_VERSION` is stored with every decision: a memory screened by an older version is screened
 * again. Pure; cheap enough for the hook (a few regular expressions over a short line).
 */
import { commandClause } from './screen-commands.ts';
import { fold, matchRules, type ScreenHit } from './screen-rules.ts';
import { structuralHit } from './screen-structure.ts';
import type { TrustClass } from './trust.ts';

export type { ScreenCategory, ScreenHit } from './screen-rules.ts';

/** Bump when a rule changes: memories screened by an earlier version are screened again. */
export const SCREEN_VERSION = 4;

const HOSTILE_ONLY: ReadonlySet<string> = new Set(['hostile']);
const EVERY: ReadonlySet<string> = new Set(['hostile', 'imperative']);

/**
 * Screen a text of the given trust: the first rule it breaks, or null. The user's words are never
 * screened; the repository's only for hostile text; local tool output for hostile text, insistent
 * commands ("always run …", "you must send …") and plain ones that reach outside the machine
 * ("to repair it, run npx …"); external content for those and any plain outward command.
 */
export function screenText(text: string, trust: TrustClass): ScreenHit | null {
  if (trust === 'user' || text.trim() === '') return null;
  const folded = fold(text);
  const hit =
    matchRules(text, folded, trust === 'repository' ? HOSTILE_ONLY : EVERY) ?? structuralHit(folded, trust);
  if (hit || trust === 'repository') return hit;
  const command = commandClause(folded, trust === 'external' ? 'outward' : 'reach');
  return command
    ? {
        rule: 'command-to-agent',
        category: 'imperative',
        severity: 'imperative',
        excerpt: command.slice(0, 120),
      }
    : null;
}

/** Screen every text of a memory (title, narrative, facts…): the first hit, or null. */
export function screenTexts(texts: readonly string[], trust: TrustClass): ScreenHit | null {
  for (const t of texts) {
    const hit = screenText(t, trust);
    if (hit) return hit;
  }
  return null;
}

/** "exfiltrate (send-to-host): “…”", the reason shown to a person. */
export const describeHit = (hit: ScreenHit): string => `${hit.category} (${hit.rule}): “${hit.excerpt}”`;

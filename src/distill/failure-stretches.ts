/**
 * The stretches of a turn spent on a failure: after a command failed, until the run that no longer
 * showed its error; and after a checker reported findings though it passed (a linter's advice, its
 * status hidden by a pipe), until a later run of it reported none. What the assistant said inside them
 * is about the failure — its guesses, the code half-way ("the alias is unused because …") —; the
 * failure's gotcha keeps what the evidence bears out, and a work memory's account is what was said
 * outside them (`outcomes.ts`).
 */
import type { TurnAnalysis } from './analyse-turn.ts';
import { CHECKS } from './commands.ts';
import { diagnostics } from './diagnostics.ts';

/** Whether the assistant's words at a turn's `index` fall inside a stretch spent on a failure. */
export function debugging(a: TurnAnalysis): (index: number) => boolean {
  const spans = a.errors
    .filter((e) => !e.minor && e.key.startsWith('purpose:') && e.fixedAt !== null)
    .map((e) => [e.index, e.fixedAt as number] as const);
  // A checker that reported findings though it passed (a linter's advice, its status hidden by a
  // pipe), until a later run of it reports none: the same kind of stretch. (A test run's warnings are
  // the compiler's, not what the run checks.)
  const checks = a.commands.flatMap((c) => {
    const parts = c.parts.filter(
      (p) => CHECKS.has(p.purpose) && p.purpose !== 'test' && p.outcome !== 'failed',
    );
    const found = parts.length > 0 && diagnostics(c.output).length > 0;
    return parts.map((p) => ({ key: p.key, index: c.index, found }));
  });
  for (const [i, r] of checks.entries()) {
    if (!r.found) continue;
    const clean = checks.slice(i + 1).find((x) => x.key === r.key && !x.found);
    if (clean) spans.push([r.index, clean.index]);
  }
  return (index) => spans.some(([from, to]) => index > from && index < to);
}

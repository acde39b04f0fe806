/**
 * The user reporting that the work just done did not do it ("Still doesn't work.", "same error",
 * `deniesOutcome`) as the whole of a short message: the assistant's account of that work ("The toggle
 * now correctly updates …") is then no fix. The session's latest work is told as tried, with the
 * user's words (`store-knowledge.ts`): the user is the evidence no run gives (a page, a device).
 */
import type { ObservationDraft } from '../core/model.ts';
import { deniesOutcome } from './extractors/mood.ts';
import { proseSentences, userProse } from './extractors/user-prose.ts';
import { clip } from './text.ts';

/** The user's message when all it says is that the result does not hold; '' otherwise. */
export function notFixedReport(prompts: readonly string[]): string {
  if (prompts.length !== 1) return '';
  const said = proseSentences(userProse(prompts[0] ?? '').text);
  // A report and nothing more: a new request beside it is the next task, read on its own.
  return said.length >= 1 && said.length <= 2 && deniesOutcome(said[0] ?? '') ? said.join(' ') : '';
}

/** Work the user said did not do it: told as tried, the user's words kept. */
export function notFixedWork(
  work: Pick<ObservationDraft, 'title' | 'type' | 'facts'>,
  said: string,
): Pick<ObservationDraft, 'title' | 'type' | 'facts'> {
  const note = `not fixed: the user said “${clip(said, 100)}”`;
  return {
    // The user's words last, where a cut title still keeps them.
    title: /^Tried: /.test(work.title)
      ? work.title
      : `Tried: ${clip(work.title, 90)} — the user: “${clip(said, 40)}”`,
    type: work.type === 'bugfix' ? 'change' : work.type,
    facts: work.facts.includes(note) ? work.facts : [...work.facts, note],
  };
}

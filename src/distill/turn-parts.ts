/**
 * One event, one story each: a gotcha of the turn (a run failed, the turn fixed it) and the work it
 * happened in (the commit the failing hook stopped, then let through) share the fix's files. The gotcha
 * tells the failure, its cause and its fix; the work memory tells the work — the assistant's words it
 * kept that the gotcha holds as its cause are taken out of it. The store links the two
 * (`app/turn-links.ts`).
 */
import type { ObservationDraft } from '../core/model.ts';
import { withoutSentences } from './narration.ts';
import { isWork } from './work-state.ts';

/** Words only: a sentence compared without markup, case or punctuation. */
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Whether a gotcha and a memory of work changed a file in common (the fix is part of the work). */
export function sameEvent(
  work: Pick<ObservationDraft, 'type' | 'subject' | 'filesModified'>,
  gotcha: Pick<ObservationDraft, 'type' | 'filesModified'>,
): boolean {
  if (gotcha.type !== 'gotcha' || !isWork(work)) return false;
  const files = new Set(work.filesModified);
  return gotcha.filesModified.some((f) => files.has(f));
}

/** The turn's memories with each work memory's narrative left without what a gotcha of its event tells. */
export function oneStoryEach(observations: readonly ObservationDraft[]): ObservationDraft[] {
  const gotchas = observations.filter((o) => o.type === 'gotcha');
  if (gotchas.length === 0) return [...observations];
  return observations.map((o) => {
    const told = gotchas
      .filter((g) => sameEvent(o, g))
      .flatMap((g) => g.facts.filter((f) => f.startsWith('cause: ')).map((f) => f.slice('cause: '.length)))
      .flatMap((cause) => cause.split(/(?<=[.!?:])\s+/))
      .map(words)
      .filter((s) => s.length >= 25);
    if (told.length === 0) return o;
    const narrative = withoutSentences(o.narrative, told, words);
    return narrative === o.narrative ? o : { ...o, narrative };
  });
}

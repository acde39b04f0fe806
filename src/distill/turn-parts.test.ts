import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../core/model.ts';
import { draftOf } from '../store/store.test-support.ts';
import { oneStoryEach, sameEvent } from './turn-parts.ts';

/** A bugfix draft (titled t) unless `extra` says otherwise. */
const draft = (extra: Partial<ObservationDraft>): ObservationDraft =>
  draftOf('t', { type: 'bugfix', ...extra });

describe('a gotcha and the work of its event, one story each', () => {
  const cause = 'Biome does not allow assignments inside expressions, so the loop has to be restructured.';
  const gotcha = draft({
    type: 'gotcha',
    title: '`git commit` fails: noAssignInExpressions',
    facts: [`cause: ${cause}`, 'changed: src/sse.ts (events)'],
    filesModified: ['src/sse.ts'],
  });
  const narrative = `Events that span chunks are kept whole now. ${cause} The parser is committed.`;

  it('takes the cause the gotcha tells out of the work on the same files', () => {
    const [work] = oneStoryEach([draft({ narrative, filesModified: ['src/sse.ts', 'README.md'] }), gotcha]);
    expect(work?.narrative).toBe('Events that span chunks are kept whole now. The parser is committed.');
  });

  it('leaves work on other files, and memories that are not work, as they are', () => {
    const other = draft({ narrative, filesModified: ['src/cart.ts'] });
    const fact = draft({ type: 'fact', narrative, filesModified: ['src/sse.ts'], subject: 'command:lint' });
    expect(oneStoryEach([other, fact, gotcha])).toEqual([other, fact, gotcha]);
    expect(sameEvent(other, gotcha)).toBe(false);
    expect(sameEvent(fact, gotcha)).toBe(false);
  });
});

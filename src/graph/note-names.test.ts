import { describe, expect, it } from 'vitest';
import { createNamer, preferredName, safeName } from './note-names.ts';

describe('note names', () => {
  it('cuts a long title between words and never ends a name on a separator', () => {
    const card =
      'Commands: test `mise run test` · lint `mise run lint` · format `mise run fmt` · build `mise run build`';
    const name = safeName(card);
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name).toBe('Commands test `mise run test` · lint `mise run lint` · format `mise run fmt`');
    expect(safeName('a → b → c → d', 6)).toBe('a → b');
    // A short title keeps what it ends on.
    expect(safeName('Use C++')).toBe('Use C++');
  });

  it('keeps names Obsidian accepts and unique in the vault, case-insensitively', () => {
    expect(safeName('fix: a/b [x] #1 "q"?')).toBe('fix a b x 1 q');
    expect(preferredName('memory', 'plan.md', 'obs_1')).toBe('plan.md (note)');
    const namer = createNamer(['Plan']);
    expect(namer.name('plan', 'obs_000001abcdef')).toBe('plan (abcdef)');
    expect(namer.name('plan', 'obs_000002abcdef')).toBe('plan (obs_000002abcdef)');
  });
});

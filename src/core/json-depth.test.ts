import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.ts';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":[1,2]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(nestsDeeperThan(`{"text":"${'['.repeat(500)}"}`, 4)).toBe(false);
    expect(nestsDeeperThan(`{"text":"a \\" [[[[[[ b"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBe(true);
  });

  it('ends a string at a quote after an even run of backslashes, not after an odd one', () => {
    expect(nestsDeeperThan(`{"a":"b\\\\","c":[[1]]}`, 2)).toBe(true); // "b\\" ends, then [[
    expect(nestsDeeperThan(`{"a":"b\\\\\\" [[1]]"}`, 2)).toBe(false); // \\\" is escaped
    expect(nestsDeeperThan(`{"a":"unterminated [[[[`, 2)).toBe(false);
  });

  it('answers as a character-at-a-time scan does, on any text', () => {
    // The scan before strings were skipped with indexOf: the reference.
    const reference = (text: string, max: number): boolean => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (c === 92) i++;
          else if (c === 34) inString = false;
        } else if (c === 34) inString = true;
        else if (c === 91 || c === 123) {
          if (++depth > max) return true;
        } else if (c === 93 || c === 125) depth--;
      }
      return false;
    };
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const alphabet = '[]{}"\\a';
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const length = next() % 40;
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      for (const max of [0, 1, 2, 3]) expect(nestsDeeperThan(text, max), text).toBe(reference(text, max));
    }
  });
});

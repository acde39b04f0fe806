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
});

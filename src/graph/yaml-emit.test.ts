import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { emitFrontmatter } from './yaml-emit.ts';

describe('frontmatter emitting', () => {
  it('reads back as the same values, whatever the strings hold', () => {
    const tricky = [
      'plain words',
      'a: colon',
      'ends with:',
      '# not a comment',
      'x #hash',
      '- dash',
      '[[Note]]',
      'true',
      'No',
      'null',
      '12',
      '1e5',
      '0x1f',
      '2026-11-23T06:54:38',
      ' padded ',
      'line\nbreak',
      'quote " and \\ backslash',
      "it's",
      'ünïcödé ✓',
      '',
      '@at',
      '`tick`',
      '{brace}',
      '%percent',
    ];
    const values = {
      id: 'obs_x',
      count: 3,
      pinned: true,
      empty: [],
      list: tricky,
      ...Object.fromEntries(tricky.map((t, i) => [`k${i}`, t])),
    };
    expect(parse(emitFrontmatter(values))).toEqual(values);
  });

  it('leaves out undefined values and writes nothing for nothing', () => {
    expect(emitFrontmatter({ a: 'x', b: undefined })).toBe('a: x\n');
    expect(emitFrontmatter({})).toBe('');
  });
});

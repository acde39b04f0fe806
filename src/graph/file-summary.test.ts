import { describe, expect, it } from 'vitest';
import { headerPurpose, summariseFile, topSymbols } from './file-summary.ts';

describe('file summaries', () => {
  it('reads the purpose from a header comment or docstring', () => {
    expect(
      headerPurpose(
        '/**\n * The store: every repository over one connection. SQL lives only here.\n */\nimport x;',
      ),
    ).toBe('The store: every repository over one connection. SQL lives only here.');
    expect(
      headerPurpose('#!/usr/bin/env python\n"""Load settings from disk.\n\nMore text."""\nimport os'),
    ).toBe('Load settings from disk.');
    expect(headerPurpose('// Build the bundles.\n// Two entry points.\nimport x')).toBe(
      'Build the bundles. Two entry points.',
    );
    expect(headerPurpose('import x from "y";\n/** not a header */')).toBe('');
  });

  it('lists what a file exports or defines at the top level', () => {
    const ts =
      'export function createStore() {}\nexport type Store = 1;\nfunction hidden() {}\nexport { a, b as c };\n';
    expect(topSymbols(ts, 'TypeScript')).toEqual(['createStore', 'Store', 'a', 'c']);
    expect(topSymbols('def load(p):\n  pass\nclass Config:\n  def inner(self): pass\n', 'Python')).toEqual([
      'load',
      'Config',
    ]);
  });

  it('counts lines and bytes and names the language', () => {
    const s = summariseFile('src/a.ts', Buffer.from('/** A. */\nexport const x = 1;\n'));
    expect(s).toEqual({ language: 'TypeScript', lines: 2, size: 30, purpose: 'A.', symbols: ['x'] });
  });
});

import { describe, expect, it } from 'vitest';
import { definedSymbols, enclosingSymbol, patchOldText, summariseEdit } from './code-symbols.ts';
import { cleanCompactSummary } from './compact-summary.ts';
import { dependencyEdits } from './dependency-edits.ts';
import { cleanPrompt, informativeSentence, isTrivialPrompt, relativePath } from './text.ts';

describe('definedSymbols', () => {
  it('reads definitions by language', () => {
    const ts = [
      'export default class Cart {',
      '  add(item: Item): void {',
      '    if (x) {',
      '    }',
      '  }',
      '}',
      'export const sum = (a: number, b: number): number => a + b;',
    ].join('\n');
    expect(definedSymbols(ts, 'cart.ts')).toEqual(['sum', 'Cart', 'add']);
    expect(
      definedSymbols('func (s *Server) Handle(w http.ResponseWriter) {\n}\ntype Server struct{}', 'a.go'),
    ).toEqual(['Handle', 'Server']);
    expect(
      definedSymbols('pub fn parse<T>(x: T) -> u8 {}\nlet f = |x| x;\nimpl Display for Token {}', 'a.rs'),
    ).toEqual(['parse', 'Token']);
    expect(
      definedSymbols(
        'defmodule App.Cart do\n  defp total(items), do: 1\n  Enum.map(xs, fn x -> x end)',
        'cart.ex',
      ),
    ).toEqual(['total', 'App.Cart']);
    expect(
      definedSymbols(
        'public class Foo {\n  private List<String> names(int n) throws IOException {\n  } else if (x) {',
        'Foo.java',
      ),
    ).toEqual(['Foo', 'names']);
    expect(definedSymbols('# comment\nclass A:\n    def m(self):\n        pass', 'a.py')).toEqual(['m', 'A']);
    expect(definedSymbols('# Title\n## Install\ntext', 'README.md')).toEqual(['Title', 'Install']);
    expect(definedSymbols('# not a heading in a shell script\nbuild() {\n}', 'x.sh')).toEqual(['build']);
    expect(definedSymbols('{\n  "scripts": {\n    "test": "vitest"\n  }\n}', 'package.json')).toEqual([
      'scripts',
    ]);
  });
});

describe('enclosingSymbol', () => {
  it('names the definition an edit sits in, not a sibling that ended above', () => {
    const py =
      'class A:\n    def m(self):\n        return 1\n\n    def n(self):\n        y = 2\n\nprint(A())\n';
    expect(enclosingSymbol(py, '        y = 2', 'a.py')).toBe('n');
    expect(enclosingSymbol(py, 'print(A())', 'a.py')).toBeNull();
  });

  it('uses the context lines of a structured patch when the file is not known', () => {
    const patch = [{ lines: [' export function add(a, b) {', '-  return a - b;', '+  return a + b;', ' }'] }];
    expect(summariseEdit('  return a - b;', '  return a + b;', 'math.js', patchOldText(patch))).toEqual({
      added: [],
      changed: ['add'],
      removed: [],
      renamed: null,
    });
  });
});

describe('dependencyEdits', () => {
  it('diffs whole package.json files exactly', () => {
    const before = JSON.stringify({
      dependencies: { a: '^1.0.0', b: '^1.0.0' },
      devDependencies: { c: '1' },
    });
    const after = JSON.stringify({ dependencies: { a: '^2.0.0' }, devDependencies: { c: '1', d: '^3' } });
    expect(dependencyEdits('package.json', { before: '', after: '' }, { before, after })).toEqual({
      added: ['d'],
      removed: ['b'],
      updated: ['a'],
    });
  });

  it('reads fragments of requirements.txt, Cargo.toml and go.mod', () => {
    expect(
      dependencyEdits('requirements.txt', { before: 'flask==2.0\n', after: 'flask==3.0\nrequests>=2\n' }),
    ).toEqual({
      added: ['requests'],
      removed: [],
      updated: ['flask'],
    });
    expect(
      dependencyEdits('Cargo.toml', {
        before: '',
        after: 'serde = { version = "1", features = ["derive"] }',
      }),
    ).toEqual({
      added: ['serde'],
      removed: [],
      updated: [],
    });
    expect(dependencyEdits('go.mod', { before: '', after: '\tgithub.com/pkg/errors v0.9.1' }).added).toEqual([
      'github.com/pkg/errors',
    ]);
    expect(dependencyEdits('src/app.ts', { before: '', after: '"a": "1.0.0"' }).added).toEqual([]);
  });
});

describe('text helpers', () => {
  it('unwraps slash commands and drops task notifications', () => {
    expect(
      cleanPrompt(
        '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts</command-args>',
      ),
    ).toBe('/review src/a.ts');
    expect(cleanPrompt('<task-notification>done</task-notification>')).toBe('');
    expect(isTrivialPrompt('ok, go ahead')).toBe(false);
    expect(isTrivialPrompt('Go ahead!')).toBe(true);
  });

  it('skips filler when picking a sentence, and makes paths relative', () => {
    expect(
      informativeSentence(
        'Excellent! Now I have all the information I need. The cache lives in src/cache.ts.',
        80,
      ),
    ).toBe('The cache lives in src/cache.ts.');
    expect(relativePath('/repo/src/a.ts', '/repo/')).toBe('src/a.ts');
    expect(relativePath('/repository/a.ts', '/repo')).toBe('/repository/a.ts');
    expect(relativePath('C:\\Users\\dev\\shop\\src\\a.ts', 'C:\\Users\\dev\\shop')).toBe('src\\a.ts');
    expect(relativePath('D:\\other\\b.ts', 'C:\\Users\\dev\\shop')).toBe('D:\\other\\b.ts');
    expect(relativePath('./a.ts', '/repo')).toBe('a.ts');
  });

  it('keeps only the summary of a compaction, in either form', () => {
    const transcriptForm =
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nAnalysis:\nthinking\n\nSummary:\n1. Primary Request: fix carts.\n\nPlease continue the conversation from where we left off without asking the user any further questions.';
    expect(cleanCompactSummary(transcriptForm)).toBe('1. Primary Request: fix carts.');
    expect(cleanCompactSummary('<analysis>x</analysis>\n<summary>Done: y.</summary>')).toBe('Done: y.');
  });
});

describe('a list file’s entries', () => {
  it('reads each line of an ignore file as an entry: an edit adds and removes entries, the rest is context', () => {
    const before = '# deps\n/node_modules/\n.DS_Store\n# @prisma/main is generated\n';
    const after = '# deps\n/node_modules/\n!node_modules/@prisma/\n.DS_Store\n';
    expect(summariseEdit(before, after, '/repo/.gitignore')).toEqual({
      added: ['!node_modules/@prisma/'],
      changed: [],
      removed: [],
      renamed: null,
    });
    expect(summariseEdit('dist\n', 'dist\n.env\n', 'docker/.dockerignore').added).toEqual(['.env']);
    expect(definedSymbols('# comment\n\nnode_modules/\n*.log\n', '.gitignore')).toEqual([
      'node_modules/',
      '*.log',
    ]);
  });
});

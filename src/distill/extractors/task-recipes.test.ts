import { describe, expect, it } from 'vitest';
import { extractTaskRecipes, taskRecipes } from './task-recipes.ts';
import { bash, tool } from './test-entries.test-support.ts';

const JUSTFILE = [
  '# Quality gate',
  'set shell := ["bash", "-c"]',
  'cov := "100"',
  '',
  'check: lint',
  '    cargo llvm-cov --fail-under-lines {{cov}}',
  '',
  'test:',
  '    cargo test',
  '',
  'lint:',
  '    @cargo clippy -- -D warnings',
  '    cargo fmt --check',
].join('\n');

const MAKEFILE = [
  '.PHONY: test',
  'CC ?= cc',
  'test: build',
  '\t-pytest -q',
  '',
  'build:',
  '\t@python -m build',
].join('\n');

describe('what a task runner runs', () => {
  it('reads recipes and targets with their command lines, not settings, assignments or special targets', () => {
    expect(taskRecipes(JUSTFILE)).toEqual([
      { name: 'check', commands: ['cargo llvm-cov --fail-under-lines {{cov}}'] },
      { name: 'test', commands: ['cargo test'] },
      { name: 'lint', commands: ['cargo clippy -- -D warnings', 'cargo fmt --check'] },
    ]);
    expect(taskRecipes(MAKEFILE)).toEqual([
      { name: 'test', commands: ['pytest -q'] },
      { name: 'build', commands: ['python -m build'] },
    ]);
  });

  it('states one fact per file the session printed or read, and nothing of other files or failed reads', () => {
    const out = extractTaskRecipes([
      bash('cat justfile', JUSTFILE),
      tool(
        'Read',
        { file_path: '/repo/Makefile' },
        MAKEFILE.split('\n')
          .map((l, i) => `     ${i + 1}→${l}`)
          .join('\n'),
      ),
      bash('cat README.md', JUSTFILE),
      bash('cat missing/justfile', 'cat: missing/justfile: No such file or directory', true),
    ]);
    expect(out.map((x) => [x.draft.title, x.draft.facts.slice(1)])).toEqual([
      [
        'Recipes of the justfile: check, test, lint',
        [
          '`just check` runs `cargo llvm-cov --fail-under-lines {{cov}}`',
          '`just test` runs `cargo test`',
          '`just lint` runs `cargo clippy -- -D warnings && cargo fmt --check`',
        ],
      ],
      [
        'Recipes of the Makefile: test, build',
        ['`make test` runs `pytest -q`', '`make build` runs `python -m build`'],
      ],
    ]);
    expect(out[0]?.draft.trust).toBe('repository');
  });
});

describe('a project that itself lives in a temp directory', () => {
  const write = (path: string) => tool('Write', { file_path: path, content: JUSTFILE }, 'File created');

  it('reads its recipes when the project root says the file is the project’s', () => {
    const root = '/tmp/tmpqwh7888i';
    expect(extractTaskRecipes([write(`${root}/Justfile`)], root).map((x) => x.draft.title)).toEqual([
      'Recipes of the Justfile: check, test, lint',
    ]);
  });

  it('still skips a justfile written to a temp directory outside the project', () => {
    expect(extractTaskRecipes([write('/tmp/scratch/Justfile')], '/home/dev/app')).toEqual([]);
    expect(extractTaskRecipes([write('/tmp/tmpqwh7888i/Justfile')])).toEqual([]);
  });
});

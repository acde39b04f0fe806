import { describe, expect, it } from 'vitest';
import { extractCiWorkflows } from './ci-workflow.ts';
import { tool } from './test-entries.test-support.ts';

const WORKFLOW = [
  'name: CI',
  '',
  'on:',
  '  push:',
  '    branches: [main]',
  '  pull_request:',
  '    branches: [main]',
  '',
  'jobs:',
  '  check:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - name: Checkout',
  '        uses: actions/checkout@v4',
  '      - uses: actions/setup-node@v4',
  '        with:',
  "          node-version: '20.x'",
  '      - run: npm ci',
  '      - name: Checks',
  '        run: npm run check',
  '      - name: Unused code',
  '        run: npm run audit:unused',
];
const numbered = (from: number, to: number) =>
  WORKFLOW.slice(from - 1, to)
    .map((l, i) => `${String(from + i).padStart(6)}→${l}`)
    .join('\n');

describe("the project's CI from its configuration", () => {
  it('states when CI runs, on what, and the commands it runs, from parts of the file read apart', () => {
    const path = '/repo/.github/workflows/ci.yml';
    const out = extractCiWorkflows([
      tool('Read', { file_path: path, offset: 1, limit: 12 }, numbered(1, 12)),
      tool('Read', { file_path: path, offset: 13, limit: 10 }, numbered(13, 22)),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]?.draft).toMatchObject({
      type: 'fact',
      title: 'CI (.github/workflows/ci.yml) runs `npm ci`, `npm run check`, `npm run audit:unused`',
      subject: 'env:ci:/repo/.github/workflows/ci.yml',
      trust: 'repository',
    });
    expect(out[0]?.draft.facts).toEqual([
      'source: /repo/.github/workflows/ci.yml',
      'on: push, pull_request (main)',
      'uses: node 20.x',
      'runs: `npm ci`',
      'runs: `npm run check`',
      'runs: `npm run audit:unused`',
    ]);
  });

  it('fits parts together by where the host says each read started (a transcript keeps the text unnumbered)', () => {
    const path = '/repo/.github/workflows/ci.yml';
    const part = (from: number, to: number) => {
      const e = tool(
        'Read',
        { file_path: path, offset: from, limit: to - from + 1 },
        WORKFLOW.slice(from - 1, to).join('\n'),
      );
      if (e.kind !== 'tool_call' || !e.result) throw new Error('fixture');
      e.result.structured = { type: 'text', startLine: from };
      return e;
    };
    const out = extractCiWorkflows([part(13, 22), part(1, 10)]);
    expect(out[0]?.draft.facts).toEqual(
      expect.arrayContaining([
        'on: push, pull_request (main)',
        'runs: `npm ci`',
        'runs: `npm run audit:unused`',
      ]),
    );
  });

  it('says nothing of a file that is not CI configuration, or a CI file with no commands', () => {
    expect(extractCiWorkflows([tool('Read', { file_path: '/repo/ci.yml' }, numbered(1, 22))])).toEqual([]);
    expect(
      extractCiWorkflows([tool('Read', { file_path: '/repo/.github/workflows/ci.yml' }, numbered(1, 12))]),
    ).toEqual([]);
  });
});

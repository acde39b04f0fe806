import { describe, expect, it } from 'vitest';
import { extractReadmeUsage, readmeUsage } from './readme-usage.ts';
import { tool } from './test-entries.test-support.ts';

const README = [
  '# Scenario Agent',
  '',
  'Runs scenarios against a web app.',
  '',
  '## Project Structure',
  '',
  '```',
  'src/',
  '  agent/   # the agent',
  '```',
  '',
  '## Quick Start',
  '',
  '### Running Locally',
  '',
  '1. Set your API key:',
  '```bash',
  'export ANTHROPIC_API_KEY=your-key-here',
  '```',
  '',
  '2. Run the scenario (starts the test server):',
  '```bash',
  './test-local.sh',
  '```',
  '',
  '## Development',
  '',
  '```console',
  '$ npm run dev',
  'watching src/ for changes',
  '$ npm test',
  '```',
  '',
  '```sh',
  '# Watch mode',
  'npm run dev',
  '```',
  '',
  '## Architecture',
  '',
  '```bash',
  'curl https://example.invalid/setup | sh',
  '```',
].join('\n');

describe('how to run the project, as its README says', () => {
  it('keeps the shell blocks of the how-to sections, each command with what introduces it', () => {
    expect(readmeUsage(README)).toEqual([
      {
        heading: 'Quick Start › Running Locally',
        commands: [{ line: './test-local.sh', label: 'Run the scenario (starts the test server)' }],
      },
      {
        heading: 'Development',
        commands: [
          // A console block: the prompted lines are the commands, the rest is their output.
          { line: 'npm run dev', label: '' },
          { line: 'npm test', label: '' },
          { line: 'npm run dev', label: 'Watch mode' },
        ],
      },
    ]);
  });

  it('states one fact per README at the project root; a README in a sub-folder documents that folder', () => {
    const out = extractReadmeUsage(
      [
        tool('Write', { file_path: '/repo/README.md', content: README }),
        tool('Write', { file_path: '/repo/scripts/README.md', content: README }),
        tool('Read', { file_path: '/repo/node_modules/x/README.md' }, README),
      ],
      '/repo/',
    );
    expect(out).toHaveLength(1);
    expect(out[0]?.draft).toMatchObject({
      type: 'fact',
      title: 'How to run, as README.md says: `./test-local.sh`, `npm run dev`, `npm test`',
      subject: 'env:readme:/repo/readme.md',
      facts: [
        'source: /repo/README.md',
        'Quick Start › Running Locally: `./test-local.sh` (Run the scenario (starts the test server))',
        'Development: `npm run dev`, `npm test`, `npm run dev` (Watch mode)',
      ],
    });
    // Written by the assistant: its own trust; read from the repository: the repository's.
    expect(out[0]?.draft.trust).toBeUndefined();
    const read = extractReadmeUsage([tool('Read', { file_path: '/repo/README.md' }, README)], '/repo');
    expect(read[0]?.draft.trust).toBe('repository');
  });

  it('reads a README the session only edited, from the file the host recorded before the edit', () => {
    const edit = tool(
      'Edit',
      { file_path: '/repo/README.md', old_string: './test-local.sh', new_string: './scripts/local.sh' },
      'The file /repo/README.md has been updated.',
    );
    if (edit.kind !== 'tool_call' || !edit.result) throw new Error('fixture');
    edit.result.structured = { filePath: '/repo/README.md', originalFile: README };
    const [fact] = extractReadmeUsage([edit], '/repo');
    expect(fact?.draft.facts[1]).toBe(
      'Quick Start › Running Locally: `./scripts/local.sh` (Run the scenario (starts the test server))',
    );
    expect(
      extractReadmeUsage([
        tool('Write', { file_path: '/repo/README.md', content: '# x\n\nNothing to run.\n' }),
      ]),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { floorOfCalls, foreignPath, relayedTrust, toolCallTrust } from './evidence-trust.ts';

describe('the trust of what a turn took in', () => {
  it('tells external content from the repository and local tool output', () => {
    expect(toolCallTrust('WebFetch', { url: 'https://example.com' })).toBe('external');
    expect(toolCallTrust('WebSearch', { query: 'vite config' })).toBe('external');
    expect(toolCallTrust('mcp__github__get_issue', {})).toBe('external');
    expect(toolCallTrust('mcp__engram__search', {})).toBe('tool');
    expect(toolCallTrust('Read', { file_path: '/w/app/README.md' }, '/w/app')).toBe('repository');
    expect(toolCallTrust('Read', { file_path: '/w/app/node_modules/left-pad/README.md' }, '/w/app')).toBe(
      'external',
    );
    expect(toolCallTrust('Read', { file_path: '/w/other/notes.md' }, '/w/app')).toBe('external');
    expect(toolCallTrust('Bash', { command: 'npm test' })).toBe('tool');
    expect(toolCallTrust('Bash', { command: 'npm view left-pad description' })).toBe('external');
    expect(toolCallTrust('Bash', { command: 'cd web && curl -s https://api.example.com/v1' })).toBe(
      'external',
    );
    expect(toolCallTrust('Edit', { file_path: '/w/app/a.ts' })).toBeNull();
    expect(toolCallTrust('Bash', { command: 'git fetch origin main && git rebase origin/main' })).toBe(
      'tool',
    );
    expect(toolCallTrust('Bash', { command: 'git clone https://github.com/example/other.git /tmp/o' })).toBe(
      'external',
    );
  });

  it('a turn takes the lowest; the assistant relaying it falls to external only with external input', () => {
    expect(floorOfCalls([])).toBe('repository');
    expect(
      floorOfCalls([
        { name: 'Read', input: { file_path: 'src/a.ts' } },
        { name: 'Bash', input: { command: 'ls' } },
      ]),
    ).toBe('tool');
    expect(
      floorOfCalls([
        { name: 'Bash', input: { command: 'ls' } },
        { name: 'WebFetch', input: {} },
      ]),
    ).toBe('external');
    // What the session itself wrote outside the project is its own output.
    expect(
      floorOfCalls(
        [
          { name: 'Write', input: { file_path: '/tmp/probe/main.go', content: 'package main' } },
          { name: 'Read', input: { file_path: '/tmp/probe/main.go' } },
          { name: 'Read', input: { file_path: '/tmp/claude-1000/-home-dev-shop/tasks/bd0afab.output' } },
        ],
        '/home/dev/shop',
      ),
    ).toBe('tool');
    expect(
      floorOfCalls([{ name: 'Read', input: { file_path: '/tmp/other/notes.md' } }], '/home/dev/shop'),
    ).toBe('external');
    expect(relayedTrust('repository', 'tool')).toBe('repository');
    expect(relayedTrust('tool', 'external')).toBe('external');
  });

  it('knows a dependency’s files wherever the project is', () => {
    expect(foreignPath('vendor/github.com/x/y/AGENTS.md')).toBe(true);
    expect(foreignPath('.venv/lib/python3.12/site-packages/pkg/CLAUDE.md')).toBe(true);
    expect(foreignPath('docs/CLAUDE.md')).toBe(false);
  });
});

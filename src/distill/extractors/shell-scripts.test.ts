import { describe, expect, it } from 'vitest';
import { extractShellScripts, scriptCommands } from './shell-scripts.ts';
import { tool } from './test-entries.test-support.ts';

const LOCAL = [
  '#!/bin/bash',
  '# Test the agent locally (without the container)',
  'set -e',
  'if [ -z "$API_KEY" ]; then',
  '  echo "Error: set API_KEY"',
  '  exit 1',
  'fi',
  'cd docker/todomvc/dist',
  'python3 -m http.server 8080 &',
  'SERVER_PID=$!',
  'sleep 2',
  'npm run dev -- \\',
  '  --scenario todomvc',
  'kill $SERVER_PID 2>/dev/null || true',
  '',
].join('\n');

describe('what the project’s own scripts run', () => {
  it('reads a script’s purpose and its command lines, continued lines joined, the plumbing left out', () => {
    expect(scriptCommands(LOCAL)).toEqual({
      purpose: 'Test the agent locally (without the container)',
      commands: [
        'cd docker/todomvc/dist',
        'python3 -m http.server 8080 &',
        'npm run dev -- --scenario todomvc',
      ],
    });
  });

  it('states one fact per script at the project’s root; scripts elsewhere are not its entry points', () => {
    const out = extractShellScripts(
      [
        tool('Write', { file_path: '/repo/test-local.sh', content: LOCAL }),
        tool('Write', { file_path: '/repo/.claude/scripts/probe.sh', content: LOCAL }),
        tool('Write', { file_path: '/tmp/try.sh', content: LOCAL }),
      ],
      '/repo',
    );
    expect(out.map((x) => x.draft.subject)).toEqual(['env:script:/repo/test-local.sh']);
    expect(out[0]?.draft).toMatchObject({
      type: 'fact',
      title:
        '`./test-local.sh` runs `cd docker/todomvc/dist`, `python3 -m http.server 8080 &`, `npm run dev -- --scenario todomvc`',
      facts: [
        'source: /repo/test-local.sh',
        'for: Test the agent locally (without the container)',
        'runs: `cd docker/todomvc/dist`',
        'runs: `python3 -m http.server 8080 &`',
        'runs: `npm run dev -- --scenario todomvc`',
      ],
    });
    expect(
      extractShellScripts(
        [tool('Write', { file_path: '/repo/noop.sh', content: '#!/bin/sh\nset -e\necho hi\n' })],
        '/repo',
      ),
    ).toEqual([]);
  });
});

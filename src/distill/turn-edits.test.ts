import { describe, expect, it } from 'vitest';
import { changedLines, turnEdit } from './turn-edits.ts';

describe('the lines a small edit wrote', () => {
  it('keeps the new lines of a whole-file rewrite that changed two of them', () => {
    const before = [
      '#!/usr/bin/env bash',
      'set -euo pipefail',
      'if [ "${LOCAL:-}" = "1" ]; then',
      '  exec go run "${CLAUDE_PROJECT_DIR}/cmd/main.go" "$@"',
      'fi',
      'exec tool "$@"',
    ].join('\n');
    const after = [
      '#!/usr/bin/env bash',
      'set -euo pipefail',
      "# fall back to the script's own directory",
      'DIR="${CLAUDE_PROJECT_DIR:-$(dirname "$0")/../..}"',
      'if [ "${LOCAL:-}" = "1" ]; then',
      '  exec go run "${DIR}/cmd/main.go" "$@"',
      'fi',
      'exec tool "$@"',
    ].join('\n');
    expect(changedLines(before, after)).toEqual([
      'DIR="${CLAUDE_PROJECT_DIR:-$(dirname "$0")/../..}"',
      'exec go run "${DIR}/cmd/main.go" "$@"',
    ]);
  });

  it('keeps none for a larger rewrite, a deletion, or a change to comments only', () => {
    const before = 'a = 1\nb = 2\nc = 3\nd = 4\n';
    expect(changedLines(before, 'a = 10\nb = 20\nc = 30\nd = 40\n')).toEqual([]);
    expect(changedLines(before, 'a = 1\nd = 4\n')).toEqual([]);
    expect(changedLines('x = 1\n', '// why x is one\nx = 1\n')).toEqual([]);
  });

  it('records the definitions an edit took out', () => {
    const before =
      'interface ChartData { a: number }\ninterface ChartOptions { b: string }\nexport const chart = 1;\n';
    const e = turnEdit('src/Chart.tsx', 3, [{ before, after: 'export const chart = 1;\n' }]);
    expect(e).toMatchObject({ deletion: true, lines: [], removed: ['ChartData', 'ChartOptions'] });
  });
});

import { describe, expect, it } from 'vitest';
import { findingSentence, informativeSentence, informativeText, withoutMessage } from './text.ts';

/** A subagent's report as they come: an opening that says nothing, a heading, then what it found. */
const REPORT =
  'Perfect! I now have a comprehensive understanding of the Python project. Let me provide you with a detailed summary:\n\n# Comprehensive Python Project Overview\n\n## Modules\n- `math_utils.py`: add, factorial (raises on negatives)\n- `list_utils.py`: flatten one level deep\n\nThe tests reach 100% line coverage through `just check`.';

describe('what a report says, without its opening and its headings', () => {
  it('picks the first sentence that says something, never a heading', () => {
    expect(informativeSentence(REPORT, 160)).toBe('add, factorial (raises on negatives)');
  });

  it('keeps the report from there on, its list items kept apart', () => {
    expect(informativeText(REPORT, 300)).toBe(
      '`math_utils.py`: add, factorial (raises on negatives); `list_utils.py`: flatten one level deep; The tests reach 100% line coverage through `just check`.',
    );
  });
});

describe('a finding in a report', () => {
  it('is a sentence of prose, not an inventory line of paths and labels', () => {
    const inventory = 'File: `/tmp/p/pyproject.toml`\nProject name: `python-utils`\nVersion: `0.1.0`';
    expect(findingSentence(inventory, 160)).toBe('');
    expect(
      findingSentence(
        `${inventory}\nThe tests import every module through src/__init__.py, so removing it breaks them.`,
        160,
      ),
    ).toBe('The tests import every module through src/__init__.py, so removing it breaks them.');
    // Where something must be shown, the first telling line still is.
    expect(informativeSentence(inventory, 160)).toBe('`/tmp/p/pyproject.toml`');
  });
});

describe('a command without the message it carries', () => {
  it('leaves a commit message out, whatever its quoting, and the rest of the command as it ran', () => {
    expect(
      withoutMessage('git commit -m "fix: implement robust SSE parsing - Replace brittle parsing"'),
    ).toBe('git commit -m "…"');
    expect(withoutMessage("git add . && git commit -qm 'wip: it works' && git push")).toBe(
      'git add . && git commit -qm "…" && git push',
    );
    expect(withoutMessage('git commit --message=release-1.2 --no-verify')).toBe(
      'git commit --message "…" --no-verify',
    );
    expect(withoutMessage('npm test -- --maxWorkers=2')).toBe('npm test -- --maxWorkers=2');
    // Only a git command's message: another command's `-m` is part of how it ran.
    expect(withoutMessage('python -m pytest tests/ && git commit -m "test: add"')).toBe(
      'python -m pytest tests/ && git commit -m "…"',
    );
    expect(withoutMessage('git -C ../lib commit -am "fix: x"')).toBe('git -C ../lib commit -am "…"');
  });
});

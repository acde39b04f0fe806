import { describe, expect, it } from 'vitest';
import { findingSentence, informativeSentence } from './text.ts';

/** A subagent's report as they come: an opening that says nothing, a heading, then what it found. */
const REPORT =
  'Perfect! I now have a comprehensive understanding of the Python project. Let me provide you with a detailed summary:\n\n# Comprehensive Python Project Overview\n\n## Modules\n- `math_utils.py`: add, factorial (raises on negatives)\n- `list_utils.py`: flatten one level deep\n\nThe tests reach 100% line coverage through `just check`.';

describe('what a report says, without its opening and its headings', () => {
  it('picks the first sentence that says something, never a heading', () => {
    expect(informativeSentence(REPORT, 160)).toBe('add, factorial (raises on negatives)');
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
    // A heading written in Title Case without `#` is a heading too.
    expect(
      findingSentence(
        'How `Tmux.list_panes/0` Works & Error Handling\n\nIf tmux is not installed, `System.cmd` raises an `ErlangError`, which the rescue turns into an error tuple.',
        160,
      ),
    ).toBe(
      'If tmux is not installed, `System.cmd` raises an `ErlangError`, which the rescue turns into an error tuple.',
    );
    // Where something must be shown, the first telling line still is.
    expect(informativeSentence(inventory, 160)).toBe('`/tmp/p/pyproject.toml`');
  });

  it("takes a listing's labelled fields for inventory even when their values are words, unless one closes as a sentence", () => {
    const fields = [
      '- **Latest Version:** 1.5.0 (released October 17, 2025)',
      '- **Rationale:** Patch updates will be included automatically',
      'Triggered by: `notify-session.sh` script on session creation',
    ].join('\n');
    expect(findingSentence(fields, 160)).toBe('');
    expect(
      findingSentence(`${fields}\nRoot cause: the exporter drops spans when the batch is full.`, 160),
    ).toBe('the exporter drops spans when the batch is full.');
  });
});

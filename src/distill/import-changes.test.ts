import { describe, expect, it } from 'vitest';
import { describeImportSwap, importChanges } from './import-changes.ts';

describe('an imported API swapped by a fix', () => {
  it('says which name replaced which, by module', () => {
    const swap = importChanges(
      "import { tool } from '@langchain/core/tools';\n",
      "import { DynamicStructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';\n",
    );
    expect(describeImportSwap(swap)).toBe(
      'use `DynamicStructuredTool` instead of `tool` (@langchain/core/tools); import `z` from zod',
    );
  });

  it('names a module brought in whole once, by the word the code uses (an Elixir alias, a Python import)', () => {
    const swap = importChanges(
      '  alias App.Services.Old\n',
      '  alias App.Services.Old\n  alias App.Services.Updates\n',
    );
    expect(describeImportSwap({ added: swap.added, removed: [{ name: 'x', from: 'y' }] })).toBe(
      'alias `App.Services.Updates`',
    );
    const py = importChanges('import os\n', 'import os\nimport json\n');
    expect(describeImportSwap({ added: py.added, removed: [{ name: 'x', from: 'y' }] })).toBe(
      'import `json`',
    );
    const ex = importChanges('', '  import Phoenix.ChannelTest\n');
    expect(describeImportSwap({ added: ex.added, removed: [{ name: 'x', from: 'y' }] })).toBe(
      'import `Phoenix.ChannelTest`',
    );
  });

  it('finds no swap when one edit took an alias out and a later one put it back', () => {
    const out = importChanges('  alias App.Services.Tmux\n', '');
    const back = importChanges('', '  alias App.Services.Tmux\n');
    expect(out.removed).toEqual([{ name: 'App.Services.Tmux', from: 'App.Services.Tmux', how: 'alias' }]);
    expect(
      describeImportSwap({
        added: [...out.added, ...back.added],
        removed: [...out.removed, ...back.removed],
      }),
    ).toBe('');
  });
});

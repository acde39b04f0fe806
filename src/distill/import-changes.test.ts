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

  it('names a module brought in whole once (an Elixir alias, a Python import)', () => {
    const swap = importChanges('  alias App.Services.Old\n', '  alias App.Services.Old\n  alias App.Services.Updates\n');
    expect(describeImportSwap({ added: swap.added, removed: [{ name: 'x', from: 'y' }] })).toBe(
      'import `App.Services.Updates`',
    );
  });

  it('finds no swap when one edit took an alias out and a later one put it back', () => {
    const out = importChanges('  alias App.Services.Tmux\n', '');
    const back = importChanges('', '  alias App.Services.Tmux\n');
    expect(out.removed).toEqual([{ name: 'App.Services.Tmux', from: 'App.Services.Tmux' }]);
    expect(
      describeImportSwap({
        added: [...out.added, ...back.added],
        removed: [...out.removed, ...back.removed],
      }),
    ).toBe('');
  });
});

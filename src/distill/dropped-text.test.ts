import { describe, expect, it } from 'vitest';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { droppedPairs, pairsOf, withoutDroppedClaims } from './dropped-text.ts';
import { abs, prompt, ROOT, stop, tool, turn } from './queued-events.test-support.ts';
import type { Narration } from './analyse-turn.ts';

const README = [
  '# Q2: recent swaps on the USDC/ETH pool',
  '',
  'Three places on Etherscan show them: the DEX Trades tab, the Events tab and the Transactions list.',
  'The Events tab is the raw Swap log of the pool.',
].join('\n');
const REWRITTEN = [
  '# Q2: recent swaps on the USDC/ETH pool',
  '',
  'Two places on Etherscan show them: the Events tab and the Transactions list.',
  'The Events tab is the raw Swap log of the pool.',
].join('\n');

/** A Write over an existing file, as Claude Code reports it (the file's text before in `originalFile`). */
const rewrite = (file: string, before: string, after: string) =>
  tool(
    'Write',
    { file_path: abs(file), content: after },
    { type: 'update', filePath: abs(file), content: after, structuredPatch: [], originalFile: before },
  );

describe('what a document stopped saying', () => {
  it('is the telling word pairs taken out and not written back', () => {
    expect(pairsOf('the DEX Trades tab, routed through 1inch v3')).toEqual(
      new Set(['dex trades', 'trades tab', 'routed through', 'through 1inch', '1inch v3']),
    );
    expect(droppedPairs(README, REWRITTEN).sort()).toEqual(['dex trades', 'three places', 'trades tab']);
    expect(droppedPairs('', README)).toEqual([]);
  });

  it("takes back an earlier memory's claims that name one, and never empties its narrative", () => {
    const memory = {
      facts: [
        'created q2/README.md (4 lines)',
        'commit says: Three Etherscan entry points (DEX Trades, Events, Transactions).',
        'commit says: Walks through the Swap event payload.',
      ],
      narrative: 'README lists the DEX Trades tab first. It walks through the Swap payload.',
    };
    expect(withoutDroppedClaims(memory, 'q2/README.md', new Set(['dex trades']))).toEqual({
      facts: [
        'created q2/README.md (4 lines)',
        'commit says: Walks through the Swap event payload.',
        'later in the session: q2/README.md no longer says “dex trades”',
      ],
      narrative: 'It walks through the Swap payload.',
    });
    expect(
      withoutDroppedClaims(
        { facts: [], narrative: 'Lists the DEX Trades tab.' },
        'q2/README.md',
        new Set(['dex trades']),
      )?.narrative,
    ).toBe('Lists the DEX Trades tab.');
    expect(withoutDroppedClaims(memory, 'q2/README.md', new Set(['swap log']))).toBeNull();
  });

  it("reports what a turn took out of a document only where the turn's words named it, never for code", () => {
    const distil = (narration: Narration[], ...events: Parameters<typeof turn>) =>
      createHeuristicDistiller().distilTurn({
        projectRoot: ROOT,
        events: turn(...events),
        previousSummary: null,
        narration,
      });
    const told = distil(
      [],
      prompt('There is no "DEX Trades" tab on Etherscan any more, fix the README'),
      rewrite('q2/README.md', README, REWRITTEN),
      stop('Removed it.'),
    );
    expect(told.droppedText).toEqual([{ path: 'q2/README.md', pairs: ['dex trades'] }]);
    // Reworded with nobody speaking of what went: it may still hold.
    const silent = distil(
      [],
      prompt('Tighten the README'),
      rewrite('q2/README.md', README, REWRITTEN),
      stop('Done.'),
    );
    expect(silent.droppedText ?? []).toEqual([]);
    // Code is told by its symbols, not by its words.
    const code = distil(
      [],
      prompt('Drop the DEX Trades parser'),
      rewrite(
        'src/trades.ts',
        'export const dexTrades = parseDexTrades(rows); // DEX Trades tab',
        'export {};',
      ),
      stop('Dropped.'),
    );
    expect(code.droppedText ?? []).toEqual([]);
  });
});

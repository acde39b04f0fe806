import { describe, expect, it } from 'vitest';
import type { CapturedEvent } from '../core/model.ts';
import { answerSubject } from './findings.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { bash, prompt, read, ROOT, stop, turn } from './queued-events.test-support.ts';

const discoveries = (...events: CapturedEvent[]) =>
  createHeuristicDistiller()
    .distilTurn({ projectRoot: ROOT, events: turn(...events), previousSummary: null })
    .observations.filter((o) => o.type === 'discovery');
const looked = [
  read(`${ROOT}/.env.devnet.local`, 'RPC_URL=https://devnet.example.test\n'),
  read(`${ROOT}/scripts/demo/buyer.js`, 'const signer = createDemoSigner();\n'),
  bash('node scripts/count-deposits.js', 'old vault: 129 deposits (2 failed)\nnew vault: 49 deposits'),
];

describe('the answer a look-only investigation ends with', () => {
  it('is kept as what the session found, under the session’s one answer subject', () => {
    const [found, ...more] = discoveries(
      prompt('how many times did the demo actually run?'),
      ...looked,
      stop(
        'Each demo signs with a fresh keypair, so every run makes exactly one deposit. The old vault has 129 successful deposits and the new one 49: 178 demo runs, plus 2 failed deposits that were retried.',
      ),
    );
    expect(more).toEqual([]);
    expect(found?.title).toBe(
      'Each demo signs with a fresh keypair, so every run makes exactly one deposit.',
    );
    expect(found?.narrative).toContain('178 demo runs');
    expect(found?.subject).toBe(answerSubject('sess-1'));
    // A hand-over to the user is no part of what was found.
    const [handed] = discoveries(
      prompt('does the app boot with the new models?'),
      ...looked,
      stop(
        'The app boots and both tables exist; a stale tmp/pids/server.pid had blocked the server until it was removed. Ready for Phase 4 whenever you want to start.',
      ),
    );
    expect(handed?.title).toBe(
      'The app boots and both tables exist; a stale tmp/pids/server.pid had blocked the server until it was removed.',
    );
    expect(handed?.narrative).not.toContain('Phase 4');
  });

  it('is no answer while the turn is still on its way or hands the question back', () => {
    const ending = (last: string) => discoveries(prompt('who are the competitors?'), ...looked, stop(last));
    expect(
      ending(
        'Zero property projects show up in the Solana ecosystem catalogs, so the space looks open there. Now let me do web research on the key competitors.',
      ),
    ).toEqual([]);
    expect(
      ending(
        'There are two ways to count: by deposits (178) or by settled batches (40), and they answer different questions about the demo. Which count do you want in the write-up?',
      ),
    ).toEqual([]);
  });
});

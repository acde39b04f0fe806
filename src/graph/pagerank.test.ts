import { describe, expect, it } from 'vitest';
import { personalisedPageRank } from './pagerank.ts';

describe('personalised PageRank', () => {
  it('sums to one and ranks the hub of the personalised nodes first', () => {
    const edges = [
      ['m1', 'hub', 1],
      ['m2', 'hub', 1],
      ['m3', 'hub', 1],
      ['m3', 'side', 1],
      ['old', 'far', 1],
    ] as const;
    const nodes = ['m1', 'm2', 'm3', 'hub', 'side', 'old', 'far'];
    const rank = personalisedPageRank(
      nodes,
      edges,
      new Map([
        ['m1', 1],
        ['m2', 1],
        ['m3', 1],
      ]),
    );
    const sum = [...rank.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 9);
    expect(rank.get('hub')).toBeGreaterThan(rank.get('side') as number);
    // Not reachable from the personalised memories: nothing flows there.
    expect(rank.get('far')).toBeCloseTo(0, 9);
  });

  it('moves with the personalisation', () => {
    const nodes = ['a', 'b', 'fa', 'fb'];
    const edges = [
      ['a', 'fa', 1],
      ['b', 'fb', 1],
    ] as const;
    const towardsA = personalisedPageRank(
      nodes,
      edges,
      new Map([
        ['a', 3],
        ['b', 1],
      ]),
    );
    expect(towardsA.get('fa')).toBeGreaterThan(towardsA.get('fb') as number);
    const towardsB = personalisedPageRank(
      nodes,
      edges,
      new Map([
        ['a', 1],
        ['b', 3],
      ]),
    );
    expect(towardsB.get('fb')).toBeGreaterThan(towardsB.get('fa') as number);
  });

  it('handles an empty graph and no personalisation', () => {
    expect(personalisedPageRank([], [], new Map()).size).toBe(0);
    const r = personalisedPageRank(['x', 'y'], [], new Map());
    expect(r.get('x')).toBeCloseTo(0.5, 9);
  });
});

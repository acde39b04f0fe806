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

  it('gives, to the last bit, what a walk over a list of neighbours per node gives', () => {
    // The walk as it was written first: the flat arrays must add the same terms in the same order.
    const byLists = (
      nodes: string[],
      edges: [string, string, number][],
      pull: Map<string, number>,
    ): Map<string, number> => {
      const n = nodes.length;
      const index = new Map(nodes.map((id, i) => [id, i]));
      const neighbours: { to: number; w: number }[][] = nodes.map(() => []);
      const strength = new Float64Array(n);
      for (const [a, b, w] of edges) {
        const i = index.get(a);
        const j = index.get(b);
        if (i === undefined || j === undefined || i === j || !(w > 0)) continue;
        neighbours[i]?.push({ to: j, w });
        neighbours[j]?.push({ to: i, w });
        strength[i] = (strength[i] as number) + w;
        strength[j] = (strength[j] as number) + w;
      }
      const jump = new Float64Array(n);
      let total = 0;
      for (const [id, w] of pull) {
        const i = index.get(id);
        if (i !== undefined && w > 0) {
          jump[i] = (jump[i] as number) + w;
          total += w;
        }
      }
      for (let i = 0; i < n; i++) jump[i] = (jump[i] as number) / total;
      let rank = Float64Array.from(jump);
      for (let iter = 0; iter < 100; iter++) {
        const next = new Float64Array(n);
        let dangling = 0;
        for (let i = 0; i < n; i++) {
          const r = rank[i] as number;
          const s = strength[i] as number;
          if (s === 0) {
            dangling += r;
            continue;
          }
          for (const { to, w } of neighbours[i] as { to: number; w: number }[])
            next[to] = (next[to] as number) + (0.85 * r * w) / s;
        }
        let delta = 0;
        for (let i = 0; i < n; i++) {
          const value = (next[i] as number) + (1 - 0.85 + 0.85 * dangling) * (jump[i] as number);
          delta += Math.abs(value - (rank[i] as number));
          next[i] = value;
        }
        rank = next;
        if (delta < 1e-10) break;
      }
      return new Map(nodes.map((id, i) => [id, rank[i] as number]));
    };
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const memories = Array.from({ length: 300 }, (_, i) => `m${i}`);
    const files = Array.from({ length: 80 }, (_, i) => `f${i}`);
    const edges: [string, string, number][] = [];
    for (const m of memories)
      for (let k = Math.floor(random() * 6); k > 0; k--)
        edges.push([m, files[Math.floor(random() * files.length)] as string, 1 + Math.floor(random() * 3)]);
    edges.push(['m1', 'm1', 1], ['m2', 'nowhere', 1], ['m3', 'f1', 0]);
    const pull = new Map(memories.filter(() => random() < 0.7).map((m) => [m, random() * 2]));
    const nodes = [...memories, ...files, 'lonely'];
    expect(personalisedPageRank(nodes, edges, pull)).toEqual(byLists(nodes, edges, pull));
  });
});

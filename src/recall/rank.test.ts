import { describe, expect, it } from 'vitest';
import { lexicalRelevance, pickDiverse, recencyFactor } from './rank.ts';

const DAY = 86_400_000;

describe('ranking', () => {
  it('decays with age towards a floor, never below it', () => {
    const now = 1_000 * DAY;
    expect(recencyFactor(now, { now })).toBe(1);
    expect(recencyFactor(now - 30 * DAY, { now })).toBeCloseTo(0.875, 5);
    expect(recencyFactor(now - 3_000 * DAY, { now })).toBeCloseTo(0.75, 5);
    expect(recencyFactor(now + DAY, { now })).toBe(1);
    expect(recencyFactor(now - 10 * DAY, { now, halfLifeDays: 10, recencyFloor: 0 })).toBeCloseTo(0.5, 5);
  });

  it('scores lexical relevance as coverage plus BM25 relative to the best candidate', () => {
    expect(lexicalRelevance(1, -8, -8)).toBe(2);
    expect(lexicalRelevance(0.5, -2, -8)).toBe(0.75);
    expect(lexicalRelevance(0.5, -2, 0)).toBe(0.5);
  });

  it('spreads picks over sessions without reordering a single session', () => {
    const scores = new Map([
      ['s1-a', 1],
      ['s1-b', 0.99],
      ['s1-c', 0.98],
      ['s2-a', 0.96],
    ]);
    const session = (id: string) => id.slice(0, 2);
    expect(pickDiverse(scores, session, 4, 1).map((p) => p.id)).toEqual(['s1-a', 's1-b', 's1-c', 's2-a']);
    expect(pickDiverse(scores, session, 2, 0.95).map((p) => p.id)).toEqual(['s1-a', 's2-a']);
    expect(pickDiverse(scores, () => null, 3, 0.5).map((p) => p.id)).toEqual(['s1-a', 's1-b', 's1-c']);
  });
});

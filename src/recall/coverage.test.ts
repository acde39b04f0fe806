import { describe, expect, it } from 'vitest';
import type { Observation } from '../core/model.ts';
import { coverageMatcher } from './coverage.ts';

const memory = (title: string, narrative: string, files: string[] = []): Observation =>
  ({
    title,
    subtitle: '',
    narrative,
    facts: [],
    concepts: [],
    filesModified: files,
    filesRead: [],
  }) as unknown as Observation;

describe('coverageMatcher', () => {
  const memories = [
    memory('Painted the studies', 'We were painting; she studied it.'),
    memory('Paintbrush', 'a repainted wall', ['src/paint.ts']),
    memory('Résumé parsing', 'Ünïcode words: café, naïve, ſtudy'),
    memory('Nothing here', 'unrelated text'),
  ];
  const queries = [
    ['paint', 'study'],
    ['Paint', 'STUDIES'],
    ['café', 'résumé'],
    ['paint.ts', 'src'],
    ['missing', 'paint'],
  ];
  const shares = () => queries.map((terms) => memories.map(coverageMatcher(terms)));

  it('counts word families and word boundaries', () => {
    const [first, upper, accents, path, missing] = shares();
    // The second memory holds paint only in its file path.
    expect(first).toEqual([1, 0.5, 0, 0]);
    expect(upper).toEqual(first);
    expect(accents).toEqual([0, 0, 1, 0]);
    expect(path).toEqual([0, 1, 0, 0]);
    expect(missing).toEqual([0.5, 0.5, 0, 0]);
  });

  it('gives the same shares whether a pattern is kept from earlier searches or compiled anew', () => {
    const before = shares();
    expect(shares()).toEqual(before);
    // Many other words go through: the kept patterns are let go and compiled again.
    for (let i = 0; i < 2500; i++) coverageMatcher([`word${i}`])(memories[0] as Observation);
    expect(shares()).toEqual(before);
  });
});

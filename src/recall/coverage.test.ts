import { describe, expect, it } from 'vitest';
import type { Observation } from '../core/model.ts';
import { coverageMatcher, termPattern, termTest } from './coverage.ts';

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

  it('weighs each word by its weight when given one (a rare word covers more of the query)', () => {
    const weighted = memories.map(coverageMatcher(['paint', 'study'], [1, 3]));
    expect(weighted).toEqual([1, 0.25, 0, 0]);
    expect(memories.map(coverageMatcher(['paint'], [0]))).toEqual([0, 0, 0, 0]);
  });

  it('gives the same shares whether a pattern is kept from earlier searches or compiled anew', () => {
    const before = shares();
    expect(shares()).toEqual(before);
    // Many other words go through: the kept patterns are let go and compiled again.
    for (let i = 0; i < 2500; i++) coverageMatcher([`word${i}`])(memories[0] as Observation);
    expect(shares()).toEqual(before);
  });
});

describe('termTest', () => {
  // The oracle is the whole pattern (`termPattern`), which termTest answers for without compiling it.
  const pieces = [
    'paint', 'painted', 'painting', 'paints', 'repaint', 'study', 'studies', 'studied', 'stud', 'ss',
    'test', 'tests', 'testing', 'tested', 'TEST', 'ts', 'src', 'run', 'running', 'runner', 'y', 'e', 'es',
    'ſtudy', 'ſ', 'K', 'İ', 'ı', 'é', 'e\u0301', '\u0345', '𝐀', '😀', '\uD800', '\uDC00', '_', '.', '/',
    '-', ' ', '\n', '2', '٣', 'x2', 'hash_batch', 'über', 'naïve', 'café',
  ];
  const terms = [
    'paint', 'Painting', 'study', 'STUDIES', 'test', 'ts', 'src', 'run', 'es', 'e2e', 'x2', 'k8s', 'ss',
    'hash_batch', 'café', 'über', 'ıd', 'ſtudy', 'kelvin', 'sky', 'stays', 'boss', 'yy',
  ];
  let seed = 0x2545f491;
  const next = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };

  it('answers exactly what the whole pattern answers', () => {
    const pairs = terms.map((term) => ({ term, fast: termTest(term), oracle: termPattern(term) }));
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + next(8) }, () => pieces[next(pieces.length)]).join(
        next(2) ? '' : ' ',
      );
      for (const variant of [text, text.toLowerCase()])
        for (const { term, fast, oracle } of pairs)
          expect(fast.test(variant), `${term} in ${JSON.stringify(variant)}`).toBe(oracle.test(variant));
    }
  });
});

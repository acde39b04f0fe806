import { describe, expect, it } from 'vitest';
import { countLinks, LINK_RE } from './vault-sync-state.ts';

describe('countLinks', () => {
  it('counts what LINK_RE matches, on every text', () => {
    const texts = [
      '',
      '[[a]]',
      '[[]]',
      '[[[a]]',
      '[[a]]]',
      '[[a]][[b]]',
      '[[a\nb]] [[c]]',
      '[[a]b]] [[c]]',
      '\\[\\[a\\]\\] [[b]]',
      '[[a',
      'x]]',
      '[[[[a]]]]',
      '[[a|b#c]] and [[d]',
    ];
    const alphabet = ['[', ']', 'a', '\n', ' ', '|', '\\'];
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      for (let k = Math.floor(next() * 24); k > 0; k--) t += alphabet[Math.floor(next() * alphabet.length)];
      texts.push(t);
    }
    for (const t of texts) expect([t, countLinks(t)]).toEqual([t, t.match(LINK_RE)?.length ?? 0]);
  });
});

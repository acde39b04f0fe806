import { describe, expect, it } from 'vitest';
import { identifierParts } from '../core/identifiers.ts';
import { buildFtsQuery, chunkShape, contentTerms, parseQuery, tokenize } from './fts-query.ts';

describe('buildFtsQuery', () => {
  it('keeps content words and drops stopwords', () => {
    expect(contentTerms('How do I fix the flaky validateToken test in src/auth.ts?')).toEqual([
      'fix',
      'flaky',
      'validatetoken',
      'test',
      'src',
      'auth',
      'ts',
    ]);
    expect(buildFtsQuery('the and of')).toBeNull();
    // What the tokenizer leaves of a contraction, and a question's function words, are not content.
    expect(contentTerms("langchain's tool() helper won't typecheck, what actually worked?")).toEqual([
      'langchain',
      'tool',
      'helper',
      'typecheck',
      'worked',
    ]);
  });

  it('keeps phrases, prefixes, paths and identifiers, and quotes everything', () => {
    expect(parseQuery('"token cache" refresh').fts).toBe('"token cache" OR "refresh"');
    expect(parseQuery('valid* src/auth/token.ts').fts).toBe('"valid"* OR "src" OR "auth" OR "token" OR "ts"');
    expect(parseQuery('src/auth/tok*').fts).toBe('"src auth tok"*');
    expect(parseQuery('parseConfigFile').fts).toBe('"parseconfigfile" OR "parse" OR "config" OR "file"');
    expect(parseQuery('snake_case_name').fts).toBe('"snake" OR "case" OR "name"');
    expect(parseQuery('snake_case_name').coverageTerms).toEqual(['snake_case_name']);
    expect(parseQuery('"unbalanced quote').fts).toBe('"unbalanced" OR "quote"');
    expect(parseQuery('a* OR NOT b').fts).toBeNull();
    expect(identifierParts('HTTPServer getX iPhone14Pro plain snake_case')).toEqual([
      'http',
      'server',
      'get',
      'phone14',
      'pro',
    ]);
  });
});

describe('ASCII text is read with ASCII patterns', () => {
  // Every ASCII character in every position of a few shapes, and text past ASCII for the other branch.
  const chars = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));
  const texts = [
    ...chars.flatMap((c) => [`a${c}b`, `${c}ab`, `ab${c}`, `${c}*`, `a${c}*`, `x.${c}1`, `${c}${c}_${c}`]),
    'src/auth/token.ts',
    'parse_config*',
    'Ünïcode-wörd.ts',
    'K-sign',
  ];
  it('splits words as the Unicode classes do', () => {
    for (const t of texts)
      expect(tokenize(t), JSON.stringify(t)).toEqual(
        [...t.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]).filter((w) => w.length <= 64),
      );
  });
  it('sees a prefix and a joined chunk as the Unicode classes do', () => {
    let prefixes = 0;
    let joined = 0;
    for (const t of texts) {
      const shape = chunkShape(t);
      expect(shape, JSON.stringify(t)).toEqual({
        prefix: /^[\p{L}\p{N}_][\p{L}\p{N}_./-]*\*$/u.test(t),
        joined: /[\p{L}\p{N}][./_-][\p{L}\p{N}]/u.test(t),
      });
      if (shape.prefix) prefixes++;
      if (shape.joined) joined++;
    }
    expect(prefixes).toBeGreaterThan(10);
    expect(joined).toBeGreaterThan(10);
  });
});

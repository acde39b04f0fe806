import { describe, expect, it } from 'vitest';
import { identifierParts } from '../core/identifiers.ts';
import { buildFtsQuery, contentTerms, parseQuery } from './fts-query.ts';

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

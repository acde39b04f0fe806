import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { createStore } from '../store/store.ts';
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

  it('never lets hostile input break an FTS5 query', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-fts-'));
    const store = createStore(openDatabase(join(dir, 'db')));
    const pid = projectIdFromKey('x');
    store.observations.insert({
      projectId: pid,
      sessionId: null,
      source: 'manual',
      createdAt: 1,
      provenance: [],
      draft: {
        type: 'fact',
        title: 'NEAR the parser',
        subtitle: '',
        narrative: 'quotes " and ( parens',
        facts: [],
        concepts: [],
        filesRead: [],
        filesModified: [],
      },
    });
    const hostile = [
      'NEAR(a b)',
      '"unbalanced',
      '((( parser',
      'title:parser',
      "'; DROP TABLE observations; --",
      'a* OR NOT b AND -c ^d',
      '😀 emoji 🚀 parser',
      'x'.repeat(10_000),
      '"" \\ ` {} [] * : ^ -',
    ];
    for (const q of hostile) {
      const fts = buildFtsQuery(q);
      expect(() => (fts ? store.observations.search(fts, pid, 5) : [])).not.toThrow();
    }
    expect(store.observations.search(buildFtsQuery('((( parser') as string, pid, 5)).toHaveLength(1);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

import { describe, expect, it } from 'vitest';
import { EngramError, ERROR_TABLE, hintOf, isEngramError, mappingOf } from './errors.ts';

describe('errors', () => {
  it('maps every code to an exit code, an HTTP status and a hint', () => {
    for (const [code, m] of Object.entries(ERROR_TABLE)) {
      expect(Number.isInteger(m.exit) && m.exit > 0, code).toBe(true);
      expect(m.http >= 400 && m.http < 600, code).toBe(true);
      expect(m.hint.length, code).toBeGreaterThan(10);
    }
    expect(mappingOf(new EngramError('INPUT_INVALID', 'x'))).toMatchObject({ exit: 2, http: 400 });
    expect(mappingOf(new EngramError('NOT_FOUND', 'x'))).toMatchObject({ exit: 1, http: 404 });
  });

  it('recognises an error from another bundle by its brand, not by instanceof', () => {
    // What an EngramError thrown in dist/llm.mjs looks like to dist/cli.mjs: another class, same brand.
    const foreign = Object.assign(new Error('boom'), {
      code: 'LLM_HTTP',
      status: 503,
      [Symbol.for('engram.error')]: true,
    });
    expect(foreign instanceof EngramError).toBe(false);
    expect(isEngramError(foreign)).toBe(true);
    expect(isEngramError(foreign, 'LLM_HTTP')).toBe(true);
    expect(isEngramError(foreign, 'NOT_FOUND')).toBe(false);
    expect(isEngramError(new Error('plain'))).toBe(false);
    expect(isEngramError({ code: 'NOT_FOUND' })).toBe(false);
  });

  it('keeps an upstream HTTP status as data, and never tells a caller to check its arguments for an internal fault', () => {
    expect(new EngramError('LLM_HTTP', 'refused', { status: 429 }).status).toBe(429);
    const internal = hintOf(new TypeError('x is undefined'));
    expect(internal).not.toMatch(/argument/i);
    expect(internal).toMatch(/engram/);
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(mappingOf(busy)).toMatchObject({ code: 'STORE_BUSY', exit: 75, http: 503 });
    expect(hintOf(new EngramError('NOT_FOUND', 'x', { hint: 'Own hint.' }))).toBe('Own hint.');
  });
});

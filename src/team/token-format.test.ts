import { describe, expect, it } from 'vitest';
import { scrubTextWithCount } from '../core/scrub.ts';
import { isWellFormedToken, newToken, tokenHash } from './token-format.ts';

describe('team tokens', () => {
  it('are prefixed, checksummed and unique', () => {
    const tokens = Array.from({ length: 200 }, newToken);
    expect(new Set(tokens).size).toBe(200);
    for (const t of tokens) {
      expect(t).toMatch(/^egr_[0-9A-Za-z]{36}$/);
      expect(isWellFormedToken(t)).toBe(true);
    }
  });

  it('reject a changed character, a wrong prefix and a wrong length', () => {
    const t = newToken();
    const last = t.at(-1) === 'a' ? 'b' : 'a';
    const middle = t[10] === 'Q' ? 'R' : 'Q';
    expect(isWellFormedToken(t.slice(0, -1) + last)).toBe(false);
    expect(isWellFormedToken(t.slice(0, 10) + middle + t.slice(11))).toBe(false);
    expect(isWellFormedToken(`egs_${t.slice(4)}`)).toBe(false);
    expect(isWellFormedToken(t.slice(0, -2))).toBe(false);
  });

  it('are stored as SHA-256 hex', () => {
    const t = newToken();
    expect(tokenHash(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(t)).not.toContain(t.slice(4));
  });

  it('are recognised by engram’s own scrubber, wherever they appear', () => {
    const t = newToken();
    for (const text of [`export ENGRAM_TEAM=${t}`, `curl -H "x: ${t}" https://h`, `token ${t}.`, t]) {
      const out = scrubTextWithCount(text);
      expect(out.text, text).not.toContain(t);
      expect(out.text, text).toContain('[REDACTED:');
    }
    expect(scrubTextWithCount(`see ${t} here`).text).toBe('see [REDACTED:engram-token] here');
  });
});

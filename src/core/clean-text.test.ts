import { describe, expect, it } from 'vitest';
import { cleanText, hasControlText } from './clean-text.ts';

describe('cleanText', () => {
  it('removes NUL and the other C0/C1 controls, keeps line feeds and tabs', () => {
    expect(cleanText('psql: \u0000could not connect')).toBe('psql: could not connect');
    expect(cleanText('a\u0007b\u0008c\u000bd\u000ce\u007ff\u0085g\u009fh')).toBe('abcdefgh');
    expect(cleanText('col1\tcol2\nnext')).toBe('col1\tcol2\nnext');
  });

  it('turns carriage returns into line feeds (CRLF into one)', () => {
    expect(cleanText('one\r\ntwo\rthree')).toBe('one\ntwo\nthree');
  });

  it('drops ANSI colour and cursor sequences whole, leaving no debris', () => {
    const jest = '\u001b[1m\u001b[31mFAIL\u001b[39m\u001b[22m src/cart.test.ts\u001b[2K\u001b[1G';
    expect(cleanText(jest)).toBe('FAIL src/cart.test.ts');
    expect(cleanText('\u001b]0;title\u0007prompt$ ls')).toBe('prompt$ ls');
    expect(cleanText('\u001b]8;;https://x.test\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
  });

  it('replaces lone surrogates and keeps well-formed pairs', () => {
    expect(cleanText('bad \ud800 half')).toBe('bad \ufffd half');
    expect(cleanText('bad \udc00 half')).toBe('bad \ufffd half');
    expect(cleanText('emoji 🎉 ok')).toBe('emoji 🎉 ok');
  });

  it('returns clean text unchanged (the same string) and says what needs cleaning', () => {
    const text = 'Build with `npm run build`; tests in test/, UTF-8: é ü 中文 🎉';
    expect(cleanText(text)).toBe(text);
    expect(hasControlText(text)).toBe(false);
    expect(hasControlText('x\u0000y')).toBe(true);
    expect(hasControlText('🎉')).toBe(false);
  });
});

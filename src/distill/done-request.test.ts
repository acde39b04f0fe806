import { describe, expect, it } from 'vitest';
import { doneFromRequest } from './done-request.ts';

describe('a request said as done', () => {
  it('turns an imperative request for a change into what is now done', () => {
    expect(doneFromRequest('Document the release process in RELEASING.md')).toBe(
      'Documented the release process in RELEASING.md',
    );
    expect(doneFromRequest('please add a retry with backoff to the webhook sender.')).toBe(
      'Added a retry with backoff to the webhook sender',
    );
    expect(doneFromRequest('Pin the node version in .nvmrc')).toBe('Pinned the node version in .nvmrc');
    // A slash command's arguments are what was asked.
    expect(doneFromRequest('/orchestrator create TODO app by Next.js')).toBe('Created TODO app by Next.js');
    expect(doneFromRequest('Cache the product list for 60 seconds')).toBe(
      'Cached the product list for 60 seconds',
    );
    expect(doneFromRequest('Write the README intro. Then commit.')).toBe('Wrote the README intro');
    expect(doneFromRequest('Fix the flaky login test')).toBe('Fixed the flaky login test');
    expect(doneFromRequest('Simplify the parser')).toBe('Simplified the parser');
  });

  it('leaves questions, remarks and approvals alone', () => {
    for (const text of [
      'did you push?',
      'how do I run the lint here?',
      'looks good',
      'ok',
      'the build is slow',
      'Add',
    ])
      expect(doneFromRequest(text), text).toBe('');
  });
});

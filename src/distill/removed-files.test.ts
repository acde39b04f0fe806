import { describe, expect, it } from 'vitest';
import { removedPaths } from './removed-files.ts';

describe('files a shell line removed', () => {
  it('reads rm, git rm and unlink, leaving flags, globs and variables out', () => {
    expect(removedPaths('rm -f docs/a.md ./docs/b.md && git rm -q old.ts; unlink tmp.sock')).toEqual([
      'docs/a.md',
      'docs/b.md',
      'old.ts',
      'tmp.sock',
    ]);
    expect(removedPaths('rm -rf /tmp/hook-from-settings*.txt "$DIR"')).toEqual([]);
    expect(removedPaths('git status && ls docs')).toEqual([]);
  });
});

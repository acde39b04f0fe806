import { describe, expect, it } from 'vitest';
import { movedPaths, removedPaths, userRemovedFiles } from './removed-files.ts';

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
    // Untracked, not removed: the file stays on disk.
    expect(removedPaths('git rm --cached .env && echo .env >> .gitignore')).toEqual([]);
  });

  it('reads renames: one source and its new name, or the folder it moved into', () => {
    expect(movedPaths('mv docker/Dockerfile docker/Containerfile && git mv -k ./a.ts src/')).toEqual([
      { from: 'docker/Dockerfile', to: 'docker/Containerfile' },
      { from: 'a.ts', to: 'src/a.ts' },
    ]);
    expect(movedPaths('mv old/notes.md .')).toEqual([{ from: 'old/notes.md', to: 'notes.md' }]);
    // Several sources, a glob, a variable, a target folder given first: no rename that can be told.
    expect(movedPaths('mv a.ts b.ts lib/')).toEqual([]);
    expect(movedPaths('mv *.log logs/ ; mv "$OLD" new.txt; mv -t lib a.ts')).toEqual([]);
    expect(movedPaths('git status && echo mv a b')).toEqual([]);
  });

  it('reads the files of the session the user says they removed themselves', () => {
    const known = [
      '.claude/scripts/entire-wrapper.sh',
      'docs/local-development.md',
      'docs/hook-wrapper-migration.md',
      'docs/SETUP-LOCAL-DEV.md',
      '.env.example',
      'cmd/entire/cli/agent/claudecode/hooks.go',
    ];
    expect(
      userRemovedFiles(
        'I removed the new docs files, but wondering now would `.env` actually just work?',
        known,
      ),
    ).toEqual(['docs/local-development.md', 'docs/hook-wrapper-migration.md', 'docs/SETUP-LOCAL-DEV.md']);
    expect(userRemovedFiles("I've deleted .env.example and the wrapper", known)).toEqual(['.env.example']);
    expect(userRemovedFiles('I just deleted entire-wrapper.sh.', known)).toEqual([
      '.claude/scripts/entire-wrapper.sh',
    ]);
    // Not the user's own past removal, or nothing of the session's files named.
    expect(userRemovedFiles('should I remove the docs files?', known)).toEqual([]);
    expect(userRemovedFiles("I haven't removed the docs yet", known)).toEqual([]);
    expect(userRemovedFiles('you removed the docs files', known)).toEqual([]);
    expect(userRemovedFiles('I removed it', known)).toEqual([]);
    expect(userRemovedFiles('I removed the tests folder', known)).toEqual([]);
    // Not said to be files: a test case, a paragraph.
    expect(userRemovedFiles('I removed the docs', known)).toEqual([]);
    // One file named by words two files fit: which one is not known.
    expect(userRemovedFiles('I removed the wrapper file', known)).toEqual([]);
    expect(userRemovedFiles('I removed the migration file', known)).toEqual([
      'docs/hook-wrapper-migration.md',
    ]);
  });
});

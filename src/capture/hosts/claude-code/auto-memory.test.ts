import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autoMemoryFile, loadedAutoMemory } from './auto-memory.ts';

describe('Claude Code’s auto memory file', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = mkdtempSync(join(tmpdir(), 'engram-automem-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is under ~/.claude/projects/<root, non-alphanumerics as ->/memory/, or $CLAUDE_CONFIG_DIR', () => {
    const home = temp();
    const root = join(temp(), 'my_app.v2');
    mkdirSync(join(root, '.git'), { recursive: true });
    const folder = root.replace(/[^a-zA-Z0-9]/g, '-');
    expect(autoMemoryFile(root, { HOME: home })).toBe(
      join(home, '.claude', 'projects', folder, 'memory', 'MEMORY.md'),
    );
    const config = temp();
    expect(autoMemoryFile(root, { HOME: home, CLAUDE_CONFIG_DIR: config })).toBe(
      join(config, 'projects', folder, 'memory', 'MEMORY.md'),
    );
  });

  it('is the main checkout’s for a worktree, and the folder the user’s settings name when they do', () => {
    const home = temp();
    const main = join(temp(), 'repo');
    mkdirSync(join(main, '.git', 'worktrees', 'feature'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
    const worktree = join(temp(), 'feature');
    mkdirSync(worktree);
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'feature')}\n`);
    expect(autoMemoryFile(worktree, { HOME: home })).toBe(
      join(home, '.claude', 'projects', main.replace(/[^a-zA-Z0-9]/g, '-'), 'memory', 'MEMORY.md'),
    );

    mkdirSync(join(home, '.claude'));
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ autoMemoryDirectory: '~/notes/mem' }),
    );
    expect(autoMemoryFile(worktree, { HOME: home })).toBe(join(home, 'notes', 'mem', 'MEMORY.md'));
  });

  it('is not loaded when Claude Code’s auto memory is turned off', () => {
    const home = temp();
    expect(loadedAutoMemory('/srv/app', { HOME: home })).toHaveLength(1);
    expect(loadedAutoMemory('/srv/app', { HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })).toEqual([]);
  });
});

import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendTold, pruneTold, readTold } from './told-ledger.ts';

describe('told ledger', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-told-'));
    dirs.push(dir);
    return join(dir, 'told');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('remembers, per session, every id appended (the directory is made on first use, 0700/0600)', () => {
    const dir = fresh();
    expect(readTold(dir, 'sess-1').size).toBe(0);
    appendTold(dir, 'sess-1', ['obs_a', 'obs_b']);
    appendTold(dir, 'sess-1', ['obs_c']);
    appendTold(dir, 'sess-2', ['obs_z']);
    expect([...readTold(dir, 'sess-1')].sort()).toEqual(['obs_a', 'obs_b', 'obs_c']);
    expect([...readTold(dir, 'sess-2')]).toEqual(['obs_z']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'sess-1.ids')).mode & 0o777).toBe(0o600);
  });

  it('never lets a session id name a path outside its directory', () => {
    const dir = fresh();
    appendTold(dir, '../../escape', ['obs_a']);
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^h-[0-9a-f]{16}\.ids$/);
    expect([...readTold(dir, '../../escape')]).toEqual(['obs_a']);
  });

  it('prunes only the files not touched since the cut-off', () => {
    const dir = fresh();
    appendTold(dir, 'old', ['obs_a']);
    appendTold(dir, 'new', ['obs_b']);
    const dayAgo = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(join(dir, 'old.ids'), dayAgo, dayAgo);
    expect(pruneTold(dir, Date.now() - 86_400_000)).toBe(1);
    expect(readTold(dir, 'old').size).toBe(0);
    expect([...readTold(dir, 'new')]).toEqual(['obs_b']);
    expect(pruneTold(join(dir, 'missing'), Date.now())).toBe(0);
  });
});

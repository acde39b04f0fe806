import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  foreignPath,
  namesRoot,
  isProjectCaptured,
  normaliseRemoteUrl,
  parseGitConfig,
  resolveProject,
} from './project-identity.ts';
import { isLocalPathRemote } from '../core/remote-url.ts';

describe('normaliseRemoteUrl', () => {
  it.each([
    'git@github.com:Acme/Widget.git',
    'https://github.com/acme/widget.git',
    'https://user:pw@github.com/acme/widget/',
    'ssh://git@github.com:22/acme/widget.git',
    'ssh://git@github.com/acme/widget',
    'git://github.com/acme/widget.git',
  ])('%s → github.com/acme/widget', (url) => {
    expect(normaliseRemoteUrl(url)).toBe('github.com/acme/widget');
  });

  it('keeps different repositories apart', () => {
    expect(normaliseRemoteUrl('git@github.com:acme/widget.git')).not.toBe(
      normaliseRemoteUrl('git@github.com:acme/gadget.git'),
    );
  });
});

describe('isLocalPathRemote', () => {
  it.each([
    '/srv/git/shop.git',
    '../shop',
    './shop.git',
    '~/repos/shop',
    'file:///srv/git/shop.git',
    'C:\\repos\\shop',
  ])('%s is a path on this machine', (url) => expect(isLocalPathRemote(url)).toBe(true));
  it.each([
    'git@github.com:acme/shop.git',
    'https://github.com/acme/shop',
    'ssh://git@host:22/a/b.git',
    'host:a/b',
  ])('%s is a remote', (url) => expect(isLocalPathRemote(url)).toBe(false));
});

describe('parseGitConfig', () => {
  it('reads remotes and the engram.project override', () => {
    const cfg = parseGitConfig(
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@host:a/b.git\n\tfetch = +refs/heads/*\n[remote "up"]\n url = https://x/y\n[engram]\n\tproject = my-name\n',
    );
    expect(cfg.remotes.get('origin')).toBe('git@host:a/b.git');
    expect(cfg.remotes.get('up')).toBe('https://x/y');
    expect(cfg.engramProject).toBe('my-name');
  });
});

describe('resolveProject', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-pid-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function repo(name: string, remote: string | null): string {
    const root = join(dir, name);
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    writeFileSync(
      join(root, '.git', 'config'),
      remote ? `[remote "origin"]\n\turl = ${remote}\n` : '[core]\n',
    );
    return root;
  }

  it('gives ssh and https clones of one repository the same project, from any subdirectory', () => {
    const a = resolveProject(join(repo('a', 'git@github.com:acme/widget.git'), 'src', 'deep'));
    const b = resolveProject(repo('b', 'https://github.com/acme/widget'));
    expect(a.id).toBe(b.id);
    expect(a.name).toBe('widget');
    expect(a.root).toBe(join(dir, 'a'));
  });

  it('gives worktrees of a repository without a remote the same project (git common dir)', () => {
    const main = repo('main', null);
    const wt = join(dir, 'wt');
    const wtGitDir = join(main, '.git', 'worktrees', 'wt');
    mkdirSync(wtGitDir, { recursive: true });
    writeFileSync(join(wtGitDir, 'commondir'), '../..\n');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${wtGitDir}\n`);
    const p1 = resolveProject(main);
    const p2 = resolveProject(wt);
    expect(p2.id).toBe(p1.id);
    expect(p2.root).toBe(wt);
    expect(p1.key.startsWith('gitdir:')).toBe(true);
  });

  it('falls back to the directory outside git, and separates directories', () => {
    const x = join(dir, 'x');
    const y = join(dir, 'y');
    mkdirSync(x);
    mkdirSync(y);
    expect(resolveProject(x).id).not.toBe(resolveProject(y).id);
    expect(resolveProject(x).key).toBe(`path:${x}`);
  });

  it('honours the user’s git config engram.project, and a repository’s .engram.json only once confirmed', () => {
    const root = repo('o', 'git@github.com:acme/widget.git');
    writeFileSync(join(root, '.engram.json'), JSON.stringify({ project: 'payments-secrets' }));
    // A cloned repository cannot join another project's memory on its own say-so.
    const untrusted = resolveProject(root);
    expect(untrusted).toMatchObject({ key: 'git:github.com/acme/widget', pendingLink: 'payments-secrets' });
    const links = () => ({ 'git:github.com/acme/widget': 'payments-secrets' });
    expect(resolveProject(root, links)).toMatchObject({
      name: 'payments-secrets',
      key: 'name:payments-secrets',
    });
    expect(resolveProject(root, () => ({ 'git:github.com/other/repo': 'payments-secrets' })).key).toBe(
      'git:github.com/acme/widget',
    );
    // The user's own git config is trusted (never committed with the repository).
    writeFileSync(join(root, '.git', 'config'), '[engram]\n\tproject = shared-name\n');
    expect(resolveProject(root)).toMatchObject({ name: 'shared-name', key: 'name:shared-name' });
    expect(
      resolveProject(root, () => ({ [`gitdir:${realpathSync(join(root, '.git'))}`]: 'payments-secrets' }))
        .name,
    ).toBe('payments-secrets');
  });

  it('never throws on a broken .git file', () => {
    const root = join(dir, 'broken');
    mkdirSync(root);
    writeFileSync(join(root, '.git'), 'not a pointer');
    expect(resolveProject(root).key).toBe(`path:${root}`);
  });
});

describe('isProjectCaptured', () => {
  const project = { id: 'prj_1' as never, name: 'widget', key: 'k', root: '/home/u/work/widget' };
  it('applies exclude before include, by id, name or path prefix', () => {
    expect(isProjectCaptured(project, { include: [], exclude: [] })).toBe(true);
    expect(isProjectCaptured(project, { include: [], exclude: ['widget'] })).toBe(false);
    expect(isProjectCaptured(project, { include: [], exclude: ['/home/u/work'] })).toBe(false);
    expect(isProjectCaptured(project, { include: [], exclude: ['/home/u/wo'] })).toBe(true);
    expect(isProjectCaptured(project, { include: ['prj_1'], exclude: [] })).toBe(true);
    expect(isProjectCaptured(project, { include: ['other'], exclude: [] })).toBe(false);
  });
});

describe('paths of another operating system', () => {
  it('keeps a Windows working directory as it was, never resolved against the local directory', () => {
    const p = resolveProject('C:\\Users\\dev\\projects\\shop\\');
    expect(p.root).toBe('C:\\Users\\dev\\projects\\shop');
    expect(p.name).toBe('shop');
    expect(p.key).toBe('path:C:\\Users\\dev\\projects\\shop');
    expect(p.root.startsWith(process.cwd())).toBe(false);
    expect(foreignPath('/home/dev/shop')).toBeNull();
    expect(foreignPath('C:\\x', 'win32')).toBeNull();
    expect(foreignPath('\\\\server\\share\\repo')?.name).toBe('repo');
  });

  it('finds such a root by the path typed either way: either slash, any case, a trailing separator', () => {
    const root = 'c:\\Users\\vassa\\dev\\will-it-rain';
    for (const typed of ['c:/Users/vassa/dev/will-it-rain', 'C:\\Users\\vassa\\dev\\will-it-rain\\', root])
      expect(namesRoot(root, typed, '/home/me')).toBe(true);
    expect(namesRoot(root, 'c:/Users/vassa/dev/other', '/home/me')).toBe(false);
    // A root of this system is found by the path resolved against where the command runs.
    expect(namesRoot('/home/me/shop', 'shop', '/home/me')).toBe(true);
    expect(namesRoot('/home/me/shop', 'SHOP', '/home/me')).toBe(false);
  });
});

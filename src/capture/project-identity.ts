/**
 * Project identity: the normalised git remote URL (every clone of a repo, on any machine, is one
 * project), else the git common dir (worktrees of one repo are one project), else the directory.
 * Reads git's files directly instead of spawning git: this runs inside every hook.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { projectIdFromKey } from '../core/ids.ts';
import { normaliseRemoteUrl } from '../core/remote-url.ts';
import type { Project, ProjectIdentity, ProjectLinks } from '../core/model.ts';

export { normaliseRemoteUrl };

export interface GitConfig {
  remotes: Map<string, string>;
  engramProject: string | null;
}

/** A small reader for the parts of git's INI config engram needs. */
export function parseGitConfig(text: string): GitConfig {
  const remotes = new Map<string, string>();
  let engramProject: string | null = null;
  let section = '';
  let subsection = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (header) {
      section = (header[1] ?? '').toLowerCase();
      subsection = header[2] ?? '';
      continue;
    }
    const kv = /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = (kv[1] ?? '').toLowerCase();
    const value = (kv[2] ?? '').replace(/^"(.*)"$/, '$1').trim();
    if (section === 'remote' && key === 'url' && !remotes.has(subsection)) remotes.set(subsection, value);
    if (section === 'engram' && key === 'project' && value !== '') engramProject = value;
  }
  return { remotes, engramProject };
}

export interface GitLocation {
  worktreeRoot: string;
  commonDir: string;
}

export function findGit(start: string): GitLocation | null {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      try {
        if (statSync(dotGit).isDirectory()) return { worktreeRoot: dir, commonDir: dotGit };
        const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
        if (pointer?.[1]) {
          const gitDir = resolve(dir, pointer[1].trim());
          const commonFile = join(gitDir, 'commondir');
          const commonDir = existsSync(commonFile)
            ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim())
            : gitDir;
          return { worktreeRoot: dir, commonDir };
        }
      } catch {
        // An unreadable .git is treated as no repository: identity falls back to the directory.
        return null;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readOverrideFile(root: string): string | null {
  const file = join(root, '.engram.json');
  if (!existsSync(file)) return null;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { project?: unknown };
    return typeof value.project === 'string' && value.project.trim() !== '' ? value.project.trim() : null;
  } catch {
    // A broken override file must not stop capture; identity falls back to git or the directory.
    return null;
  }
}

/**
 * Work out which project `cwd` belongs to, without hashing the id (the capture hook's cheap path).
 * `git config engram.project` (the user's own, never committed) renames a repository's project. A
 * `.engram.json` is written by whoever wrote the repository, so it may only join another project once
 * the user confirmed it (`engram project link`, kept in `links`, read only when such a file exists);
 * until then the repository keeps its own identity and the request is reported as `pendingLink`.
 * Never throws.
 */
export function resolveProjectIdentity(cwd: string, links?: () => ProjectLinks): ProjectIdentity {
  const foreign = foreignPath(cwd);
  if (foreign !== null) return foreign;
  const dir = safeRealpath(isAbsolute(cwd) ? cwd : resolve(cwd));
  const git = findGit(dir);
  const root = git ? git.worktreeRoot : dir;
  let config: GitConfig = { remotes: new Map(), engramProject: null };
  if (git) {
    try {
      config = parseGitConfig(readFileSync(join(git.commonDir, 'config'), 'utf8'));
    } catch {
      // No readable config: the repository is identified by its common dir.
    }
  }
  const own = ownIdentity(dir, root, git, config);
  const requested = readOverrideFile(root);
  if (requested) {
    let confirmed: string | undefined;
    try {
      confirmed = links?.()[own.key];
    } catch {
      confirmed = undefined; // unreadable confirmations: nothing is confirmed
    }
    if (confirmed === requested) return { name: requested, key: `name:${requested}`, root };
    if (!config.engramProject) return { ...own, pendingLink: requested };
  }
  if (config.engramProject) return { name: config.engramProject, key: `name:${config.engramProject}`, root };
  return own;
}

/**
 * A directory of another operating system (a Windows drive or UNC path, such as C:\Users\me\app, read on a POSIX
 * machine, e.g. from a transcript copied over): kept exactly as it was, never resolved against the
 * local working directory and never looked up on this disk. Null for a path of this system.
 */
export function foreignPath(cwd: string, platform: string = process.platform): ProjectIdentity | null {
  if (platform === 'win32') return null;
  const path = cwd.trim();
  if (!/^(?:[A-Za-z]:[\\/]|\\\\[^\\])/.test(path)) return null;
  const root = path.replace(/[\\/]+$/, '') || path;
  const name = root.split(/[\\/]/).filter(Boolean).pop() ?? root;
  return { name, key: `path:${root}`, root };
}

/**
 * Whether a path someone typed names a project's root: resolved against `cwd` as usual, or — for a root
 * of another operating system (a Windows drive or UNC path) — compared as Windows compares paths: either
 * slash, any case, no trailing separator (`c:/Users/me/app` names `C:\Users\me\app`).
 */
export function namesRoot(root: string, typed: string, cwd: string): boolean {
  if (foreignPath(root) === null) return root === resolve(cwd, typed);
  const plain = (p: string) =>
    p
      .trim()
      .replace(/[\\/]+/g, '/')
      .replace(/\/$/, '')
      .toLowerCase();
  return plain(root) === plain(typed);
}

/** A repository's (or directory's) own identity: its remote, else its common git dir, else the path. */
export function ownIdentity(
  dir: string,
  root: string,
  git: GitLocation | null,
  config: GitConfig,
): ProjectIdentity {
  const remote = config.remotes.get('origin') ?? [...config.remotes.values()][0];
  if (remote) {
    const normalised = normaliseRemoteUrl(remote);
    return { name: basename(normalised) || basename(root), key: `git:${normalised}`, root };
  }
  if (git) {
    const common = safeRealpath(git.commonDir);
    const name = basename(common) === '.git' ? basename(dirname(common)) : basename(common);
    return { name, key: `gitdir:${common}`, root };
  }
  return { name: basename(dir) || dir, key: `path:${dir}`, root };
}

export function withProjectId(identity: ProjectIdentity): Project {
  return { id: projectIdFromKey(identity.key), ...identity };
}

/** Work out which project `cwd` belongs to, with its stable id. Never throws. */
export function resolveProject(cwd: string, links?: () => ProjectLinks): Project {
  return withProjectId(resolveProjectIdentity(cwd, links));
}

/** Include/exclude rules: entries match a project id, its name, or a path prefix of its root. */
export function isProjectCaptured(
  project: ProjectIdentity & { id?: string },
  rules: { include: readonly string[]; exclude: readonly string[] },
): boolean {
  let id = project.id;
  const matches = (entry: string): boolean => {
    if (entry === project.name) return true;
    if (entry.startsWith('prj_')) return entry === (id ??= projectIdFromKey(project.key));
    if (entry.startsWith('/')) {
      const prefix = entry.replace(/\/+$/, '');
      return project.root === prefix || project.root.startsWith(`${prefix}/`);
    }
    return false;
  };
  if (rules.exclude.some(matches)) return false;
  return rules.include.length === 0 || rules.include.some(matches);
}

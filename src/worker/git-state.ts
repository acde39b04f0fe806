/**
 * A project's state for teammates: the branch, the commit and the changed files of its working tree
 * on this machine (`git`, with a short timeout; nothing when git is missing or it is not a repo).
 */
import { execFile } from 'node:child_process';
import type { ProjectState } from '../team/protocol.ts';

const MAX_FILES = 50;

function git(root: string, args: string[]): Promise<string | null> {
  return new Promise((done) => {
    execFile('git', ['-C', root, ...args], { timeout: 3000, maxBuffer: 1024 * 1024 }, (error, stdout) =>
      done(error ? null : stdout),
    );
  });
}

export async function readGitState(root: string, now: number): Promise<ProjectState | null> {
  const branch = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD']))?.trim() ?? null;
  if (branch === null) return null;
  const commit = (await git(root, ['rev-parse', '--short', 'HEAD']))?.trim() || null;
  const status = (await git(root, ['status', '--porcelain', '--untracked-files=normal'])) ?? '';
  const files = status
    .split('\n')
    .filter((line) => line.length > 3)
    .map((line) => line.slice(3).replace(/^.* -> /, ''));
  return {
    branch: branch === 'HEAD' ? null : branch,
    commit,
    files: files.slice(0, MAX_FILES),
    fileCount: files.length,
    at: now,
  };
}

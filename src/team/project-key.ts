/**
 * How the team server names a project: the same identity key and id the client derives (the
 * normalised git remote), so `--project git@github.com:acme/app.git` on the admin CLI and a clone of
 * that repository on any machine mean one project.
 */
import { EngramError } from '../core/errors.ts';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { isLocalPathRemote, normaliseRemoteUrl } from '../core/remote-url.ts';

export interface TeamProjectRef {
  /** `git:<normalised remote>` or `name:<override>`; null when given as an id. */
  key: string | null;
  id: ProjectId;
}

/** A git remote in any form, `name:<project>` (a project named by override), or a `prj_` id. */
export function parseProjectSpec(spec: string): TeamProjectRef {
  const s = spec.trim();
  if (/^prj_[0-9a-f]{16}$/.test(s)) return { key: null, id: s as ProjectId };
  if (s.startsWith('name:') && s.length > 5) return { key: s, id: projectIdFromKey(s) };
  if (isLocalPathRemote(s))
    throw new EngramError(
      'INPUT_INVALID',
      `"${spec}" is a local path: every machine that clones it has it somewhere else, so it names no shared project`,
      {
        hint:
          'Share such a repository under a name: each member runs "engram team share --name <name>" in their clone, ' +
          'and the grant names it: --project name:<name>.',
      },
    );
  const remote = normaliseRemoteUrl(s);
  if (!/^[^/\s]+\/\S+$/.test(remote)) {
    throw new EngramError('INPUT_INVALID', `"${spec}" is not a git remote, a prj_ id or name:<project>`, {
      hint: 'A remote looks like git@github.com:acme/app.git or https://github.com/acme/app; a named project like name:app.',
    });
  }
  const key = `git:${remote}`;
  return { key, id: projectIdFromKey(key) };
}

/** A readable project name from its key: the repository name, or the override. */
export function projectNameOf(key: string): string {
  const bare = key.replace(/^(git|name):/, '');
  return bare.split('/').filter(Boolean).at(-1) ?? bare;
}

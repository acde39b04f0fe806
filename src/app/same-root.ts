/**
 * Projects that share a root: a rename (`git config engram.project`) or a changed remote started a new
 * project where an old one was. `status` and `doctor` name them with the command that merges them.
 */
import { resolveProjectIdentity, withProjectId } from '../capture/project-identity.ts';
import { readProjectLinks } from '../store/project-links.ts';
import type { ProjectStats } from '../store/sessions-repo.ts';

/** The command that merges `from` into `into` (what status and doctor suggest; it works from anywhere). */
export function mergeCommandFor(from: { id: string }, into: { id: string }): string {
  return `engram project merge --from ${from.id} --to ${into.id}`;
}

/** A project whose root another project has: where the repository is now, and how to merge the old one. */
export interface SameRootNotice {
  root: string;
  from: { id: string; name: string; observations: number };
  into: { id: string; name: string; observations: number };
  command: string;
}

/**
 * Projects that share a root (a rename or a changed remote started a new project there). The one the
 * root resolves to now is the one to keep (else the last captured); the others should merge into it.
 */
export function sameRootNotices(
  projects: readonly ProjectStats[],
  currentId: (root: string) => string,
): SameRootNotice[] {
  const byRoot = new Map<string, ProjectStats[]>();
  for (const p of projects) byRoot.set(p.root, [...(byRoot.get(p.root) ?? []), p]);
  const out: SameRootNotice[] = [];
  for (const [root, group] of byRoot) {
    if (group.length < 2) continue;
    const now = currentId(root);
    const into =
      group.find((p) => p.id === now) ??
      ([...group].sort((a, b) => (b.lastCaptureAt ?? 0) - (a.lastCaptureAt ?? 0))[0] as ProjectStats);
    for (const from of group) {
      if (from.id === into.id) continue;
      const brief = (p: ProjectStats) => ({ id: p.id, name: p.name, observations: p.observations });
      out.push({ root, from: brief(from), into: brief(into), command: mergeCommandFor(from, into) });
    }
  }
  return out;
}

/** The id `root` resolves to now (the confirmed links applied), for `sameRootNotices`. */
export function currentProjectId(linksFile: string): (root: string) => string {
  const links = readProjectLinks(linksFile);
  return (root) => withProjectId(resolveProjectIdentity(root, () => links)).id;
}

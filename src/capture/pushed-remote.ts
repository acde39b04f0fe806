/**
 * The repository a session worked in, as its own pushes name it. A transcript read on another machine
 * (a backfill of sessions copied over) has a working directory that is not on this disk, so git's files
 * cannot say which repository it was; what `git push` printed can ("To github.com:owner/repo.git"), and
 * every clone and worktree of that repository is then the one project the remote names.
 */
import type { TranscriptEntry } from '../core/transcript.ts';
import { normaliseRemoteUrl, isLocalPathRemote } from '../core/remote-url.ts';
import type { ProjectIdentity } from '../core/model.ts';

/** The line git prints before the refs it pushed: "To <remote>". */
const PUSHED_TO = /^To (\S+)\s*$/gm;

/**
 * The normalised remote the session's own pushes went to, run in its working directory (not after a
 * `cd`, not with `git -C`); null when it pushed nowhere, to a path on its machine, or to more than one.
 */
export function pushedRemote(entries: readonly TranscriptEntry[], cwd: string): string | null {
  const remotes = new Set<string>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.sidechain || e.result === null || e.result.isError) continue;
    const input = e.input as { command?: unknown } | null;
    const command = typeof input?.command === 'string' ? input.command : '';
    if (!/\bgit\s+push\b/.test(command) || /(?:^|[;&|(]\s*)cd\s|\bgit\s+-C\s/.test(command)) continue;
    if (e.cwd !== undefined && e.cwd !== cwd) continue;
    for (const m of e.result.text.matchAll(PUSHED_TO)) {
      const url = m[1] ?? '';
      if (url !== '' && !isLocalPathRemote(url)) remotes.add(normaliseRemoteUrl(url));
    }
  }
  return remotes.size === 1 ? ([...remotes][0] ?? null) : null;
}

/** The project a remote names, seen at `root`. */
export function remoteIdentity(remote: string, root: string): ProjectIdentity {
  return { name: remote.split('/').pop() || remote, key: `git:${remote}`, root };
}

/**
 * What a shell line stages for the next commit: the paths of its `git add` / `git rm` / `git mv`
 * commands and of `git commit <paths>`; `-A`, `.`, `-u` and `commit -a` stage everything, which names
 * nothing in particular.
 */

/** Paths named for staging in `command`, relative as typed (none when it stages everything or nothing). */
export function stagedPaths(command: string): string[] {
  const out: string[] = [];
  for (const part of command.split(/&&|\|\||[;\n]/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const git = words.indexOf('git');
    if (git === -1) continue;
    const sub = words[git + 1] ?? '';
    if (!['add', 'rm', 'mv', 'commit'].includes(sub)) continue;
    const args = words.slice(git + 2);
    if (sub === 'commit') {
      const dashDash = args.indexOf('--');
      if (dashDash !== -1) out.push(...args.slice(dashDash + 1));
      continue;
    }
    if (args.some((a) => /^(?:-A|--all|-u|--update|\.)$/.test(a))) continue;
    out.push(...args.filter((a) => !a.startsWith('-')));
  }
  return [...new Set(out.map((p) => p.replace(/^["']|["']$/g, '').replace(/^\.\//, '')).filter(Boolean))];
}

/**
 * Files a shell line removed: the paths of `rm` / `git rm` / `unlink` that ran and worked. Work the
 * session did on a file it later removed is not part of what it leaves behind.
 */
import { simpleCommands } from './shell-words.ts';

/** Paths removed by the simple commands of `line` (as typed; globs and flags left out). */
export function removedPaths(line: string): string[] {
  const out: string[] = [];
  for (const c of simpleCommands(line)) {
    const words = c.words.filter((w) => !/^[A-Za-z_]\w*=/.test(w));
    const head = words[0]?.split('/').pop() ?? '';
    const args =
      head === 'rm' || head === 'unlink'
        ? words.slice(1)
        : head === 'git' && words[1] === 'rm'
          ? words.slice(2)
          : null;
    if (!args) continue;
    for (const a of args)
      if (a !== '' && !a.startsWith('-') && !/[*?[\]{}$]/.test(a)) out.push(a.replace(/^\.\//, ''));
  }
  return [...new Set(out)];
}

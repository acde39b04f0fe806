/**
 * Files a shell line removed: the paths of `rm` / `git rm` / `unlink` that ran and worked. Work the
 * session did on a file it later removed is not part of what it leaves behind; a file it renamed
 * (`mv`, `git mv`) is left under its new name.
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
        : head === 'git' && words[1] === 'rm' && !words.includes('--cached')
          ? words.slice(2)
          : null;
    if (!args) continue;
    for (const a of args)
      if (a !== '' && !a.startsWith('-') && !/[*?[\]{}$]/.test(a)) out.push(a.replace(/^\.\//, ''));
  }
  return [...new Set(out)];
}

/**
 * Files renamed by the simple commands of `line`: `mv A B` and `git mv A B` with one source, as typed.
 * A destination written as a folder (`dir/`, `.`) receives the source's own name; anything with a glob
 * or a variable is left out, as is a destination that may be an existing folder we cannot see.
 */
export function movedPaths(line: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const c of simpleCommands(line)) {
    const words = c.words.filter((w) => !/^[A-Za-z_]\w*=/.test(w));
    const head = words[0]?.split('/').pop() ?? '';
    const args = head === 'mv' ? words.slice(1) : head === 'git' && words[1] === 'mv' ? words.slice(2) : null;
    if (!args) continue;
    // `-t DIR` names the destination first: several sources into a folder, no rename to follow.
    if (args.some((a) => a === '-t' || a.startsWith('--target-directory'))) continue;
    const paths = args.filter((a) => a !== '' && !a.startsWith('-'));
    if (paths.length !== 2 || paths.some((a) => /[*?[\]{}$]/.test(a))) continue;
    const from = (paths[0] ?? '').replace(/^\.\//, '').replace(/\/+$/, '');
    const dest = paths[1] ?? '';
    const base = from.split('/').pop() ?? '';
    const to = /^\.?\/?$/.test(dest)
      ? base
      : dest.endsWith('/')
        ? `${dest.replace(/^\.\//, '')}${base}`
        : dest.replace(/^\.\//, '');
    if (from !== '' && to !== '' && from !== to) out.push({ from, to });
  }
  return out;
}

/** Words of a user's object that name no file ("the new docs files" → docs). */
const NOT_NAMES = new Set(
  'the a an all any my our your his her their its this that these those new old extra other some few files file folder folders directory directories dir them it one ones both'.split(
    ' ',
  ),
);

/** `word` in its singular and plural spellings. */
const spellings = (word: string) => new Set([word, word.replace(/s$/, ''), `${word}s`]);

/**
 * Files of the session the user says they removed themselves ("I removed the new docs files", "I've
 * deleted test-hook.sh"): the first person, a past removal, and an object whose words name a folder,
 * a file or a file's stem among `known` (the files the session changed). What the user did outside
 * the session is as true as what a command did inside it.
 */
export function userRemovedFiles(prompt: string, known: readonly string[]): string[] {
  const out = new Set<string>();
  const said =
    /\bI(?:'ve| have)?\s+(?:just\s+|already\s+|now\s+)?(?:removed|deleted|dropped|got rid of|trashed)\s+([^\n]+?)(?=\s+(?:but|and then|so|because)\b|[.;:!?,](?:\s|$)|\n|$)/gi;
  for (const m of prompt.matchAll(said)) {
    const object = (m[1] ?? '').toLowerCase();
    const literal = object.match(/[\w.-]*[./][\w./-]+/g) ?? [];
    // Without a file's own name, only an object that says it is files ("the new docs files", "the
    // scripts folder"): "I removed the test" may be a test case, not the test folder.
    const ofFiles = /\b(?:files?|folders?|director(?:y|ies)|dirs?)\b/.test(object);
    const words = ofFiles
      ? (object.match(/[a-z0-9][\w-]*/g) ?? []).filter((w) => w.length >= 3 && !NOT_NAMES.has(w))
      : [];
    const named: string[] = [];
    for (const path of known) {
      const lower = path.toLowerCase();
      if (literal.some((l) => lower === l || lower.endsWith(`/${l.replace(/^\.\//, '')}`))) {
        out.add(path);
        continue;
      }
      const parts = lower.split('/');
      const file = parts[parts.length - 1] ?? '';
      const stem = file.replace(/\.[^.]+$/, '');
      const names = new Set([...parts.slice(0, -1), file, stem, ...stem.split(/[-_.]+/)]);
      if (words.length > 0 && words.every((w) => [...spellings(w)].some((s) => names.has(s))))
        named.push(path);
    }
    // "the wrapper file" is one file: when its words fit several, which one is not known.
    const one =
      !/\b(?:files|folders|directories|dirs)\b/.test(object) && !/\bfolder|director|\bdir\b/.test(object);
    if (!one || named.length === 1) for (const path of named) out.add(path);
  }
  return [...out];
}

/**
 * What a shell line looked at: the files it printed (`cat`, `head`, `tail`, `sed -n`, `nl`, `less`,
 * `bat`) and what it searched for (`grep`, `rg`, `ag`, `ack`, `git grep`), as the Read and Grep tools
 * report them. Only the project's files: a path outside the root, in a scratch place, climbing out
 * (`..`) or a glob is none of them.
 */
import { simpleCommands } from './shell-words.ts';
import { isScratchPath, relativePath } from './text.ts';

export interface ShellReads {
  files: string[];
  searches: string[];
}

const PRINTERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more', 'bat', 'batcat']);
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
/** Options that take a value, per tool (`head -n 40`, `grep -A 3`, `rg -g '*.ts'`, `sed -e s/a/b/`). */
const LINES = /^-[nc]$|^--(?:lines|bytes)$/;
const MATCHING = /^-[ABCefm]$|^--(?:regexp|file|max-count|after-context|before-context|context)$/;
const WITH_VALUE: Record<string, RegExp> = {
  head: LINES,
  tail: LINES,
  grep: MATCHING,
  egrep: MATCHING,
  fgrep: MATCHING,
  ack: MATCHING,
  ag: /^-[ABCGm]$|^--(?:file-search-regex|max-count|after|before|context)$/,
  rg: /^-[ABCefgmtT]$|^--(?:regexp|file|glob|type|type-not|max-count|after-context|before-context|context)$/,
  sed: /^-[ef]$|^--(?:expression|file)$/,
};

/** A project file as the project names it, or '' when the word is not one (`cwd`: the shell's folder). */
function projectFile(word: string, root: string, cwd: string): string {
  if (word === '' || word === '-' || /[*?[\]{}$`~]/.test(word) || word.startsWith('/dev/')) return '';
  const full = word.startsWith('/') || cwd === '' ? word : `${cwd.replace(/\/+$/, '')}/${word}`;
  if (isScratchPath(full, root)) return '';
  const path = relativePath(full, root).replace(/^(?:\.\/)+/, '');
  if (path.startsWith('/') || path.split('/').includes('..') || path === '.') return '';
  return path;
}

/** The words after the command's name that are not options (or their values). */
function operands(tool: string, words: readonly string[]): string[] {
  const withValue = WITH_VALUE[tool];
  const out: string[] = [];
  let optionsDone = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (!optionsDone && w === '--') {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && w.startsWith('-') && w !== '-') {
      if (withValue?.test(w)) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/** What one shell line looked at (see the module comment; `cwd`: where its shell was). Never throws. */
export function shellReads(line: string, root: string, cwd = ''): ShellReads {
  const files: string[] = [];
  const searches: string[] = [];
  const commands = simpleCommands(line);
  for (const [i, c] of commands.entries()) {
    // `npm test | grep FAIL`: filtering what a command printed, not searching the project.
    const piped = commands[i - 1]?.joiner === '|';
    const words = c.words.filter((w, i) => !(i === 0 && /^\w+=/.test(w)));
    let name = words[0] ?? '';
    let rest = words.slice(1);
    if (name === 'git' && rest[0] === 'grep') {
      name = 'grep';
      rest = rest.slice(1);
    }
    if (PRINTERS.has(name) || (name === 'sed' && rest.includes('-n'))) {
      // `sed -n '1,40p' file`: its script is its first operand, unless an option gave it.
      const scripted = name === 'sed' && !rest.some((w) => /^-[ef]$|^--(?:expression|file)$/.test(w));
      const args = operands(name, rest).slice(scripted ? 1 : 0);
      for (const f of args.map((w) => projectFile(w, root, cwd)))
        if (f !== '' && !files.includes(f)) files.push(f);
    } else if (SEARCHERS.has(name) && !rest.includes('--files')) {
      // `grep -e PATTERN path`: the pattern is the option's value, every operand a path.
      const e = rest.findIndex((w) => w === '-e' || w === '--regexp');
      const [pattern, ...paths] =
        e >= 0 ? [rest[e + 1] ?? '', ...operands(name, rest)] : operands(name, rest);
      if (!pattern || (piped && paths.length === 0)) continue;
      const where = paths.map((w) => projectFile(w, root, cwd)).filter((f) => f !== '');
      searches.push(
        `${name} ${pattern.slice(0, 60)}${where.length > 0 ? ` in ${where.slice(0, 2).join(', ')}` : ''}`,
      );
    }
  }
  return { files, searches };
}

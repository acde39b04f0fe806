/**
 * Recognising engram's own hook commands in a settings file (so install is idempotent and uninstall
 * removes exactly what install added): the `# engram-hook` marker comment, or a plain command that
 * runs engram's hook. A command that merely mentions engram is not engram's.
 */

/** The shell comment that marks engram's hook commands, wherever engram is installed. */
export const ENGRAM_HOOK_MARKER = '# engram-hook';

interface ShellWords {
  /** Words with quotes removed. */
  words: string[];
  /** Text after an unquoted `#` that starts a word, or null. */
  comment: string | null;
  /** No shell operators (`; & | < > ( )` or backquotes) outside quotes, and no newline. */
  simple: boolean;
}

/** A small POSIX-ish word splitter: enough to tell what a hook command runs. Null on an unterminated quote. */
function splitShellWords(command: string): ShellWords | null {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let simple = true;
  let comment: string | null = null;
  let i = 0;
  while (i < command.length) {
    const ch = command.charAt(i);
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) return null;
      current += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < command.length && command.charAt(j) !== '"') {
        const c = command.charAt(j);
        const next = command.charAt(j + 1);
        if (c === '\\' && (next === '"' || next === '\\' || next === '$' || next === '`')) {
          current += next;
          j += 2;
        } else {
          current += c;
          j += 1;
        }
      }
      if (j >= command.length) return null;
      inWord = true;
      i = j + 1;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += command.charAt(i + 1);
      inWord = true;
      i += 2;
    } else if (ch === '\n' || ch === '\r') {
      simple = false;
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      i += 1;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      i += 1;
    } else if (ch === '#' && !inWord) {
      comment = command.slice(i + 1);
      break;
    } else {
      if (';&|<>()`'.includes(ch)) simple = false;
      current += ch;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(current);
  return { words, comment, simple };
}

const lastSegment = (path: string): string => path.split(/[\\/]/).at(-1) ?? '';
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const isNodeBinary = (word: string): boolean => /^node(?:js)?\d*(?:\.exe)?$/i.test(lastSegment(word));

/** Drops a leading node binary and its `-flags`, so `node --x prog args` reads as `prog args`. */
function withoutNode(words: string[]): string[] {
  if (words.length === 0 || !isNodeBinary(words[0] ?? '')) return words;
  let rest = words.slice(1);
  while (rest.length > 1 && (rest[0] ?? '').startsWith('-')) rest = rest.slice(1);
  return rest;
}

/** `engram hook`, `/path/to/engram hook`, `node /path/bin/engram hook`, `npx [-y] engram[@version] hook`. */
function isEngramCliHook(words: string[]): boolean {
  if (words.at(-1) !== 'hook') return false;
  const head = words.slice(0, -1);
  if (head[0] === 'npx') {
    const rest = head[1] === '-y' || head[1] === '--yes' ? head.slice(2) : head.slice(1);
    return rest.length === 1 && /^engram(?:@[^\s/]+)?$/.test(rest[0] ?? '');
  }
  const rest = withoutNode(head);
  return rest.length === 1 && lastSegment(rest[0] ?? '') === 'engram';
}

/** `[node [flags]] <path>/hook.cjs` where some directory of the path is named `engram…` (`engram`, `engram-main`, `.engram`). */
function isEngramHookBundle(words: string[]): boolean {
  const rest = withoutNode(words);
  if (rest.length !== 1) return false;
  const parts = (rest[0] ?? '').split(/[\\/]/);
  return (
    parts.length > 1 &&
    parts.at(-1) === 'hook.cjs' &&
    parts.slice(0, -1).some((dir) => /^\.?engram(?![a-z0-9])/i.test(dir))
  );
}

/**
 * Whether a hook command is engram's (so install may replace it and uninstall may remove it). True when either
 *  - it ends with the marker comment `# engram-hook` (an unquoted `#` starting a word, after something to run), or
 *  - it is a simple command (no `; & | < > ( )` or backquotes outside quotes), optionally after `VAR=value`
 *    assignments and `exec`, that runs engram's hook: `[node] engram hook` / `npx [-y] engram hook` with `hook`
 *    the last word, or `[node] <…/engram…/…/hook.cjs>` with the bundle path the last word.
 * A command that merely mentions engram (`echo engram > /tmp/x`, `echo engram hook`, `cat /opt/engram/dist/hook.cjs`)
 * is not engram's.
 */
export function isEngramHookCommand(command: string): boolean {
  const parsed = splitShellWords(command.trim());
  if (parsed === null) return false;
  if (parsed.comment !== null && parsed.comment.trim() === 'engram-hook' && parsed.words.length > 0)
    return true;
  if (!parsed.simple) return false;
  let words = parsed.words;
  while (words.length > 0 && ENV_ASSIGNMENT.test(words[0] ?? '')) words = words.slice(1);
  if (words[0] === 'exec') words = words.slice(1);
  return isEngramCliHook(words) || isEngramHookBundle(words);
}

/**
 * Commits and dependencies from shell commands: the message of a `git commit` (however spelled), what
 * git prints after one, and the packages a dependency command adds or removes.
 */
import { resolveWords } from './commands.ts';
import { simpleCommands } from './shell-words.ts';

/** The flag a commit's message follows: `-m`, `-am`, `-qm`, `--message`. */
const MESSAGE_FLAG = String.raw`\s(?:-[a-zA-Z]*m|--message)`;
const QUOTED_MESSAGE = new RegExp(`${MESSAGE_FLAG}\\s*(?:=\\s*)?(["'])((?:(?!\\1)[\\s\\S])*)\\1`);
const BARE_MESSAGE = new RegExp(`${MESSAGE_FLAG}[\\s=]+([^\\s"'&|;]+)`);
/** The message after its flag, however quoted (or not), for leaving it out. */
const MESSAGE_VALUE = new RegExp(`(${MESSAGE_FLAG})(?:=|\\s+)(?:"(?:[^"\\\\]|\\\\.)*"?|'[^']*'?|\\S+)`, 'g');

/** The whole message a `git commit` command gives (heredoc or quoted `-m`), or null. */
function wholeMessage(command: string): string | null {
  if (!/\bgit\b[^\n]*\bcommit\b/.test(command)) return null;
  const heredoc = /<<-?\s*'?(\w+)'?\s*\n([\s\S]*?)\n\s*\1\b/.exec(command);
  if (heredoc?.[2]) return heredoc[2].trim() || null;
  const quoted = QUOTED_MESSAGE.exec(command);
  if (quoted?.[2]) return quoted[2].trim() || null;
  return null;
}

/** The message of a `git commit -m "…"` (also `-qm`, `--message=`, and the heredoc form). */
export function commitMessage(command: string): string | null {
  const whole = wholeMessage(command);
  if (whole !== null) return whole.split('\n')[0]?.trim() || null;
  if (!/\bgit\b[^\n]*\bcommit\b/.test(command)) return null;
  const bare = BARE_MESSAGE.exec(command);
  return bare?.[1] ?? null;
}

/**
 * A command with the message it carries left out (`git commit -qm "fix: …"` → `git commit -qm "…"`):
 * the message tells of the work, which its own memory tells; the command is how it ran. Only in a git
 * command that takes one (`python -m pytest` keeps its module).
 */
export const withoutMessage = (command: string) =>
  command.replace(
    /\bgit\s+(?:-[Cc]\s+\S+\s+|-\S+\s+)*(?:commit|tag|stash|merge|notes|revert)\b[^;&|]*/g,
    (git) => git.replace(MESSAGE_VALUE, '$1 "…"'),
  );

/** Trailers and tool signatures: no part of what the commit does. */
const TRAILER = /^(?:[\w-]+-by:|🤖|generated with\b|https?:\/\/\S+$)/i;

/** A line with words of prose in it, not only code, flags or values. */
const saysSomething = (line: string) =>
  line.split(/\s+/).filter((w) => /^[A-Za-z][a-z'’-]*[,.;:!?)]*$/.test(w)).length >= 2;

/**
 * What a commit's body says it does: its list items ("- Use { once: true } for abort listeners"), or,
 * when it lists nothing, its paragraphs (lines wrapped at a width joined again); trailers and
 * signatures left out; at most `max`.
 */
export function commitBody(command: string, max = 3): string[] {
  const whole = wholeMessage(command);
  if (whole === null) return [];
  const lines = whole
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => !TRAILER.test(l));
  const items = lines.filter((l) => /^[-*•]\s+\S/.test(l)).map((l) => l.replace(/^[-*•]\s+/, ''));
  // A list of what it changed says what it does; a list of examples (`export MODEL_NAME=gpt-5`) hangs
  // from the paragraph that leads into it, which says it.
  if (items.some(saysSomething)) return items.filter(saysSomething).slice(0, max);
  const paragraphs = lines
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter((p) => p !== '');
  return paragraphs.slice(0, max);
}

export interface CommitOutput {
  branch: string;
  hash: string;
  subject: string;
  /** "N files changed" as git counted them (null when it did not print the count). */
  filesChanged: number | null;
  /** The new files it listed (`create mode … path`), as far as the output goes. */
  created: string[];
}

/** `[main 1a2b3c4] subject` as git prints it after a commit, with its stat lines. */
export function commitOutput(output: string): CommitOutput | null {
  const m = /^\[([^\s\]]+(?: HEAD)?)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+)$/m.exec(output);
  if (!m) return null;
  const count = /^\s*(\d+) files? changed\b/m.exec(output)?.[1];
  const created = [...output.matchAll(/^\s*create mode \d+ (\S.*)$/gm)].map((c) => (c[1] ?? '').trim());
  return {
    branch: m[1] ?? '',
    hash: m[2] ?? '',
    subject: (m[3] ?? '').trim(),
    filesChanged: count === undefined ? null : Number(count),
    created,
  };
}

/**
 * What a commit much larger than the work it was made for took in, grouped by top folder with the
 * number of new files listed in each ("todomvc-master/ (382 new), .claude/settings.local.json"), or
 * '' when it is not much larger: a sweep (`git add -A` over a download, a private folder, local
 * settings) the next session should know is in the history.
 */
export function commitSweep(filesChanged: number | null, created: readonly string[], work: number): string {
  if (filesChanged === null || filesChanged < 20 || filesChanged < 3 * Math.max(1, work)) return '';
  const groups = new Map<string, string[]>();
  for (const path of created) {
    const cut = path.indexOf('/');
    const key = cut > 0 ? `${path.slice(0, cut)}/` : path;
    groups.set(key, [...(groups.get(key) ?? []), path]);
  }
  const listed = [...groups]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, 6)
    .map(([key, paths]) => (paths.length > 1 ? `${key} (${paths.length} new)` : (paths[0] ?? key)));
  return `${filesChanged} files changed${listed.length > 0 ? `, among them ${listed.join(', ')}` : ''}`;
}

const PACKAGE_VALUE_FLAGS =
  /^(?:-r|--requirement|-c|--constraint|-i|--index-url|--extra-index-url|--registry|-w|--workspace|--filter|--features|-F|--target|--prefix|-p|--package|--version|--source|--group|-G)$/;

/** Packages a dependency command adds and removes (flags and their values dropped). */
export function packagesOf(command: string): { added: string[]; removed: string[] } {
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const c of simpleCommands(command)) {
    const r = resolveWords(c.words);
    if (r.purpose !== 'install' && r.purpose !== 'uninstall') continue;
    const w = r.words;
    const skip = (w[0] === 'uv' && w[1] === 'pip') || w[0] === 'dotnet' ? 3 : 2;
    let skipNext = false;
    for (const word of w.slice(skip)) {
      const token = word.replace(/^["']|["']$/g, '');
      if (skipNext) {
        skipNext = false;
        continue;
      }
      if (PACKAGE_VALUE_FLAGS.test(token)) {
        skipNext = true;
        continue;
      }
      if (token === '' || /^[-<>.~/$\d]/.test(token) || token.endsWith('=') || token.includes('://'))
        continue;
      (r.purpose === 'install' ? added : removed).add(token.replace(/\[[\w,.-]*\]$/, ''));
    }
  }
  return { added: [...added].slice(0, 10), removed: [...removed].slice(0, 10) };
}

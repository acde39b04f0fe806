/**
 * Obsidian wiki-links: reading `[[target#heading|shown]]` (and `![[embeds]]`) out of markdown, outside
 * code, and resolving a target to one note the way Obsidian does — never fuzzily:
 *  - matching is case-insensitive, with or without the `.md` extension;
 *  - a target with a folder (`a/b`) is a path from the vault root, then relative to the linking note's
 *    folder, then a path suffix;
 *  - a bare name matches notes by file name: the one in the linking note's folder first, else the one
 *    with the shortest path (in characters, then alphabetically);
 *  - an alias (frontmatter `aliases`) never resolves a link on its own.
 */
import { posix } from 'node:path';

export interface WikiLink {
  /** The whole link as written, `[[…]]` included. */
  raw: string;
  /** The note part (before `#` and `|`). */
  target: string;
  /** `#heading` or `#^block`, when given. */
  subpath: string;
  /** The text after `|`, when given. */
  display: string | null;
  embed: boolean;
  /** Offset in the text. */
  index: number;
}

/** The text with fenced code blocks and inline code spans blanked (offsets kept). */
function withoutCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return text
    .replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?(?:^\s*\2[^\n]*$|(?![\s\S]))/gm, blank)
    .replace(/(`+)[^`\n]+?\1/g, blank);
}

/** Every wiki-link in a markdown text, in order, leaving out those inside code. */
export function parseWikiLinks(text: string): WikiLink[] {
  const scan = withoutCode(text);
  const out: WikiLink[] = [];
  const re = /(!?)\[\[([^[\]\n]+?)\]\]/g;
  for (let m = re.exec(scan); m; m = re.exec(scan)) {
    const inner = text.slice(m.index + (m[1] ?? '').length + 2, m.index + m[0].length - 2);
    const bar = inner.indexOf('|');
    const linkText = bar >= 0 ? inner.slice(0, bar) : inner;
    const hash = linkText.indexOf('#');
    out.push({
      raw: text.slice(m.index, m.index + m[0].length),
      target: (hash >= 0 ? linkText.slice(0, hash) : linkText).trim(),
      subpath: hash >= 0 ? linkText.slice(hash).trim() : '',
      display: bar >= 0 ? inner.slice(bar + 1) : null,
      embed: m[1] === '!',
      index: m.index,
    });
  }
  return out;
}

const key = (path: string) => path.toLowerCase().replace(/\.md$/, '');

export interface LinkResolver {
  /** The vault-relative path of the note `target` means when written in `sourcePath`, or null. */
  resolve(target: string, sourcePath: string): string | null;
}

/** A resolver over the vault's markdown notes (vault-relative paths with `/`). */
export function createLinkResolver(notePaths: readonly string[]): LinkResolver {
  const byPath = new Map<string, string>();
  const byName = new Map<string, string[]>();
  for (const path of notePaths) {
    if (!path.toLowerCase().endsWith('.md')) continue;
    byPath.set(key(path), path);
    const name = key(posix.basename(path));
    const list = byName.get(name) ?? [];
    list.push(path);
    byName.set(name, list);
  }
  const shortest = (paths: readonly string[]) =>
    [...paths].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0] ?? null;
  return {
    resolve(target, sourcePath) {
      const t = target.trim().replace(/^\/+/, '');
      if (t === '') return sourcePath; // `[[#heading]]` links within the note itself
      const folder = posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath);
      if (t.startsWith('./') || t.startsWith('../'))
        return byPath.get(key(posix.normalize(posix.join(folder, t)))) ?? null;
      const exact = byPath.get(key(t));
      if (exact) return exact;
      const candidates = byName.get(key(posix.basename(t))) ?? [];
      if (t.includes('/')) {
        const relative = byPath.get(key(posix.join(folder, t)));
        if (relative) return relative;
        const suffix = `/${key(t)}`;
        return shortest(candidates.filter((p) => `/${key(p)}`.endsWith(suffix)));
      }
      const sameFolder = candidates.find((p) => posix.dirname(p) === (folder === '' ? '.' : folder));
      return sameFolder ?? shortest(candidates);
    },
  };
}

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listNotes } from './vault-files.ts';
import { createLinkResolver, parseWikiLinks, type LinkResolver } from './wiki-links.ts';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/obsidian-vault', import.meta.url));
let dir: string;
let notes: string[];
let resolver: LinkResolver;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-vault-links-'));
  cpSync(FIXTURE, dir, { recursive: true });
  notes = listNotes(dir);
  resolver = createLinkResolver(notes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const linksOf = (path: string) =>
  parseWikiLinks(readFileSync(join(dir, path), 'utf8')).map((l) => ({
    written: l.raw,
    to: resolver.resolve(l.target, path),
  }));

describe('the fixture vault', () => {
  it('lists notes outside dot-folders', () => {
    expect(notes).toEqual([
      'Artificial intelligence.md',
      'Home.md',
      'Notes/Readme.md',
      'README.md',
      'alpha/Linker.md',
      'alpha/Note.md',
      'b/Note.md',
      'b/c/Note.md',
    ]);
  });
});

describe("resolving links by Obsidian's rules", () => {
  it('from the vault root: shortest path, paths, suffixes, case, extension, no alias, no fuzz, no code', () => {
    expect(linksOf('Home.md')).toEqual([
      { written: '[[Note]]', to: 'b/Note.md' }, // b/Note.md is shorter than alpha/Note.md
      { written: '[[b/c/Note]]', to: 'b/c/Note.md' }, // a path from the root
      { written: '[[c/Note]]', to: 'b/c/Note.md' }, // a path suffix
      { written: '[[note.md|lower case]]', to: 'b/Note.md' }, // case-insensitive, extension allowed
      { written: '[[Note#Usage|usage]]', to: 'b/Note.md' },
      { written: '[[AI]]', to: null }, // an alias alone does not resolve
      { written: '[[Notes]]', to: null }, // a folder's name is not a note; nothing fuzzy
      { written: '[[Missing]]', to: null },
    ]);
  });

  it("prefers the linking note's own folder", () => {
    expect(linksOf('alpha/Linker.md')).toEqual([{ written: '[[Note]]', to: 'alpha/Note.md' }]);
    expect(linksOf('alpha/Note.md')).toEqual([
      { written: '[[Note]]', to: 'alpha/Note.md' },
      { written: '[[../Home]]', to: 'Home.md' },
    ]);
    expect(linksOf('b/c/Note.md')).toEqual([{ written: '[[Note]]', to: 'b/c/Note.md' }]);
  });

  it('an exact path from the root wins over the same folder', () => {
    const r = createLinkResolver(['x/Note.md', 'Note.md', 'x/Other.md']);
    expect(r.resolve('Note', 'x/Other.md')).toBe('Note.md');
  });
});

describe('parsing links', () => {
  it('reads target, heading, display text and embeds, skipping code', () => {
    const links = parseWikiLinks(
      'a ![[img.png]] b [[Note#^block|see]] `[[no]]`\n```js\n[[nope]]\n```\n[[yes]]',
    );
    expect(links.map((l) => [l.target, l.subpath, l.display, l.embed])).toEqual([
      ['img.png', '', null, true],
      ['Note', '#^block', 'see', false],
      ['yes', '', null, false],
    ]);
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFrontmatter, splitNote } from '../../src/graph/frontmatter.ts';
import { listNotes } from '../../src/graph/vault-files.ts';
import { createLinkResolver, parseWikiLinks } from '../../src/graph/wiki-links.ts';
import { createSandbox, payloads, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');

interface QueryJson {
  nodes: {
    id: string;
    type: string;
    title: string;
    status: string;
    stale: boolean;
    files: string[];
    tags: string[];
  }[];
  count: number;
  query_time_ms: number;
}

describe('the memory graph and the vault, through the real CLI', () => {
  let sb: Sandbox;
  const ok = (args: string[], cwd?: string) => {
    const r = sb.engram(args, cwd ? { cwd } : {});
    expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };
  beforeAll(() => {
    sb = createSandbox();
  });
  afterAll(() => sb.cleanup());

  it('backfills the fixture transcripts and exports a vault where every link resolves and every note has id and type', () => {
    const projects = join(sb.root, 'claude-projects');
    cpSync(FIXTURES, join(projects, '-home-USER-projects-spotter'), { recursive: true });
    ok(['backfill', '--from', projects, '--json']);
    const vault = join(sb.root, 'vault');
    const report = JSON.parse(ok(['vault', 'export', '--dir', vault, '--all', '--json'])) as {
      notes: number;
      links: number;
      flagged: unknown[];
    };
    expect(report.flagged).toEqual([]);
    const notes = listNotes(vault);
    expect(notes.length).toBe(report.notes);
    expect(notes.length).toBeGreaterThan(20);
    expect(notes.some((n) => /\/sessions\//.test(n))).toBe(true);
    expect(notes.some((n) => /\/index\.md$/.test(n))).toBe(true);
    const resolver = createLinkResolver(notes);
    let links = 0;
    for (const path of notes) {
      const text = readFileSync(join(vault, path), 'utf8');
      const fm = parseFrontmatter(splitNote(text).yaml);
      expect(fm.ok, path).toBe(true);
      if (!fm.ok) continue;
      expect(typeof fm.data['id'], path).toBe('string');
      expect(typeof fm.data['type'], path).toBe('string');
      for (const l of parseWikiLinks(text)) {
        links++;
        expect(resolver.resolve(l.target, path), `${path}: ${l.raw}`).not.toBeNull();
      }
    }
    expect(links).toBe(report.links);
    expect(links).toBeGreaterThan(notes.length);
    // Nothing changed: nothing written.
    const again = JSON.parse(ok(['vault', 'sync', '--dir', vault, '--json'])) as { written: number };
    expect(again.written).toBe(0);
  });

  it('engram query answers in the seed\u2019s shapes', () => {
    const spotter = 'spotter';
    const json = JSON.parse(
      ok(['query', '--project', spotter, '--recent', '5', '--format', 'json']),
    ) as QueryJson;
    expect(json.count).toBe(json.nodes.length);
    expect(json.count).toBeLessThanOrEqual(5);
    expect(json.count).toBeGreaterThan(0);
    expect(typeof json.query_time_ms).toBe('number');
    expect(Object.keys(json.nodes[0] ?? {})).toEqual(
      expect.arrayContaining(['id', 'type', 'title', 'status', 'stale', 'files', 'tags']),
    );
    const summary = ok(['query', '--project', spotter, '--recent']);
    for (const line of summary.trim().split('\n')) expect(line).toMatch(/^\[[\w-]+\] .+ · (obs|fil|ses)_/);
    const bad = sb.engram(['query', '--status', 'sleeping']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--status takes active, archived, superseded, invalidated/);
    expect(ok(['query', '--help'])).toMatch(/--recent \[N\]/);
  });

  it('memories about files go stale when their code changes, through hooks, flush and engram stale', () => {
    const repo = sb.project('webshop');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:example/webshop.git'], { cwd: repo });
    mkdirSync(join(repo, 'src'), { recursive: true });
    const source =
      'export function total(items: number[]) {\n  return items.reduce((a, b) => a + b, 0);\n}\n';
    writeFileSync(join(repo, 'src', 'cart.ts'), source);
    writeFileSync(join(repo, 'src', 'tax.ts'), 'export const RATE = 0.2;\n');
    execFileSync('git', ['add', '.'], { cwd: repo });
    const p = payloads('sess-graph', repo);
    for (const payload of [
      p.start(),
      p.prompt('Make cart totals sum the items'),
      p.tool(
        'Edit',
        {
          file_path: join(repo, 'src/cart.ts'),
          old_string: 'return 0;',
          new_string: '  return items.reduce((a, b) => a + b, 0);',
        },
        {},
      ),
      p.tool(
        'Read',
        { file_path: join(repo, 'src/tax.ts') },
        { file: { content: 'export const RATE = 0.2;' } },
      ),
      p.stop('Cart totals now sum the items.'),
    ])
      expect(sb.hook(payload).status).toBe(0);
    ok(['flush']);
    const stale = () =>
      JSON.parse(ok(['stale', '--json'], repo)) as {
        checked: number;
        stale: { id: string; reason: string }[];
      };
    const before = stale();
    expect(before.checked).toBeGreaterThan(0);
    expect(before.stale).toEqual([]);
    // Whitespace only: not stale.
    writeFileSync(join(repo, 'src', 'cart.ts'), source.replace('return items', 'return  items'));
    expect(stale().stale).toEqual([]);
    // A real change of the anchored code: stale, shown so in search and in the context.
    writeFileSync(join(repo, 'src', 'cart.ts'), source.replace('a + b', 'a + b * 2'));
    const after = stale();
    expect(after.stale.length).toBeGreaterThan(0);
    expect(after.stale[0]?.reason).toMatch(/src\/cart\.ts changed/);
    const id = after.stale[0]?.id as string;
    expect(ok(['search', 'cart totals'], repo)).toMatch(/stale since \d{4}-\d\d-\d\d/);
    expect(ok(['context'], repo)).toMatch(/Stale memories \(the code they describe changed since/);
    const q = JSON.parse(ok(['query', '--stale', '--format', 'json'], repo)) as QueryJson;
    expect(q.nodes.map((n) => n.id)).toContain(id);
    const related = ok(['query', '--related', 'src/cart.ts'], repo);
    expect(related).toContain(id);
    expect(related).toMatch(/links here \(touches\)/);
  });

  it('forget --match erases a phrase from the vault too, and a sync cannot bring it back', () => {
    const repo = sb.project('vaulted');
    const p = payloads('sess-vaulted', repo);
    for (const payload of [
      p.start(),
      p.prompt('Remember that the staging password hint is zebra-quartz-kiwi'),
      p.stop('Noted: the staging password hint is zebra-quartz-kiwi.'),
    ])
      expect(sb.hook(payload).status).toBe(0);
    ok(['flush']);
    const vault = join(sb.root, 'vault2');
    ok(['vault', 'export', '--dir', vault], repo);
    const holding = () =>
      listNotes(vault).filter((n) => /zebra-quartz-kiwi/i.test(readFileSync(join(vault, n), 'utf8')));
    expect(holding().length).toBeGreaterThan(0);
    writeFileSync(join(vault, 'vaulted', 'My own note.md'), 'hint: ZEBRA-QUARTZ-KIWI, keep the rest\n');
    ok(['forget', '--match', 'zebra-quartz-kiwi', '--all', '--yes'], repo);
    expect(holding()).toEqual([]);
    expect(readFileSync(join(vault, 'vaulted', 'My own note.md'), 'utf8')).toBe(
      'hint: [erased], keep the rest\n',
    );
    const synced = JSON.parse(ok(['vault', 'sync', '--dir', vault, '--json'], repo)) as { ingested: number };
    expect(synced.ingested).toBe(0);
    expect(holding()).toEqual([]);
    expect(ok(['search', 'staging password hint'], repo)).not.toMatch(/zebra/i);
  });

  it('bad vault paths exit 2 at once with a clear message; a sync never starts a vault unasked', () => {
    const fail = (args: string[], env?: NodeJS.ProcessEnv) => {
      const started = Date.now();
      const r = sb.engram(args, { timeoutMs: 10_000, ...(env ? { env } : {}) });
      expect(Date.now() - started, args.join(' ')).toBeLessThan(10_000);
      expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      return r.stderr;
    };
    expect(fail(['vault', 'export', '--dir', '/proc/nope'])).toMatch(
      /the vault folder \/proc\/nope: cannot create \/proc\/nope \(nothing can be created there\)/,
    );
    expect(fail(['vault', 'export', '--dir', '/etc/passwd/x'])).toMatch(
      /the vault folder \/etc\/passwd\/x: \/etc\/passwd is a file, not a folder/,
    );
    const typo = join(sb.root, 'vualt');
    expect(fail(['vault', 'sync', '--dir', typo])).toMatch(
      new RegExp(`${typo} is not a vault[\\s\\S]*engram vault sync --dir ${typo} --init`),
    );
    expect(() => readFileSync(join(typo, 'index.md'))).toThrow();
    const made = JSON.parse(ok(['vault', 'sync', '--dir', typo, '--init', '--all', '--json'])) as {
      notes: number;
    };
    expect(made.notes).toBeGreaterThan(0);
    ok(['vault', 'sync', '--dir', typo]);
    expect(fail(['backfill', '--from', '/etc/passwd'])).toMatch(/--from: not a directory: \/etc\/passwd/);
    // An ENGRAM_HOME that is a file is the user's to fix, not a fault of engram's.
    const file = join(sb.root, 'not-a-folder');
    writeFileSync(file, 'x');
    expect(fail(['status'], { ENGRAM_HOME: file })).toMatch(
      /ENGRAM_HOME .*not-a-folder: is a file, not a folder/,
    );
  });

  it('a note set to status: archived or invalidated in the vault puts its memory away; syncs exit 0', () => {
    const repo = sb.project('archiving');
    const p = payloads('sess-archiving', repo);
    for (const payload of [
      p.start(),
      p.prompt('Add a retry to the fetch helper'),
      p.tool('Edit', { file_path: `${repo}/src/fetch.ts`, old_string: 'a', new_string: 'b' }, {}),
      p.stop('The fetch helper now retries three times.'),
      p.tool('Edit', { file_path: `${repo}/src/cache.ts`, old_string: 'a', new_string: 'b' }, {}),
      p.stop('The cache now expires entries after an hour.'),
    ])
      expect(sb.hook(payload).status).toBe(0);
    ok(['flush']);
    const vault = join(sb.root, 'vault3');
    ok(['vault', 'export', '--dir', vault], repo);
    const memoryNotes = listNotes(vault).filter((n) =>
      /^status: active$/m.test(readFileSync(join(vault, n), 'utf8')),
    );
    expect(memoryNotes.length).toBeGreaterThanOrEqual(2);
    const [first, second] = memoryNotes as [string, string];
    const set = (note: string, status: string) =>
      writeFileSync(
        join(vault, note),
        readFileSync(join(vault, note), 'utf8').replace(/^status: active$/m, `status: ${status}`),
      );
    set(first, 'archived');
    set(second, 'invalidated');
    for (let i = 0; i < 3; i++) {
      const r = JSON.parse(ok(['vault', 'sync', '--dir', vault, '--json'], repo)) as { flagged: unknown[] };
      expect(r.flagged).toEqual([]);
    }
  });
});

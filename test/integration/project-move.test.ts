/**
 * `engram project move|merge` through the real CLI, hooks and worker: a repository renamed with
 * `git config engram.project` (a new project) gets its old memory back; a changed remote's new project
 * merges with the old one; `--dry-run` changes nothing.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

interface SearchHit {
  id: string;
  title: string;
}

describe('engram project move and merge', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox();
  });
  afterAll(() => sb.cleanup());

  const capture = (session: string, dir: string, work: string) => {
    const p = payloads(session, dir);
    for (const call of [
      p.start(),
      p.prompt(`Please ${work}`),
      p.tool('Edit', { file_path: `${dir}/src/invoice.ts`, old_string: 'a', new_string: 'b' }, {}),
      p.stop(`I did it: ${work} (invoice totals in integer cents).`),
      p.end(),
    ])
      expect(sb.hook(call).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
  };
  const search = (dir: string, words: string): SearchHit[] => {
    const r = sb.engram(['search', words, '--cwd', dir, '--json']);
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { results: SearchHit[] }).results;
  };
  const projects = () =>
    (JSON.parse(sb.engram(['status', '--json']).stdout) as { projects: { id: string; name: string }[] })
      .projects;

  it('a rename: move brings the old project’s memory to the new name (dry run first)', () => {
    const dir = sb.project('shop', 'git@github.com:acme/shop.git');
    capture('s-shop', dir, 'fix the invoice rounding');
    const before = search(dir, 'invoice');
    expect(before.length).toBeGreaterThan(0);

    appendFileSync(join(dir, '.git', 'config'), '[engram]\n\tproject = storefront\n');
    expect(search(dir, 'invoice')).toEqual([]); // a new, empty project: what the issue reported
    expect(projects().map((p) => p.name)).toEqual(['shop']); // not captured yet under the new name

    const dry = sb.engram(['project', 'move', '--dry-run', '--cwd', dir]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /^would move project shop \(prj_[0-9a-f]+\) into storefront \(prj_[0-9a-f]+, new\)/,
    );
    expect(dry.stdout).toMatch(/\d+ memories, 1 summaries, 1 sessions/);
    expect(dry.stdout).toContain('Nothing changed.');
    expect(search(dir, 'invoice')).toEqual([]);

    const moved = sb.engram(['project', 'move', '--cwd', dir]);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^moved project shop/);
    expect(
      search(dir, 'invoice')
        .map((h) => h.id)
        .sort(),
    ).toEqual(before.map((h) => h.id).sort());
    expect(projects().map((p) => p.name)).toEqual(['storefront']);
    const context = sb.engram(['context', '--cwd', dir]);
    expect(context.stdout).toMatch(/invoice/i);
    // Nothing left to move.
    const again = sb.engram(['project', 'move', '--cwd', dir]);
    expect([again.status, again.stderr]).toEqual([2, expect.stringMatching(/no other project has the root/)]);
  });

  it('status and doctor notice two projects with one root and give the exact command that merges them', () => {
    const dir = sb.project('blog', 'git@github.com:acme/blog.git');
    capture('s-blog-1', dir, 'fix the invoice rounding in the blog shop');
    appendFileSync(join(dir, '.git', 'config'), '[engram]\n\tproject = journal\n');
    capture('s-blog-2', dir, 'add the coupon field to the blog shop');

    const status = sb.engram(['status']);
    expect(status.stdout).toMatch(
      /blog \(prj_[0-9a-f]+, \d+ memories\) has the same root as journal \(prj_[0-9a-f]+\)/,
    );
    const command = /^ {4}(engram project merge .*)$/m.exec(status.stdout)?.[1] ?? '';
    expect(command).toMatch(/^engram project merge --from prj_[0-9a-f]+ --to prj_[0-9a-f]+$/);
    const doctor = JSON.parse(sb.engram(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string; fix?: string }[];
    };
    const check = doctor.checks.find((c) => c.name === 'projects');
    expect(check).toMatchObject({ status: 'warn', fix: expect.stringContaining(command) as unknown });

    // The command works exactly as printed, from anywhere.
    const run = sb.engram(command.split(' ').slice(1), { cwd: sb.root });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^moved project blog \(prj_[0-9a-f]+\) into journal/);
    expect(sb.engram(['status']).stdout).not.toContain('has the same root');
    const after = JSON.parse(sb.engram(['doctor', '--json']).stdout) as typeof doctor;
    expect(after.checks.find((c) => c.name === 'projects')?.status).toBe('ok');
    expect(search(dir, 'invoice').length).toBeGreaterThan(0);
  });

  it('a changed remote: move refuses a project that holds memories, merge joins them without duplicates', () => {
    const dir = sb.project('cart', 'git@github.com:acme/cart.git');
    capture('s-cart-1', dir, 'fix the invoice rounding in the cart');
    const old = search(dir, 'invoice');
    writeFileSync(
      join(dir, '.git', 'config'),
      '[remote "origin"]\n\turl = git@github.com:acme-corp/cart.git\n',
    );
    // The same work seen again under the new remote, plus something new.
    capture('s-cart-2', dir, 'fix the invoice rounding in the cart');
    capture('s-cart-3', dir, 'add the coupon field to checkout');

    const refused = sb.engram(['project', 'move', '--cwd', dir]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/already holds \d+ memories/);
    expect(refused.stderr).toMatch(/engram project merge --from prj_/);

    const merged = sb.engram(['project', 'merge', '--cwd', dir, '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    const report = JSON.parse(merged.stdout) as { duplicates: number; memories: number };
    expect(report.duplicates).toBeGreaterThan(0);
    const after = search(dir, 'invoice');
    const titles = after.map((h) => h.title);
    expect(new Set(titles).size, JSON.stringify(after)).toBe(titles.length); // one memory per content, not two
    expect(old.every((h) => after.some((a) => a.title === h.title))).toBe(true);
    expect(search(dir, 'coupon').length).toBeGreaterThan(0);
    expect(projects().filter((p) => p.name === 'cart')).toHaveLength(1);
  });
});

/**
 * Sessions copied from another machine: their working directories are not on this disk, so git's
 * files cannot say which repository they were in. What their own pushes printed can, and the
 * worktrees of one repository are then one project, as they are where the repository is on disk.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { backfill } from './backfill.ts';
import { useFlowStore } from './flow.test-support.ts';

const TREES = '/home/ana/work/shop-worktrees';
const pushed = (branch: string) =>
  `remote:\nremote: Create a pull request for '${branch}' on GitHub by visiting:\nremote:      https://github.com/ana/shop/pull/new/${branch}\nremote:\nTo github.com:ana/shop.git\n * [new branch]      ${branch} -> ${branch}\nbranch '${branch}' set up to track 'origin/${branch}'.`;

function session(id: string, cwd: string, start: string, push: string | null) {
  const s = createClaudeSession({ sessionId: id, cwd, start }).start();
  s.prompt('Fix the flaky cart test and push').bash('npm test', {
    stdout: ' Test Files  3 passed (3)\n      Tests  41 passed (41)',
  });
  if (push !== null) s.bash(`git push -u origin ${push}`, { stdout: pushed(push) });
  return s.say('The cart test passes now.').stop();
}

describe('a backfill of sessions from another machine', () => {
  const ctx = useFlowStore('engram-backfill-identity-');

  it('puts the worktrees of one repository in one project, named by the remote their pushes went to', () => {
    const root = join(ctx.dir, 'claude-projects');
    let day = 0;
    const write = (folder: string, s: ReturnType<typeof session>, id: string) => {
      mkdirSync(join(root, folder), { recursive: true });
      const file = join(root, folder, `${id}.jsonl`);
      writeFileSync(file, s.jsonl());
      // Read oldest first, in the order written here.
      const at = new Date(Date.parse('2026-05-01T00:00:00Z') + ++day * 86_400_000);
      utimesSync(file, at, at);
    };
    const a = 'c1000000-0000-4000-8000-000000000001';
    const b = 'c1000000-0000-4000-8000-000000000002';
    const later = 'c1000000-0000-4000-8000-000000000003';
    const elsewhere = 'c1000000-0000-4000-8000-000000000004';
    write(
      '-home-ana-work-shop-worktrees-cart',
      session(a, `${TREES}/cart`, '2026-05-01T09:00:00Z', 'cart'),
      a,
    );
    write('-home-ana-work-shop-worktrees-tax', session(b, `${TREES}/tax`, '2026-05-02T09:00:00Z', 'tax'), b);
    // A later session in the first worktree that pushed nothing: the directory is known by then.
    write(
      '-home-ana-work-shop-worktrees-cart',
      session(later, `${TREES}/cart`, '2026-05-03T09:00:00Z', null),
      later,
    );
    // A directory nothing says more of stays a project of its own.
    write('-home-ana-notes', session(elsewhere, '/home/ana/notes', '2026-05-04T09:00:00Z', null), elsewhere);

    // A directory whose first session pushed nothing stays one project: a later push there does not split it.
    const first = 'c1000000-0000-4000-8000-000000000005';
    const second = 'c1000000-0000-4000-8000-000000000006';
    write('-home-ana-work-lib', session(first, '/home/ana/work/lib', '2026-05-05T09:00:00Z', null), first);
    write(
      '-home-ana-work-lib',
      session(second, '/home/ana/work/lib', '2026-05-06T09:00:00Z', 'main'),
      second,
    );

    const report = backfill(ctx.store, {
      root,
      distiller: createHeuristicDistiller(),
      now: () => Date.parse('2026-06-01T00:00:00Z'),
    });
    expect(report.errors, JSON.stringify(report.errors)).toEqual([]);
    const projectOf = (id: string) => {
      const s = ctx.store.sessions.get(id);
      return s ? ctx.store.sessions.project(s.projectId) : null;
    };
    expect(projectOf(a)).toMatchObject({ name: 'shop', key: 'git:github.com/ana/shop' });
    expect(projectOf(b)?.id).toBe(projectOf(a)?.id);
    expect(projectOf(later)?.id).toBe(projectOf(a)?.id);
    expect(projectOf(elsewhere)).toMatchObject({ name: 'notes', key: 'path:/home/ana/notes' });
    expect(projectOf(first)).toMatchObject({ key: 'path:/home/ana/work/lib' });
    expect(projectOf(second)?.id).toBe(projectOf(first)?.id);
  });
});

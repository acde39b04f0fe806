import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicDistiller } from '../../src/distill/heuristic-distiller.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore } from '../../src/store/store.ts';
import { backfill, backfillParallel } from '../../src/worker/backfill.ts';
import { CLI_BIN, createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');

interface Report {
  files: number;
  records: number;
  skipped: Record<string, number>;
  created: number;
  sessions: number;
  errors: unknown[];
}
interface Found {
  results: { id: string; type: string; title: string; sessionId: string; createdAt: number }[];
}

describe('engram backfill over real Claude Code transcripts', () => {
  let sb: Sandbox;
  let projects: string;
  beforeAll(() => {
    sb = createSandbox();
    projects = join(sb.root, 'claude-projects');
    cpSync(FIXTURES, join(projects, '-home-USER-projects-spotter'), { recursive: true });
  });
  afterAll(() => sb.cleanup());

  const run = (...args: string[]) => {
    const r = sb.engram(['backfill', '--from', projects, '--json', ...args]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Report;
  };
  const search = (q: string) =>
    JSON.parse(sb.engram(['search', q, '--all', '--json', '--limit', '50']).stdout) as Found;

  it('reads every file without a crash, says what it skipped, and creates sensible memories', () => {
    const dry = run('--dry-run');
    expect(dry.created).toBeGreaterThan(0);
    expect(JSON.parse(sb.engram(['status', '--json']).stdout).counts.observations.active).toBe(0);

    const first = run();
    expect(first).toMatchObject({ files: 6, sessions: 4, errors: [] });
    expect(first.records).toBeGreaterThan(2000);
    expect(first.skipped).toMatchObject({
      progress: expect.any(Number),
      'file-history-snapshot': expect.any(Number),
    });
    expect(first.created).toBeGreaterThanOrEqual(15);

    // A skill's expanded instructions are not the user's words: no preference comes of them.
    expect(search('mockup TBD').results.filter((r) => r.type === 'preference')).toEqual([]);
    // The user's own choice when asked is kept, at its original time.
    const choice = search('credo dialyxir').results.find((r) => r.type === 'decision');
    expect(choice?.title).toBe('Credo + Dialyxir + mix_audit (Which tools should we set up?)');
    expect(choice?.sessionId).toBe('491e126e-1e71-469c-ade2-fcc8af567c74');
    expect(new Date(choice?.createdAt ?? 0).toISOString().slice(0, 10)).toBe('2026-02-10');

    // The push that failed for want of an upstream and then worked is a gotcha with its fix, not open.
    const push = search('push upstream').results;
    expect(push.filter((r) => r.type === 'failed_attempt')).toEqual([]);
    expect(push.find((r) => r.type === 'gotcha')?.title).toMatch(
      /^`git push` fails: The current branch spotter-gqc has no upstream branch\. → `git push --set-upstream origin spotter-gqc`/,
    );

    // The lead-in to writing a test ("Since it calls … I'll test that it mints a token …:") is the
    // next step being narrated, not a decision that outlives it.
    expect(search('tmux launch token').results.filter((r) => r.type === 'decision')).toEqual([]);
    // A new question after an interrupt is not a correction.
    expect(search('xterm scrolling').results.filter((r) => r.type === 'correction')).toEqual([]);

    // The seven-task epic is one memory per commit, titled by the commit, not "[bugfix] Implement …".
    const epic = search('spotter-gqc').results;
    expect(epic.some((r) => r.title === 'Implement spotter-gqc')).toBe(false);
    expect(epic.filter((r) => r.type === 'feature').map((r) => r.title)).toEqual(
      expect.arrayContaining([
        'Add annotation open/closed lifecycle state (spotter-gqc.4)',
        'Close review session by closing all open annotations (spotter-gqc.6)',
      ]),
    );
    expect(search('compacted').results.some((r) => r.title === 'Compacted context summary')).toBe(false);
    expect(
      search('phx server').results.some(
        // The commands card holds how to run the app.
        (r) => r.type === 'fact' && /^Commands: .*\brun `mix phx\.server`/.test(r.title),
      ),
    ).toBe(true);

    const ctx = sb.engram(['context', '--project', '/home/marco/projects/spotter']).stdout;
    expect(ctx).toContain('Last session');
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as { counts: { summaries: number } };
    expect(status.counts.summaries).toBe(4); // one per session, original session ids
    const gqc = sb.engram([
      'context',
      '--project',
      '/home/USER/projects/spotter-worktrees/spotter-gqc',
    ]).stdout;
    expect(gqc).toMatch(/Request: Implement spotter-gqc/);
    expect(gqc).toMatch(/Completed: .*committed "feat: /);

    const metrics = JSON.parse(sb.engram(['metrics', '--json']).stdout) as {
      usage: { byModel: { model: string; output: number; costUsd: number | null }[] };
      capture: { transcripts: { files: number; records: number; badLines: number } };
    };
    expect(metrics.usage.byModel.find((m) => m.model === 'claude-opus-4-6')?.output).toBeGreaterThan(1000);
    expect(metrics.capture.transcripts).toMatchObject({ files: 6, badLines: 0 });
  });

  it('adds nothing the second time, and only what was appended after that', () => {
    expect(run()).toMatchObject({ records: 0, created: 0 });
    const file = join(projects, '-home-USER-projects-spotter', 'short.jsonl');
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', uuid: 'new-1', sessionId: '55604662-cf2a-4331-851a-ec234028f8ca', cwd: '/home/USER/projects/spotter', timestamp: '2026-02-12T10:00:00Z', message: { role: 'user', content: 'From now on, run mix format before every commit' } })}\n`,
    );
    const more = run();
    expect(more).toMatchObject({ records: 1 });
    expect(more.created).toBeGreaterThanOrEqual(1);
    // The appended line is read once, as a standing preference (a new rule is not a correction).
    const titles = search('mix format commit').results.map((r: { title: string }) => r.title);
    expect(titles).toContain('From now on, run mix format before every commit');
    expect(titles.filter((t: string) => t.includes('mix format'))).toHaveLength(1);
  });

  it('resumes an interrupted run to the same result as an uninterrupted one', () => {
    const fresh = createSandbox();
    const interrupted = createSandbox();
    try {
      const distiller = createHeuristicDistiller();
      const inHome = (home: string, fn: (s: ReturnType<typeof createStore>) => void) => {
        mkdirSync(home, { recursive: true });
        const store = createStore(openDatabase(join(home, 'engram.db')));
        fn(store);
        store.close();
      };
      inHome(interrupted.engramHome, (s) =>
        backfill(s, { root: projects, distiller, now: Date.now, limitFiles: 2 }),
      );
      const rest = JSON.parse(
        interrupted.engram(['backfill', '--from', projects, '--json']).stdout,
      ) as Report;
      expect(rest.created).toBeGreaterThan(0);
      fresh.engram(['backfill', '--from', projects, '--json']);
      const titlesOf = (s: Sandbox) =>
        (
          JSON.parse(
            s.engram(['search', 'the a spotter phoenix beads push', '--all', '--json', '--limit', '200'])
              .stdout,
          ) as Found
        ).results
          .map((r) => `${r.type}:${r.title}`)
          .sort();
      expect(titlesOf(interrupted)).toEqual(titlesOf(fresh));
    } finally {
      fresh.cleanup();
      interrupted.cleanup();
    }
  });

  it('survives garbage lines, a truncated last line, a 50 MB line and unknown record types', () => {
    const dir = join(sb.root, 'weird-projects', '-tmp-weird');
    mkdirSync(dir, { recursive: true });
    const rec = (o: object) =>
      JSON.stringify({ sessionId: 'weird-1', cwd: '/tmp/weird', timestamp: '2026-03-01T10:00:00Z', ...o });
    const file = join(dir, 'weird-1.jsonl');
    writeFileSync(
      file,
      [
        rec({ type: 'user', uuid: 'w1', message: { content: 'Always run the linter before committing' } }),
        '{{{ not json',
        rec({ type: 'hologram', uuid: 'w2', payload: [1, 2, 3] }),
        `{"type":"user","blob":"${'z'.repeat(50 * 1024 * 1024)}"}`,
        rec({
          type: 'assistant',
          uuid: 'w3',
          message: {
            id: 'm1',
            model: 'claude-x',
            content: [{ type: 'text', text: 'I will go with eslint because the project already uses it.' }],
            usage: { input_tokens: 3, output_tokens: 4 },
          },
        }),
        '{"type":"user","uuid":"w4","message":{"content":"half a li',
      ].join('\n'),
    );
    const r = sb.engram(['backfill', '--from', join(sb.root, 'weird-projects'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report & { badLines: number };
    expect(report).toMatchObject({ files: 1, records: 3, errors: [] });
    expect(report.badLines).toBe(2); // the garbage line and the 50 MB line
    expect(report.skipped).toMatchObject({ hologram: 1 });
    const found = JSON.parse(sb.engram(['search', 'linter eslint', '--all', '--json']).stdout) as Found;
    // "Always run the linter before committing" is a convention of the workflow (a standing rule);
    // "I will go with eslint because …" is an intention nothing acted on: not a decision (yet).
    expect(found.results.map((x) => x.type).sort()).toEqual(['convention']);
  });

  it('is offered by install, and run by install --backfill', () => {
    const other = createSandbox();
    try {
      cpSync(FIXTURES, join(other.home, '.claude', 'projects', '-home-USER-projects-spotter'), {
        recursive: true,
      });
      const offer = other.engram(['install']);
      expect(offer.stdout).toMatch(/you have 4 earlier Claude Code sessions .* "engram backfill"/);
      const run = other.engram(['install', '--backfill']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/read 6 transcript files \(4 sessions/);
    } finally {
      other.cleanup();
    }
  });

  it('resumes after being killed mid-run, ending where an uninterrupted run ends', async () => {
    const big = join(sb.root, 'many-projects');
    for (let c = 0; c < 24; c++) {
      const dir = join(big, `-home-u-p${c}`);
      cpSync(FIXTURES, dir, { recursive: true });
    }
    const killed = createSandbox();
    const fresh = createSandbox();
    try {
      const child = spawn(process.execPath, [CLI_BIN, 'backfill', '--from', big], {
        env: killed.env,
        stdio: 'ignore',
      });
      await sleep(250);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const partial = JSON.parse(killed.engram(['metrics', '--json']).stdout) as Metrics;
      const resumed = killed.engram(['backfill', '--from', big, '--json']);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(fresh.engram(['backfill', '--from', big, '--json']).status).toBe(0);
      const a = JSON.parse(killed.engram(['metrics', '--json']).stdout) as Metrics;
      const b = JSON.parse(fresh.engram(['metrics', '--json']).stdout) as Metrics;
      expect(partial.capture.transcripts.records).toBeLessThan(b.capture.transcripts.records); // it was interrupted
      expect(a.capture.transcripts).toEqual(b.capture.transcripts);
      expect(a.usage.byModel).toEqual(b.usage.byModel);
      const count = (s: Sandbox) =>
        (
          JSON.parse(s.engram(['status', '--json']).stdout) as {
            counts: { observations: { active: number } };
          }
        ).counts.observations.active;
      expect(count(killed)).toBe(count(fresh));
    } finally {
      killed.cleanup();
      fresh.cleanup();
    }
    // Three backfills of 24 copies of the fixtures (about 70 MB): time enough on a loaded machine.
  }, 120_000);

  it('filters by --since and --project', () => {
    const other = createSandbox();
    try {
      const since = JSON.parse(
        other.engram(['backfill', '--from', projects, '--since', '2999-01-01', '--json']).stdout,
      ) as Report;
      expect(since).toMatchObject({ files: 0, created: 0 });
      const bad = other.engram(['backfill', '--from', projects, '--since', 'yesterdayish']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/--since takes a date/);
      const only = JSON.parse(
        other.engram([
          'backfill',
          '--from',
          projects,
          '--project',
          '/home/USER/projects/spotter-worktrees',
          '--json',
        ]).stdout,
      ) as Report;
      expect(only.sessions).toBe(1);
      expect(only.created).toBeGreaterThan(0);
    } finally {
      other.cleanup();
    }
  });

  it('gives the same result on reader threads as on one thread', async () => {
    const one = createSandbox();
    const two = createSandbox();
    try {
      const open = (sbx: Sandbox) => {
        mkdirSync(sbx.engramHome, { recursive: true });
        return createStore(openDatabase(join(sbx.engramHome, 'engram.db')));
      };
      const a = open(one);
      const b = open(two);
      const options = { root: projects, distiller: createHeuristicDistiller(), now: () => 1_800_000_000_000 };
      const sequential = backfill(a, options);
      const threaded = await backfillParallel(b, {
        ...options,
        threadScript: join(REPO_ROOT, 'dist', 'backfill-thread.mjs'),
        threads: 2,
      });
      expect(threaded).toEqual(sequential);
      const rows = (st: ReturnType<typeof createStore>) =>
        st.db
          .prepare('SELECT type, title, session_id, created_at FROM observations ORDER BY title, type')
          .all();
      expect(rows(b)).toEqual(rows(a));
      a.close();
      b.close();
    } finally {
      one.cleanup();
      two.cleanup();
    }
  });
});

type Metrics = {
  capture: { transcripts: { files: number; records: number; badLines: number } };
  usage: { byModel: unknown[] };
};

/**
 * Regression tests for the foundation defects found on the real bundles: a poisoned inbox, a stale pid
 * file naming another live process, loose file modes, forget leaving text behind, and the change log.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

const statusOf = (sb: Sandbox) =>
  JSON.parse(sb.engram(['status', '--json']).stdout) as {
    worker: { running: boolean; pid: number | null };
    queue: { inbox: number; rejected: number; pending: number; parked: number; done: number };
    counts: { observations: { active: number }; prompts: number };
  };

/** Poll until `check` holds (readiness, not a fixed wait), or fail after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function turn(sb: Sandbox, cwd: string, session: string, prompt: string, answer: string): void {
  const p = payloads(session, cwd);
  expect(sb.hook(p.prompt(prompt)).status).toBe(0);
  expect(
    sb.hook(p.tool('Edit', { file_path: `${cwd}/src/a.ts`, old_string: 'a', new_string: 'b' }, {})).status,
  ).toBe(0);
  expect(sb.hook(p.stop(answer)).status).toBe(0);
}

describe('the foundation', () => {
  let sb: Sandbox;
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        continue; // already gone
      }
    }
    sb?.cleanup();
  });

  it('a wrong-shaped inbox file is set aside with its reason; distillation goes on', () => {
    sb = createSandbox();
    const cwd = sb.project('poisoned');
    turn(
      sb,
      cwd,
      's1',
      'Add input validation to the signup form',
      'Signup now validates emails before saving.',
    );
    // Well-formed JSON of the wrong shape, an older-format record without its event, and garbage.
    writeFileSync(join(sb.engramHome, 'inbox', '000000000000001-1-0-aaaaaa.json'), '{"foo":1}');
    writeFileSync(
      join(sb.engramHome, 'inbox', '000000000000002-1-0-bbbbbb.json'),
      JSON.stringify({ sessionId: 's9', hook: 'Stop', cwd, transcriptPath: null, at: 2, project: {} }),
    );
    writeFileSync(join(sb.engramHome, 'inbox', '000000000000003-1-0-cccccc.json'), '{"sessionId": ');
    const flush = sb.engram(['flush', '--json']);
    expect(flush.status, flush.stderr).toBe(0);
    expect(JSON.parse(flush.stdout)).toMatchObject({ rejected: 3, failures: 0 });
    turn(sb, cwd, 's2', 'Rate-limit the login endpoint', 'Login is limited to 5 tries a minute per IP.');
    expect(sb.engram(['flush']).status).toBe(0);
    const status = statusOf(sb);
    expect(status.queue).toMatchObject({ inbox: 0, rejected: 3, pending: 0, parked: 0 });
    expect(status.counts.observations.active).toBeGreaterThanOrEqual(2);
    expect(readdirSync(join(sb.engramHome, 'inbox', 'rejected')).sort()).toHaveLength(3);
    const log = readFileSync(join(sb.engramHome, 'logs', 'worker.log'), 'utf8');
    expect(log).toMatch(/set aside.*000000000000001.*sessionId is missing/);
    expect(log).toMatch(/000000000000002.*project must have a name, key and root/);
    expect(log).toMatch(/000000000000003.*not readable JSON/);
    expect(sb.engram(['status']).stdout).toMatch(/3 unreadable captured events set aside/);
  });

  it('a stale pid file naming a live unrelated process: capture goes on, that process is never signalled', async () => {
    sb = createSandbox({ ENGRAM_WORKER_AUTOSTART: 'true', ENGRAM_WORKER_POLL_MS: '20' });
    const cwd = sb.project('stale-pid');
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    started.push(bystander.pid as number);
    mkdirSync(sb.engramHome, { recursive: true });
    // What a crashed worker leaves behind once the system reuses its pid: the old format, and the new one.
    writeFileSync(join(sb.engramHome, 'worker.pid'), `${bystander.pid}\n`);
    expect(sb.engram(['worker', 'stop']).stdout).toMatch(/not engram's worker; it was not signalled/);
    writeFileSync(join(sb.engramHome, 'worker.pid'), JSON.stringify({ pid: bystander.pid, start: '1' }));
    expect(statusOf(sb).worker.running).toBe(false);

    // A hook sees no live worker, starts a real one, and it distils the turn.
    turn(
      sb,
      cwd,
      's1',
      'Cache the product list for a minute',
      'The product list is cached for 60 s in memory.',
    );
    await until(() => statusOf(sb).worker.running, 15_000, 'the worker to start');
    const worker = statusOf(sb).worker.pid as number;
    started.push(worker);
    expect(worker).not.toBe(bystander.pid);
    await until(() => statusOf(sb).counts.observations.active > 0, 15_000, 'the turn to be distilled');
    expect(sb.engram(['worker', 'stop']).stdout).toMatch(new RegExp(`worker stopped \\(pid ${worker}\\)`));
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();
    process.kill(bystander.pid as number, 0); // still there
  }, 60_000);

  it('knows a worker started by hand (engram worker run) and stops it', async () => {
    sb = createSandbox();
    const worker = spawn(process.execPath, [CLI_BIN, 'worker', 'run'], { env: sb.env, stdio: 'ignore' });
    started.push(worker.pid as number);
    // Generous bounds: under the full suite's load a worker's start and each `status` take seconds.
    // While the new worker still creates the store, `status` may find it busy (exit 75): not yet seen.
    const seen = () => {
      const r = sb.engram(['status', '--json']);
      if (r.status === 75) return false;
      if (r.status !== 0) throw new Error(`status exited ${r.status}: ${r.stderr}`);
      return (JSON.parse(r.stdout) as { worker: { pid: number | null } }).worker.pid === worker.pid;
    };
    await until(seen, 45_000, 'the worker to be seen');
    expect(sb.engram(['worker', 'stop']).stdout).toMatch(`worker stopped (pid ${worker.pid})`);
    await until(() => worker.exitCode !== null, 30_000, 'the worker to exit');
    expect(worker.exitCode).toBe(0);
  }, 120_000);

  it('a worker started while another process holds the new store’s write lock waits for it, then runs', async () => {
    sb = createSandbox();
    mkdirSync(sb.engramHome, { recursive: true });
    // What another engram process does while it creates the store (its migrations): hold the write lock.
    // Under load that can outlast SQLite's busy timeout; the worker then used to exit (75) unseen.
    const other = new Database(join(sb.engramHome, 'engram.db'));
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    const worker = spawn(process.execPath, [CLI_BIN, 'worker', 'run'], { env: sb.env, stdio: 'ignore' });
    started.push(worker.pid as number);
    try {
      const log = join(sb.engramHome, 'logs', 'worker.log');
      // Held until the worker has found the store busy past its busy timeout (it says so in its log).
      await until(
        () =>
          worker.exitCode !== null || (existsSync(log) && /database is busy/.test(readFileSync(log, 'utf8'))),
        45_000,
        'the worker to find the store busy',
      );
      expect(worker.exitCode, 'the worker gave up on a busy store').toBeNull();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await until(() => statusOf(sb).worker.pid === worker.pid, 45_000, 'the worker to be seen');
    expect(sb.engram(['worker', 'stop']).stdout).toMatch(`worker stopped (pid ${worker.pid})`);
    await until(() => worker.exitCode !== null, 30_000, 'the worker to exit');
    expect(worker.exitCode).toBe(0);
  }, 120_000);

  it('keeps its files private whatever the umask, and forget leaves no trace of the memory’s turn', () => {
    sb = createSandbox();
    const cwd = sb.project('private');
    const secretIdea = 'zanzibar-protocol';
    turn(
      sb,
      cwd,
      's1',
      `Design the ${secretIdea} handshake`,
      `The ${secretIdea} handshake uses three messages.`,
    );
    turn(sb, cwd, 's1', 'Write the README intro', 'The README now opens with what the tool does.');
    expect(sb.engram(['flush']).status).toBe(0);
    for (const file of readdirSync(sb.engramHome).filter((f) => f.startsWith('engram.db')))
      expect((statSync(join(sb.engramHome, file)).mode & 0o777).toString(8), file).toBe('600');
    for (const dir of ['', 'logs'])
      expect((statSync(join(sb.engramHome, dir)).mode & 0o777).toString(8), dir || 'home').toBe('700');

    const hits = JSON.parse(sb.engram(['search', secretIdea, '--json', '--cwd', cwd]).stdout) as {
      results: { id: string; via: string }[];
    };
    // The memories that hold the word (a session neighbour lent a place as context holds other words).
    const holding = hits.results.filter((h) => h.via !== 'context');
    expect(holding.length).toBeGreaterThan(0);
    for (const { id } of holding) expect(sb.engram(['forget', id]).status).toBe(0);
    const dump = sb.engram(['changes', '--json', '--limit', '1000']).stdout;
    expect(dump).not.toContain(secretIdea);
    const db = sb.engram(['search', 'README', '--json', '--cwd', cwd]);
    expect(JSON.parse(db.stdout).results.length).toBeGreaterThan(0); // the other turn stays
    // Its prompt and raw events are gone from the database (not only hidden).
    const status = statusOf(sb);
    expect(status.counts.prompts).toBe(1);
  });

  it('records every mutation once, in order, in the change log', () => {
    sb = createSandbox();
    const cwd = sb.project('changes');
    turn(sb, cwd, 's1', 'Store prices as integer cents', 'Prices are integer cents everywhere now.');
    expect(sb.engram(['flush']).status).toBe(0);
    const id = (
      JSON.parse(sb.engram(['search', 'cents', '--json', '--cwd', cwd]).stdout) as {
        results: { id: string }[];
      }
    ).results[0]?.id as string;
    const before = JSON.parse(sb.engram(['changes', '--json']).stdout) as { next: number };
    expect(sb.engram(['history', id]).stdout).toMatch(/no earlier versions/);
    expect(sb.engram(['restore', id]).status).toBe(1); // nothing to undo yet
    expect(sb.engram(['forget', id]).status).toBe(0);
    const after = JSON.parse(sb.engram(['changes', '--since', String(before.next), '--json']).stdout) as {
      changes: { seq: number; entity: string; entityId: string; op: string; origin: string }[];
    };
    // The forget, after taking the memory out of its session's summary (its title and its turn's
    // prompt: two redactions now that the title is the outcome, not the prompt).
    expect(
      after.changes.map((c) => [c.entity, c.entityId === id ? 'id' : 'session', c.op, c.origin]),
    ).toEqual([
      ['summary', 'session', 'redact', 'cli'],
      ['summary', 'session', 'redact', 'cli'],
      ['memory', 'id', 'forget', 'cli'],
    ]);
    const all = JSON.parse(sb.engram(['changes', '--json', '--limit', '1000']).stdout) as {
      changes: { seq: number; entity: string; entityId: string; op: string; origin: string }[];
    };
    const seqs = all.changes.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const keys = all.changes.map((c) => `${c.seq} ${c.entity} ${c.entityId} ${c.op}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Changes share a seq only as the edges one node gained at once (one row of the log).
    const bySeq = new Map<number, (typeof all.changes)[number][]>();
    for (const c of all.changes) bySeq.set(c.seq, [...(bySeq.get(c.seq) ?? []), c]);
    for (const group of bySeq.values()) {
      if (group.length === 1) continue;
      expect(group.every((c) => c.entity === 'link' && c.op === 'add')).toBe(true);
      expect(new Set(group.map((c) => c.entityId.split(' ')[0])).size).toBe(1);
    }
    expect([...bySeq.values()].some((g) => g.length > 1)).toBe(true);
    expect(all.changes.filter((c) => c.entity === 'memory' && c.op === 'create').length).toBeGreaterThan(0);
    expect(all.changes.every((c) => ['hook', 'cli'].includes(c.origin))).toBe(true);
  });
});

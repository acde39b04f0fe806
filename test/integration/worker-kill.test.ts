import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../../src/core/ids.ts';
import type { CapturedEvent, Project } from '../../src/core/model.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore } from '../../src/store/store.ts';
import { listInbox, writeInbox } from '../../src/store/inbox.ts';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const SESSIONS = 240;
const TOOLS_PER_TURN = 23; // 240 sessions × (prompt + 23 tools + stop) = 6,000 events, a third via the inbox

function fillQueue(dbPath: string, inboxDir: string, projectRoot: string): number {
  const store = createStore(openDatabase(dbPath));
  const project: Project = {
    id: projectIdFromKey(`path:${projectRoot}`),
    name: 'load',
    key: `path:${projectRoot}`,
    root: projectRoot,
  };
  let n = 0;
  store.transaction(() => {
    for (let s = 0; s < SESSIONS; s++) {
      const sessionId = `load-${s}`;
      const add = (event: CapturedEvent) => {
        const at = 1000 + n++;
        if (s % 3 === 0) {
          // As a capture hook leaves it: a file in the inbox, imported by the worker.
          writeInbox(inboxDir, {
            sessionId,
            hook: 'x',
            cwd: projectRoot,
            transcriptPath: null,
            at,
            event,
            project,
          });
          return;
        }
        store.sessions.touch(project, { id: sessionId, cwd: projectRoot, transcriptPath: null }, 'x', at);
        store.events.append({
          sessionId,
          projectId: project.id,
          hook: 'x',
          cwd: projectRoot,
          transcriptPath: null,
          at,
          event,
        });
      };
      add({ kind: 'prompt', prompt: `Implement feature number ${s} in module m${s}` });
      for (let t = 0; t < TOOLS_PER_TURN; t++) {
        if (t % 3 === 0) {
          add({
            kind: 'tool',
            tool: 'Edit',
            input: {
              file_path: `${projectRoot}/src/m${s}/f${t}.ts`,
              old_string: `function a${t}() {}`,
              new_string: `function a${t}() { return ${s}; }`,
            },
            response: {},
          });
        } else if (t % 3 === 1) {
          add({
            kind: 'tool',
            tool: 'Read',
            input: { file_path: `${projectRoot}/src/m${s}/r${t}.ts` },
            response: {},
          });
        } else {
          add({
            kind: 'tool',
            tool: 'Bash',
            input: { command: `npm test -- m${s}` },
            response: { stdout: `Tests: ${t} passed, ${t} total`, stderr: '' },
          });
        }
      }
      add({ kind: 'stop', lastMessage: `Feature ${s} is implemented in src/m${s}.` });
    }
  });
  store.close();
  return n;
}

interface Outcome {
  observations: { hash: string; provenance: string }[];
  events: { pending: number; done: number; parked: number };
  summaries: number;
  prompts: number;
}

function outcome(dbPath: string): Outcome {
  const db = openDatabase(dbPath);
  // Sequence numbers are assigned when an inbox file is imported, so they may differ between runs;
  // each event is identified by its capture time instead (unique in this test).
  const atOf = new Map(
    (db.prepare('SELECT seq, at FROM events').all() as { seq: number; at: number }[]).map((r) => [
      `event:${r.seq}`,
      r.at,
    ]),
  );
  const rows = db
    .prepare('SELECT content_hash AS hash, provenance FROM observations ORDER BY content_hash')
    .all() as {
    hash: string;
    provenance: string;
  }[];
  const result: Outcome = {
    observations: rows.map((r) => ({
      hash: r.hash,
      provenance: JSON.stringify((JSON.parse(r.provenance) as string[]).map((p) => atOf.get(p) ?? p)),
    })),
    events: createStore(db).events.counts(),
    summaries: (db.prepare('SELECT COUNT(*) AS n FROM summaries').get() as { n: number }).n,
    prompts: (db.prepare('SELECT COUNT(*) AS n FROM prompts').get() as { n: number }).n,
  };
  db.close();
  return result;
}

/** The queue as the workers leave it: what is left to do, and how far it has come. */
interface Queue {
  /** Events not distilled yet: pending or parked rows, and inbox files not imported yet. */
  left: number;
  /** Grows with every import (a new row) and every distilled event (a row done); never goes back. */
  moved: number;
}

function queueReader(dbPath: string, inboxDir: string): { read(): Queue; close(): void } {
  const db = openDatabase(dbPath, { readonly: true });
  const counts = db.prepare('SELECT status, COUNT(*) AS n FROM events GROUP BY status');
  return {
    read() {
      const by = new Map((counts.all() as { status: string; n: number }[]).map((r) => [r.status, r.n]));
      const rows = [...by.values()].reduce((a, b) => a + b, 0);
      const done = by.get('done') ?? 0;
      return { left: rows - done + listInbox(inboxDir).length, moved: rows + done };
    },
    close: () => db.close(),
  };
}

/** Poll until `check` holds; past `deadline` (epoch ms) the test fails, saying what it waited for. */
async function until(what: () => string, deadline: number, check: () => boolean): Promise<void> {
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await sleep(10);
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Workers killed mid-drain before the last one is left to finish. */
const KILLS = 12;

describe('a worker killed with SIGKILL over and over', () => {
  let sb: Sandbox;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    sb = createSandbox({ ENGRAM_WORKER_POLL_MS: '10' });
  });
  afterAll(() => {
    for (const child of children) if (!exited(child)) child.kill('SIGKILL');
    sb.cleanup();
  });

  it('loses no event and duplicates nothing while draining thousands of events', async () => {
    // One deadline for the whole drain, far beyond what a loaded machine needs: reaching it is a failure.
    const deadline = Date.now() + 480_000;
    const projectRoot = sb.project('load');
    mkdirSync(sb.engramHome, { recursive: true });
    const db = join(sb.engramHome, 'engram.db');
    const inbox = join(sb.engramHome, 'inbox');
    const total = fillQueue(db, inbox, projectRoot);
    expect(listInbox(inbox).length).toBe((SESSIONS / 3) * (TOOLS_PER_TURN + 2));
    expect(total).toBe(SESSIONS * (TOOLS_PER_TURN + 2));

    // The reference: the same queue drained once, undisturbed, in another home.
    const refHome = join(sb.root, 'reference-home');
    mkdirSync(refHome);
    copyFileSync(db, join(refHome, 'engram.db'));
    cpSync(inbox, join(refHome, 'inbox'), { recursive: true });
    expect(sb.engram(['flush'], { env: { ENGRAM_HOME: refHome } }).status).toBe(0);
    const reference = outcome(join(refHome, 'engram.db'));
    expect(reference.events).toEqual({ pending: 0, done: total, parked: 0 });
    expect(reference.observations.length).toBeGreaterThanOrEqual(SESSIONS);

    const queue = queueReader(db, inbox);
    const startWorker = () => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'cli.mjs'), 'worker', 'run'], {
        env: sb.env,
        stdio: 'ignore',
      });
      children.push(child);
      return child;
    };
    try {
      // Each worker is killed once it has moved the queue on by a few events to a few turns (a number
      // that varies by round): however slow the machine, every round does work, and the kill lands
      // wherever the worker is by then — importing, mid-turn, between turns.
      let kills = 0;
      while (kills < KILLS && queue.read().left > 0) {
        const before = queue.read().moved;
        const step = 1 + ((kills * 37) % 150);
        const child = startWorker();
        await until(
          () => `worker ${kills + 1} to move the queue on by ${step} (moved ${queue.read().moved - before})`,
          deadline,
          () => exited(child) || queue.read().moved - before >= step,
        );
        expect(exited(child), `worker ${kills + 1} exited by itself (${child.exitCode})`).toBe(false);
        child.kill('SIGKILL');
        await until(() => `worker ${kills + 1} to die`, deadline, () => exited(child));
        kills++;
      }
      // Every kill interrupted work: the queue still held events after each one.
      expect(kills).toBe(KILLS);
      expect(queue.read().left).toBeGreaterThan(0);

      // The last worker is left alone until the queue is empty, then stopped as a user would stop it.
      const last = startWorker();
      await until(
        () => `the last worker to drain the queue (${queue.read().left} events left)`,
        deadline,
        () => exited(last) || queue.read().left === 0,
      );
      expect(exited(last), `the last worker exited by itself (${last.exitCode})`).toBe(false);
      last.kill('SIGTERM');
      await until(() => 'the last worker to stop', deadline, () => exited(last));
      expect(last.exitCode).toBe(0);
    } finally {
      queue.close();
    }
    const final = outcome(db);
    expect(listInbox(inbox)).toEqual([]);
    expect(final.events).toEqual({ pending: 0, done: total, parked: 0 });
    expect(final.summaries).toBe(reference.summaries);
    expect(final.prompts).toBe(reference.prompts);
    expect(final.observations).toEqual(reference.observations);
  }, 600_000);
});

import { spawn } from 'node:child_process';
import { cpSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
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

/** Until the worker's pid file names `pid` (it took the lock), or it exited. */
async function waitForWorker(pidFile: string, pid: number, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) return;
    try {
      if ((JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid === pid) return;
    } catch {
      // not written yet (or being replaced): look again
    }
    await sleep(5);
  }
}

describe('a worker killed with SIGKILL over and over', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox({ ENGRAM_WORKER_POLL_MS: '10' });
  });
  afterAll(() => sb.cleanup());

  it('loses no event and duplicates nothing while draining thousands of events', async () => {
    const projectRoot = sb.project('load');
    const pidFile = join(sb.engramHome, 'worker.pid');
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

    let kills = 0;
    for (let round = 0; round < 200; round++) {
      if (outcome(db).events.pending === 0 && listInbox(inbox).length === 0) break;
      const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'cli.mjs'), 'worker', 'run'], {
        env: sb.env,
        stdio: 'ignore',
      });
      // Ready first (its pid file names it: it holds the lock and is draining), then killed a little later,
      // so a slow machine slows the test down instead of killing every worker before it starts.
      await waitForWorker(pidFile, child.pid as number, () => child.exitCode !== null);
      await sleep(20 + ((round * 37) % 150));
      const killed = child.exitCode === null && child.kill('SIGKILL');
      await new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
      );
      // Count only kills that interrupted real work: events were still pending afterwards.
      if (killed && (outcome(db).events.pending > 0 || listInbox(inbox).length > 0)) kills++;
    }
    const final = outcome(db);
    expect(kills, `kills that interrupted work: ${kills}`).toBeGreaterThanOrEqual(3);
    expect(listInbox(inbox)).toEqual([]);
    expect(final.events).toEqual({ pending: 0, done: total, parked: 0 });
    expect(final.summaries).toBe(reference.summaries);
    expect(final.prompts).toBe(reference.prompts);
    expect(final.observations).toEqual(reference.observations);
  }, 180_000);
});

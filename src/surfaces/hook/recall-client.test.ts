/**
 * The hook's side of the recall folder against stand-ins in processes of their own (the hook waits
 * without its event loop, so nothing in this process could answer it meanwhile): what it takes, and
 * each way it gives up and leaves nothing behind. recall-server.test.ts holds the worker's side;
 * test/integration/recall-folder.test.ts both, with the real hook and worker.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_ID } from '../../core/build-id.ts';
import { projectIdFromKey } from '../../core/ids.ts';
import type { PromptQuery } from '../../recall/prompt-query.ts';
import { askWorker } from './recall-client.ts';

const query: PromptQuery = {
  projectId: projectIdFromKey('path:/shop'),
  root: '/shop',
  files: [],
  sessionId: 'now',
  prompt: 'how do the deploy notes work?',
  now: 0,
  budgetTokens: 500,
  maxItems: 3,
  minScore: 0.1,
};
const context = { text: 'stand-in line', tokens: 3, observationIds: ['obs_1'], items: [], dropped: [] };

/**
 * A stand-in worker: watches the folder, takes each question, and answers as `mode` says — `echo` a
 * well-formed answer of the question's build, `cut` a line with no end, `never`, or `die` (exits at the
 * question). Its door goes up once it watches.
 */
const STAND_IN = `
const fs = require('node:fs'); const path = require('node:path');
const [dir, mode, build, context] = process.argv.slice(1);
fs.watch(dir, (e, name) => {
  if (!name || !name.endsWith('.q')) return;
  let line; try { line = fs.readFileSync(path.join(dir, name), 'utf8'); fs.rmSync(path.join(dir, name)); } catch { return; }
  if (mode === 'die') process.exit(0);
  if (mode === 'never') return;
  const req = JSON.parse(line);
  const text = mode === 'cut' ? '{"v":1' : JSON.stringify({ v: req.v, build: req.build, ok: true, context: JSON.parse(context) }) + '\\n';
  const a = path.join(dir, name.slice(0, -2) + '.a');
  fs.writeFileSync(a + '.tmp', text); fs.renameSync(a + '.tmp', a);
});
fs.writeFileSync(path.join(dir, 'door.tmp'), JSON.stringify({ v: 1, pid: process.pid, build }) + '\\n');
fs.renameSync(path.join(dir, 'door.tmp'), path.join(dir, 'door'));
setInterval(() => {}, 1000);
`;

describe('asking the worker through its recall folder (the hook’s side)', () => {
  let dir: string;
  let standIn: ChildProcess | null = null;

  async function startStandIn(
    mode: 'echo' | 'cut' | 'never' | 'die',
    build = BUILD_ID,
  ): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-e', STAND_IN, dir, mode, build, JSON.stringify(context)], {
      stdio: 'ignore',
    });
    standIn = child;
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(dir, 'door'))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the stand-in did not start');
      await sleep(10);
    }
    return child;
  }

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'engram-recall-client-')), 'recall');
    mkdirSync(dir, { mode: 0o700 });
  });
  afterEach(async () => {
    const child = standIn;
    standIn = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('takes a well-formed answer of its own build, and leaves nothing behind', async () => {
    await startStandIn('echo');
    expect(askWorker(dir, query, 20_000)).toEqual({ ok: true, context });
    expect(readdirSync(dir)).toEqual(['door']);
  });

  it('asks nothing when no worker answers there: no door, a dead worker’s door, another build’s', async () => {
    expect(askWorker(dir, query)).toEqual({ ok: false, reason: 'no worker' });
    // A door a killed worker left: its pid is gone.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, 'door'), `${JSON.stringify({ v: 1, pid: gone, build: BUILD_ID })}\n`);
    expect(askWorker(dir, query)).toEqual({ ok: false, reason: 'no worker' });
    writeFileSync(join(dir, 'door'), `${JSON.stringify({ v: 1, pid: process.pid, build: 'other' })}\n`);
    expect(askWorker(dir, query)).toEqual({ ok: false, reason: 'another build answers' });
    writeFileSync(join(dir, 'door'), 'garbage\n');
    expect(askWorker(dir, query)).toEqual({ ok: false, reason: 'a malformed door' });
    expect(readdirSync(dir)).toEqual(['door']);
  });

  it('gives up at once when the worker ends while asked, however long it would have waited', async () => {
    await startStandIn('die');
    expect(askWorker(dir, query, 600_000)).toEqual({ ok: false, reason: 'the worker ended' });
    expect(readdirSync(dir)).toEqual(['door']);
  });

  it('gives up at its time limit, and takes its question back', async () => {
    await startStandIn('never');
    expect(askWorker(dir, query, 50)).toEqual({ ok: false, reason: 'no answer within 50 ms' });
    // The stand-in took the question; no answer came, none is left.
    expect(readdirSync(dir)).toEqual(['door']);
  });

  it('refuses an answer cut short', async () => {
    await startStandIn('cut');
    expect(askWorker(dir, query, 20_000)).toEqual({ ok: false, reason: 'an answer without its line end' });
    expect(readdirSync(dir)).toEqual(['door']);
  });
});

/**
 * A worker that ends while a prompt's hook waits for its answer (killed mid-answer): the real hook
 * bundle, a stand-in at the worker's recall folder that takes the question and exits, and a real store.
 * The hook exits 0 and reads the store itself, printing what it prints with asking turned off.
 * (recall-client.test.ts holds the hook's side of it with no time limit in play.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/capture/project-identity.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore } from '../../src/store/store.ts';
import { draftOf } from '../../src/store/store.test-support.ts';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

const PROMPT = 'why does the invoice rounding in ledgerTotals drift by a cent?';

/** Takes the first question at the door and exits before answering it. */
const ENDS_MID_ANSWER = `
const fs = require('node:fs'); const path = require('node:path');
const [dir, build] = process.argv.slice(1);
fs.watch(dir, (e, name) => {
  if (!name || !name.endsWith('.q')) return;
  try { fs.readFileSync(path.join(dir, name)); fs.rmSync(path.join(dir, name)); } catch { return; }
  process.exit(0);
});
fs.writeFileSync(path.join(dir, 'door.tmp'), JSON.stringify({ v: 1, pid: process.pid, build }) + '\\n');
fs.renameSync(path.join(dir, 'door.tmp'), path.join(dir, 'door'));
setInterval(() => {}, 1000);
`;

async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('a worker that ends while a prompt waits for its answer', () => {
  let sb: Sandbox;
  let cwd: string;
  let recallDir: string;
  let standIn: ChildProcess | null = null;

  beforeAll(() => {
    sb = createSandbox({ ENGRAM_LOG_LEVEL: 'debug', ENGRAM_CONTEXT_PROMPT_MIN_SCORE: '0.1' });
    cwd = sb.project('shop', 'git@github.com:acme/shop.git');
    const project = resolveProject(cwd);
    mkdirSync(sb.engramHome, { recursive: true, mode: 0o700 });
    const store = createStore(openDatabase(join(sb.engramHome, 'engram.db')));
    try {
      const at = Date.now() - 3 * 86_400_000;
      store.memory.create(
        {
          projectId: project.id,
          sessionId: 'earlier',
          source: 'transcript',
          createdAt: at,
          provenance: [],
          draft: draftOf('Invoice rounding drift in ledgerTotals', {
            type: 'discovery',
            trust: 'tool',
            narrative: 'ledgerTotals rounds each line before summing; the invoice drifts by a cent.',
          }),
          pinned: false,
        },
        { origin: 'transcript', at },
      );
    } finally {
      store.close();
    }
    recallDir = join(sb.engramHome, 'recall');
  });
  afterAll(async () => {
    const child = standIn;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    sb.cleanup();
  });

  it('exits 0 and reads the store itself', async () => {
    // The build the hook answers to: the real worker's, from its door.
    const worker = spawn(process.execPath, [CLI_BIN, 'worker', 'run'], { env: sb.env, stdio: 'ignore' });
    const door = join(recallDir, 'door');
    await until(() => existsSync(door) || worker.exitCode !== null, 'the worker’s door');
    const { build } = JSON.parse(readFileSync(door, 'utf8')) as { build: string };
    const stopped = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill();
    await stopped;
    expect(existsSync(door)).toBe(false);

    standIn = spawn(process.execPath, ['-e', ENDS_MID_ANSWER, recallDir, build], { stdio: 'ignore' });
    await until(() => existsSync(door), 'the stand-in’s door');
    const asked = await sb.hookAsync(payloads('asked', cwd).prompt(PROMPT));
    expect(asked.status).toBe(0);
    // The stand-in took the question and ended.
    await until(() => standIn?.exitCode !== null, 'the stand-in to end');
    // The stand-in's door is left, naming a process that is gone: the store again.
    const direct = sb.hook(payloads('direct', cwd).prompt(PROMPT));
    expect(direct.status).toBe(0);
    expect(asked.stdout).toContain('engram: notes recalled');
    expect(asked.stdout).toBe(direct.stdout);
    const log = readFileSync(join(sb.engramHome, 'logs', 'hook.log'), 'utf8');
    const why = /the worker did not answer the prompt; reading the database \{"reason":"([^"]*)"\}/.exec(log);
    // Seen ending at its next check of the worker's pid (or, on a machine too busy to run the
    // stand-in within the time limit, at the limit): either way the store, never a wait past it.
    expect(['the worker ended', 'no answer within 250 ms']).toContain(why?.[1]);
    expect(log).toMatch(/"session":"asked".*"context":"database"/);
  });
});

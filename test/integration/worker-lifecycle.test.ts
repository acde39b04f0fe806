import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

type Status = {
  worker: { running: boolean; pid: number | null };
  queue: { inbox: number; pending: number; done: number };
};

async function until<T>(probe: () => T, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

describe('the background worker', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox({
      ENGRAM_WORKER_AUTOSTART: 'true',
      ENGRAM_WORKER_POLL_MS: '50',
      ENGRAM_WORKER_IDLE_EXIT_SECONDS: '2',
    });
  });
  afterAll(() => {
    sb.engram(['worker', 'stop']);
    sb.cleanup();
  });
  const status = () => JSON.parse(sb.engram(['status', '--json']).stdout) as Status;

  it('is started by a hook, distils without being asked, and exits when idle', async () => {
    const cwd = sb.project('auto');
    const p = payloads('sess-auto', cwd);
    for (const call of [
      p.prompt('Explain the build'),
      p.tool('Read', { file_path: `${cwd}/build.mjs` }, {}),
      p.stop('It uses esbuild.'),
    ]) {
      expect(sb.hook(call).status).toBe(0);
    }
    const distilled = await until(status, (s) => s.queue.done === 3);
    expect(distilled.queue).toMatchObject({ inbox: 0, pending: 0, done: 3 });
    expect(distilled.worker.running).toBe(true);
    expect(readFileSync(join(sb.engramHome, 'logs', 'worker.log'), 'utf8')).toMatch(/worker started/);
    const idle = await until(status, (s) => !s.worker.running);
    expect(idle.worker.running).toBe(false);
    expect(readFileSync(join(sb.engramHome, 'logs', 'worker.log'), 'utf8')).toMatch(/worker idle; exiting/);
  });

  it('starts and stops on command, one instance per home', async () => {
    const start = sb.engram(['worker', 'start'], { env: { ENGRAM_WORKER_IDLE_EXIT_SECONDS: '600' } });
    expect(start.status, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/worker started \(pid \d+\)/);
    expect(sb.engram(['worker', 'start']).stdout).toMatch(/already running/);
    // A second worker started by hand refuses to run beside the first.
    const second = sb.engram(['worker', 'run']);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(/another worker is running/);
    expect(JSON.parse(sb.engram(['worker', 'status', '--json']).stdout)).toMatchObject({ running: true });
    const stop = sb.engram(['worker', 'stop']);
    expect(stop.stdout).toMatch(/worker stopped/);
    expect(JSON.parse(sb.engram(['worker', 'status', '--json']).stdout)).toEqual({
      running: false,
      pid: null,
    });
  });
});

import { readdirSync, readFileSync } from 'node:fs';
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
      // The hook log says who rendered each context (the worker, the snapshot alone, the database).
      ENGRAM_LOG_LEVEL: 'debug',
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

  it('notes the store as it stops, so the next session starts from its snapshot without opening SQLite', async () => {
    const cwd = sb.project('auto');
    const start = sb.engram(['worker', 'start'], { env: { ENGRAM_WORKER_IDLE_EXIT_SECONDS: '600' } });
    expect(start.status, start.stderr).toBe(0);
    const dir = join(sb.engramHome, 'snapshots');
    const read = (name: string): { epoch?: string; state?: string } | null => {
      try {
        return JSON.parse(readFileSync(join(dir, name), 'utf8')) as { epoch?: string; state?: string };
      } catch {
        return null;
      }
    };
    // The worker takes the project's snapshot and notes the store's epoch after its rounds.
    const settled = await until(
      () => {
        const names = (() => {
          try {
            return readdirSync(dir).filter((n) => n.startsWith('prj_'));
          } catch {
            return [];
          }
        })();
        return { mark: read('store-mark.json'), snapshots: names.map(read) };
      },
      // (the note the previous worker left as it stopped is of the closed file: this one notes the log)
      ({ mark, snapshots }) =>
        mark?.state?.startsWith('wal:') === true &&
        snapshots.length > 0 &&
        snapshots.every((x) => x?.epoch === mark.epoch),
    );
    expect(settled.mark?.state).toMatch(/^wal:/);
    expect(sb.engram(['worker', 'stop']).stdout).toMatch(/worker stopped/);
    // Closed, the store is noted by its file, at the same epoch.
    expect(read('store-mark.json')).toEqual({
      state: expect.stringMatching(/^file:/),
      epoch: settled.mark?.epoch,
    });
    const hook = sb.hook(payloads('sess-auto-2', cwd).start());
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('Explain the build');
    const log = readFileSync(join(sb.engramHome, 'logs', 'hook.log'), 'utf8');
    expect(log).toMatch(/"hook":"SessionStart","session":"sess-auto-2"[^\n]*"context":"snapshot"/);
    // Once something is written, the note no longer stands: the next session sees it (read from the
    // database, or from a snapshot the worker the first hook started took since).
    expect(sb.engram(['remember', 'The build output goes to dist/'], { cwd }).status).toBe(0);
    const after = sb.hook(payloads('sess-auto-3', cwd).start());
    expect(JSON.parse(after.stdout).hookSpecificOutput.additionalContext).toContain(
      'The build output goes to dist/',
    );
  });
});

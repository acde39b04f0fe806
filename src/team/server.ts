/**
 * `engram server start`: migrate, bootstrap on an empty database, serve the API until stopped. The
 * server keeps nothing of its own outside PostgreSQL (rate limits and the audit log included), so
 * several instances behind a load balancer can share one database.
 */
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Clock, Logger } from '../core/ports.ts';
import { createTeamApp, type TeamAppMount } from './app.ts';
import { bootstrapAdmin } from './bootstrap.ts';
import { createPool, migrateTeamDatabase, readEpoch } from './database.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.ts';
import { PG_SCHEMA_VERSION } from './migrations/index.ts';
import { ensureSeqBase } from './sync-store.ts';

export interface TeamServerOptions {
  /** A PostgreSQL connection string; or `embedded`, a directory for a PostgreSQL of its own. */
  db?: string | undefined;
  embedded?: string | undefined;
  port: number;
  host: string;
  /** Where the one-time admin token goes when `--db` is used (embedded: `<DIR>/bootstrap-token`). */
  bootstrapFile: string;
  trustProxy: boolean;
  logger: Logger;
  clock: Clock;
  /** Test and benchmark databases: no fsync. */
  fastEmbedded?: boolean;
  /** More routes on the same app (`engram server start` mounts the web view, surfaces/team-web). */
  mount?: TeamAppMount;
}

export interface RunningTeamServer {
  url: string;
  port: number;
  databaseUrl: string;
  /** Where the bootstrap token was written on this start, or null (users existed). */
  bootstrapTokenFile: string | null;
  epoch: string;
  close(): Promise<void>;
}

export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  const { logger, clock } = options;
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = options.db;
  if (options.embedded !== undefined) {
    embedded = await startEmbeddedPostgres(options.embedded, logger, { fast: options.fastEmbedded === true });
    databaseUrl = embedded.url;
    logger.info('embedded PostgreSQL started', { dir: resolve(options.embedded), port: embedded.port });
  }
  if (!databaseUrl) throw new Error('startTeamServer needs db or embedded');
  const pool = createPool(databaseUrl);
  try {
    const migrated = await migrateTeamDatabase(pool);
    if (migrated.from !== migrated.to) logger.info('team database migrated', migrated);
    const rebased = await ensureSeqBase(pool);
    if (rebased !== null)
      logger.warn('sequence numbers rebased above the stored ones (restored database?)', { base: rebased });
    const tokenFile = resolve(
      options.embedded !== undefined ? join(options.embedded, 'bootstrap-token') : options.bootstrapFile,
    );
    const bootstrapTokenFile = await bootstrapAdmin(pool, tokenFile, clock.now());
    if (bootstrapTokenFile) {
      logger.info('bootstrap admin token written (shown nowhere else; delete the file once used)', {
        file: bootstrapTokenFile,
      });
    }
    const epoch = await readEpoch(pool);
    const app = createTeamApp(
      {
        pool,
        clock,
        logger,
        epoch,
        authFailures: { limit: 30, windowMs: 60_000 },
        logins: { limit: 10, windowMs: 60_000 },
        trustProxy: options.trustProxy,
        remoteAddress: (c) => getConnInfo(c).remote.address,
        ready: async () => {
          const r = await pool.query<{ v: number }>('SELECT max(version) AS v FROM engram_migrations');
          return r.rows[0]?.v === PG_SCHEMA_VERSION;
        },
      },
      options.mount,
    );
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host });
    const port = await new Promise<number>((done, fail) => {
      server.once('error', fail);
      server.once('listening', () => done((server.address() as AddressInfo).port));
    });
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
    logger.info('team server listening', { url, epoch });
    return {
      url,
      port,
      databaseUrl,
      bootstrapTokenFile,
      epoch,
      async close() {
        await new Promise<void>((done) => server.close(() => done()));
        await pool.end();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}

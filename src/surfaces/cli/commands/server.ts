/**
 * `engram server start`: the team server in the foreground (dist/team-server.mjs, loaded only here:
 * no other command loads Hono or pg), logging JSON lines to stdout, stopping cleanly on SIGINT/SIGTERM.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngramError } from '../../../core/errors.ts';
import { systemClock } from '../../../core/ports.ts';
import type * as TeamServerModule from '../../team-web/server-entry.ts';
import { createJsonLogger } from '../../json-logger.ts';
import type { CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec } from '../registry.ts';

export interface ServerFlags {
  db?: string | undefined;
  embedded?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  trustProxy: boolean;
  bootstrapFile?: string | undefined;
}

const USAGE =
  'engram server start [--db postgres://…] [--embedded DIR] [--port N] [--host H] [--trust-proxy] [--bootstrap-file PATH]';

export async function serverCommand(
  ctx: CliContext,
  action: string | undefined,
  flags: ServerFlags,
): Promise<number> {
  if (action !== 'start') throw new EngramError('INPUT_INVALID', `usage: ${USAGE}`);
  const db = flags.db ?? ctx.runtime.env['ENGRAM_TEAM_DB'];
  if ((db === undefined) === (flags.embedded === undefined)) {
    throw new EngramError('INPUT_INVALID', 'give exactly one of --db postgres://… or --embedded DIR', {
      hint: USAGE,
    });
  }
  const port = Number(flags.port ?? '8787');
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new EngramError('INPUT_INVALID', '--port takes 0–65535');
  const logger = createJsonLogger((line) => process.stdout.write(line), ctx.runtime.config['log.level']);
  const entry = pathToFileURL(join(ctx.distDir, 'team-server.mjs')).href;
  const { startTeamServer, mountTeamWeb, loadViewerAssets } = (await import(
    entry
  )) as typeof TeamServerModule;
  const server = await startTeamServer({
    db,
    embedded: flags.embedded,
    port,
    host: flags.host ?? '127.0.0.1',
    bootstrapFile: flags.bootstrapFile ?? join(ctx.cwd, 'bootstrap-token'),
    trustProxy: flags.trustProxy,
    logger,
    clock: systemClock,
    // The web view (sign in at the server's own URL) with the viewer's pages and assets.
    mount: mountTeamWeb({ assets: loadViewerAssets(ctx.distDir) }),
  });
  if (server.bootstrapTokenFile)
    ctx.io.err(`bootstrap admin token written to ${server.bootstrapTokenFile}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  logger.info('stopping');
  await server.close();
  return 0;
}

export const serverSpec: CommandSpec = {
  name: 'server',
  group: 'Team',
  summary: 'run the team server in the foreground (PostgreSQL; see README, Team server)',
  usage: 'start [--db postgres://…] [--embedded DIR] [--port N] [--host H]',
  details:
    'With --embedded DIR it runs its own PostgreSQL in DIR (for trying it and for tests). On the first start with an empty database it writes a one-time admin token to <DIR>/bootstrap-token (with --db: ./bootstrap-token, or --bootstrap-file) and says where. Logs are JSON lines on stdout. ENGRAM_TEAM_DB may hold the connection string instead of --db.',
  flags: {
    db: {
      type: 'string',
      value: 'URL',
      description: 'PostgreSQL connection string (the schema owner; requests run as engram_app)',
    },
    embedded: { type: 'string', value: 'DIR', description: 'run a PostgreSQL of its own in DIR' },
    port: { type: 'string', value: 'N', description: 'port to listen on (default 8787; 0 picks a free one)' },
    host: {
      type: 'string',
      value: 'H',
      description: 'address to bind (default 127.0.0.1; put TLS in front with a reverse proxy)',
    },
    'trust-proxy': {
      type: 'boolean',
      description: 'take client addresses from X-Forwarded-For (behind your own proxy only)',
    },
    'bootstrap-file': {
      type: 'string',
      value: 'PATH',
      description: 'where the first admin token goes with --db',
    },
  },
  noJson: true,
  examples: [
    'engram server start --embedded /var/lib/engram',
    'engram server start --db postgres://engram@db/engram --host 0.0.0.0 --port 8787 --trust-proxy',
  ],
  run: (ctx, args) =>
    serverCommand(ctx, args.positionals[0], {
      db: stringFlag(args, 'db'),
      embedded: stringFlag(args, 'embedded'),
      port: stringFlag(args, 'port'),
      host: stringFlag(args, 'host'),
      trustProxy: boolFlag(args, 'trust-proxy'),
      bootstrapFile: stringFlag(args, 'bootstrap-file'),
    }),
};

/**
 * `engram team …`: the command's spec. Its handlers live in dist/team.mjs (src/surfaces/cli/team/), loaded
 * only when the command runs, so no other command loads the team protocol (nor zod).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError } from '../../../core/errors.ts';
import type { Logger } from '../../../core/ports.ts';
import type { Store } from '../../../store/store.ts';
import type { SyncReport } from '../../../worker/team-sync.ts';
import type { CliContext } from '../context.ts';
import { readTeamCredentials } from '../team/team-credentials.ts';
import { boolFlag, intFlag, stringFlag, type CommandSpec } from '../registry.ts';
import { TEAM_ADMIN_USAGE } from '../team/team-admin-usage.ts';
import type * as TeamEntry from '../team/team-entry.ts';

/** dist/team.mjs: the team commands and the worker's sync. */
export async function loadTeamEntry(ctx: CliContext): Promise<typeof TeamEntry> {
  return (await import(pathToFileURL(join(ctx.distDir, 'team.mjs')).href)) as typeof TeamEntry;
}

/**
 * Background team sync for a long-lived engram process (the worker, the viewer), when this machine
 * is logged in to a team server; null otherwise. Processes alive at once take turns (a lease).
 */
export async function backgroundTeamSync(
  ctx: CliContext,
  store: Store,
  logger: Logger,
): Promise<(() => Promise<SyncReport>) | null> {
  let creds;
  try {
    creds = readTeamCredentials(ctx.runtime.paths.teamCredentials);
  } catch (error) {
    // A broken team.json must not stop capture, distillation or the viewer: no sync until it is fixed.
    logger.error('team sync off: cannot read the team login', { error: describeError(error) });
    return null;
  }
  if (!creds) return null;
  const { workerTeamSync } = await loadTeamEntry(ctx);
  return workerTeamSync(
    creds,
    store,
    logger,
    ctx.runtime.config['team.timeoutMs'],
    ctx.runtime.paths.deviceKey,
  );
}

export const teamSpec: CommandSpec = {
  name: 'team',
  group: 'Team',
  summary: 'share memory with a team server: login | share | key | status | sync | mark | unmark | admin',
  usage:
    'login --server URL --token T [--device NAME] | share [--name NAME] [--encrypt] | key create|export|import|rotate|grant|status | status | sync [--dry-run] | device [NAME] | mark|unmark <id…> | admin …',
  details: [
    'login     check the token with the server and keep it in $ENGRAM_HOME/team.json (mode 0600)',
    'share     share this project (opt-in; needs a role there): its distilled memories, summaries and links;',
    '          --name NAME shares it as project NAME (git config engram.project NAME; for a repository whose',
    '          remote is a local path, or that has none): an admin grants --project name:NAME;',
    '          --encrypt makes it end-to-end encrypted (a new project key; the server keeps only ciphertext)',
    'key       the project key of an end-to-end encrypted project: create (wrapped at the next sync for every',
    '          member device enrolled in the project) | export (print it as a line to hand over out of band) |',
    '          import [LINE] (from stdin without LINE) | rotate (a new version, wrapped only for the devices',
    "          still enrolled) | grant NAME (wrap it now for a member's devices, or one device) | status (the",
    '          versions here; each enrolled device, its fingerprint and the versions it holds)',
    'status    the server, your role per shared project, what waits to be pushed, what is held back and why',
    'sync      push, pull and send the project state now (the worker and the viewer also sync every',
    '          team.syncIntervalSeconds while they run); --dry-run shows exactly what would leave this',
    '          machine and what stays, without sending anything',
    'device    this machine\'s name on the server (its host name at login); "device NAME" renames it',
    'mark      share personal preferences (type preference stays private unless marked); unmark stops it',
    '',
    TEAM_ADMIN_USAGE,
  ].join('\n'),
  flags: {
    server: {
      type: 'string',
      value: 'URL',
      description: 'team server address (login; admin without a login)',
    },
    token: { type: 'string', value: 'T', description: 'an egr_ token (login; admin without a login)' },
    'dry-run': { type: 'boolean', description: 'sync: show what would be sent, send nothing' },
    encrypt: { type: 'boolean', description: 'share: end-to-end encrypt the project (a new project key)' },
    cwd: { type: 'string', value: 'DIR', description: 'share: the project directory (default: here)' },
    name: {
      type: 'string',
      value: 'NAME',
      description: 'share: share it as project NAME (name:NAME on the server)',
    },
    user: { type: 'string', value: 'NAME', description: 'admin: the user a token, grant or revoke is for' },
    project: {
      type: 'string',
      value: 'REMOTE',
      description: 'admin: a git remote (any form), name:<project> or prj_ id',
    },
    role: { type: 'string', value: 'ROLE', description: 'admin grant: reader, writer or admin' },
    device: {
      type: 'string',
      value: 'NAME',
      description: 'login: name this machine (default: its host name); admin: the device a new token is for',
    },
    scopes: {
      type: 'string',
      value: 'LIST',
      description: 'admin token create: read,write,admin (default read,write)',
    },
    'expires-days': { type: 'string', value: 'N', description: 'admin token create: expire after N days' },
    admin: { type: 'boolean', description: 'admin user add: a server admin' },
    'password-stdin': { type: 'boolean', description: 'admin user add: read a sign-in password from stdin' },
    verify: { type: 'boolean', description: 'admin audit: recompute the hash chains' },
    limit: { type: 'string', value: 'N', description: 'admin audit: entries to show (default 50)' },
  },
  examples: [
    'engram team login --server https://engram.example.com --token egr_…',
    'engram team share',
    'engram team share --name shop',
    'engram team share --encrypt',
    'engram team key import < key.txt',
    'engram team sync --dry-run',
    'engram team admin --server URL --token T user add alice --json',
    'engram team admin grant --user alice --project git@github.com:acme/app.git --role writer',
    'engram team admin audit --verify',
  ],
  run: async (ctx, args) =>
    (await loadTeamEntry(ctx)).teamCommand(ctx, args.positionals, {
      json: args.json,
      dryRun: boolFlag(args, 'dry-run'),
      encrypt: boolFlag(args, 'encrypt'),
      cwd: stringFlag(args, 'cwd') ?? ctx.cwd,
      name: stringFlag(args, 'name'),
      server: stringFlag(args, 'server'),
      token: stringFlag(args, 'token'),
      user: stringFlag(args, 'user'),
      project: stringFlag(args, 'project'),
      role: stringFlag(args, 'role'),
      device: stringFlag(args, 'device'),
      scopes: stringFlag(args, 'scopes'),
      expiresDays: stringFlag(args, 'expires-days'),
      admin: boolFlag(args, 'admin'),
      passwordStdin: boolFlag(args, 'password-stdin'),
      verify: boolFlag(args, 'verify'),
      limit:
        args.values['limit'] === undefined ? undefined : intFlag(args, 'limit', 50, { min: 1, max: 1000 }),
    }),
};

/**
 * `engram team …`: the command's spec. Its handlers live in dist/team.mjs (src/surfaces/cli/team/), loaded
 * only when the command runs, so no other command loads the team protocol (nor zod).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliContext } from '../context.ts';
import { boolFlag, intFlag, stringFlag, type CommandSpec } from '../registry.ts';
import { TEAM_ADMIN_USAGE } from '../team/team-admin-usage.ts';
import type * as TeamEntry from '../team/team-entry.ts';

/** dist/team.mjs: the team commands and the worker's sync. */
export async function loadTeamEntry(ctx: CliContext): Promise<typeof TeamEntry> {
  return (await import(pathToFileURL(join(ctx.distDir, 'team.mjs')).href)) as typeof TeamEntry;
}

export const teamSpec: CommandSpec = {
  name: 'team',
  group: 'Team',
  summary: 'share memory with a team server: login | share | status | sync | mark | unmark | admin',
  usage: 'login --server URL --token T | share | status | sync [--dry-run] | mark|unmark <id…> | admin …',
  details: [
    'login     check the token with the server and keep it in $ENGRAM_HOME/team.json (mode 0600)',
    'share     share this project (opt-in; needs a role there): its distilled memories, summaries and links',
    'status    the server, your role per shared project, what waits to be pushed, what is held back and why',
    'sync      push and pull now (the worker also does it every team.syncIntervalSeconds); --dry-run shows',
    '          exactly what would leave this machine and what stays, without sending anything',
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
    cwd: { type: 'string', value: 'DIR', description: 'share: the project directory (default: here)' },
    user: { type: 'string', value: 'NAME', description: 'admin: the user a token, grant or revoke is for' },
    project: {
      type: 'string',
      value: 'REMOTE',
      description: 'admin: a git remote (any form), name:<project> or prj_ id',
    },
    role: { type: 'string', value: 'ROLE', description: 'admin grant: reader, writer or admin' },
    device: { type: 'string', value: 'NAME', description: 'admin: the device a new token is for' },
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
    'engram team sync --dry-run',
    'engram team admin --server URL --token T user add alice --json',
    'engram team admin grant --user alice --project git@github.com:acme/app.git --role writer',
    'engram team admin audit --verify',
  ],
  run: async (ctx, args) =>
    (await loadTeamEntry(ctx)).teamCommand(ctx, args.positionals, {
      json: args.json,
      dryRun: boolFlag(args, 'dry-run'),
      cwd: stringFlag(args, 'cwd') ?? ctx.cwd,
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

/**
 * `engram team admin --server URL --token T …`: users, tokens, project roles and the audit log, over
 * the team server's API (without --server/--token: the login of `engram team login`).
 */
import { readFileSync } from 'node:fs';
import { EngramError } from '../../../core/errors.ts';
import { ROLES, SCOPES, type Role, type Scope } from '../../../team/protocol.ts';
import { printJson, type CliContext } from '../context.ts';
import { TEAM_ADMIN_USAGE } from './team-admin-usage.ts';
import { teamApiFor } from './team-api.ts';
import { readTeamCredentials } from './team-credentials.ts';

export interface TeamAdminFlags {
  json: boolean;
  server?: string | undefined;
  token?: string | undefined;
  user?: string | undefined;
  project?: string | undefined;
  role?: string | undefined;
  device?: string | undefined;
  scopes?: string | undefined;
  expiresDays?: string | undefined;
  admin: boolean;
  passwordStdin: boolean;
  verify: boolean;
  limit?: number | undefined;
}

const need = (value: string | undefined, what: string): string => {
  if (!value) throw new EngramError('INPUT_INVALID', `${what} is required`, { hint: TEAM_ADMIN_USAGE });
  return value;
};

const when = (ms: number | null) =>
  ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export async function teamAdminCommand(
  ctx: CliContext,
  args: string[],
  flags: TeamAdminFlags,
): Promise<number> {
  const saved = readTeamCredentials(ctx.runtime.paths.teamCredentials);
  const server = flags.server ?? saved?.server;
  const token = flags.token ?? saved?.token;
  if (!server || !token) {
    throw new EngramError(
      'INPUT_INVALID',
      'which server? give --server URL --token T (or engram team login first)',
      {
        hint: TEAM_ADMIN_USAGE,
      },
    );
  }
  const api = teamApiFor({ server, token }, ctx.runtime.config['team.timeoutMs']);
  const out = (json: unknown, text: string) => (flags.json ? printJson(ctx, json) : ctx.io.out(text));
  const [group, action, name] = args;
  const key = group === 'user' || group === 'token' ? `${group} ${action ?? ''}` : (group ?? '');
  switch (key) {
    case 'user add': {
      const password = flags.passwordStdin ? readFileSync(0, 'utf8').replace(/\r?\n$/, '') : undefined;
      const r = await api.addUser({
        name: need(name, 'a user name'),
        admin: flags.admin,
        ...(flags.device ? { device: flags.device } : {}),
        ...(password !== undefined ? { password } : {}),
      });
      out(
        r,
        `added ${r.user.name}${r.user.admin ? ' (server admin)' : ''}; their token (shown only now):\n${r.token}\n`,
      );
      return 0;
    }
    case 'user list': {
      const users = await api.listUsers();
      out(
        { users },
        users
          .map(
            (u) =>
              `${u.name}${u.admin ? ' (admin)' : ''}  ${u.tokens} tokens  ${u.projects.map((p) => `${p.project.replace(/^git:/, '')}:${p.role}`).join(', ') || 'no projects'}\n`,
          )
          .join(''),
      );
      return 0;
    }
    case 'user remove':
      await api.removeUser(need(name, 'a user name'));
      out({ removed: name }, `removed ${name}: their tokens no longer work\n`);
      return 0;
    case 'token create': {
      const scopes = (flags.scopes ?? 'read,write').split(',').map((s) => s.trim());
      for (const s of scopes) {
        if (!(SCOPES as readonly string[]).includes(s))
          throw new EngramError('INPUT_INVALID', `unknown scope "${s}" (read, write, admin)`);
      }
      const days = flags.expiresDays === undefined ? null : Number(flags.expiresDays);
      if (days !== null && (!Number.isInteger(days) || days < 1))
        throw new EngramError('INPUT_INVALID', '--expires-days takes a whole number of days');
      const r = await api.createToken({
        user: need(flags.user, '--user'),
        scopes: scopes as Scope[],
        expiresInDays: days,
        ...(flags.device ? { device: flags.device } : {}),
      });
      out(
        r,
        `token ${r.id} for ${r.user} on ${r.device} (${r.scopes.join(',')}), shown only now:\n${r.token}\n`,
      );
      return 0;
    }
    case 'token list': {
      const tokens = await api.listTokens(flags.user);
      out(
        { tokens },
        tokens
          .map(
            (t) =>
              `${t.id}  ${t.user}  ${t.device}  ${t.scopes.join(',')}  used ${when(t.lastUsedAt)}  ${t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt < Date.now() ? 'expired' : 'live'}\n`,
          )
          .join(''),
      );
      return 0;
    }
    case 'token revoke':
      await api.revokeToken(need(name, 'a token id'));
      out({ revoked: name }, `revoked ${name}: it stops working now\n`);
      return 0;
    case 'grant': {
      const role = need(flags.role, '--role');
      if (!(ROLES as readonly string[]).includes(role))
        throw new EngramError('INPUT_INVALID', `unknown role "${role}" (reader, writer, admin)`);
      const r = await api.grant({
        user: need(flags.user, '--user'),
        project: need(flags.project, '--project'),
        role: role as Role,
      });
      out(
        r,
        `${r.user} is ${r.role} of ${r.key?.replace(/^git:/, '') ?? r.project} (${r.project})${r.createdProject ? ', a new project on the server' : ''}\n`,
      );
      return 0;
    }
    case 'revoke':
      await api.revoke({ user: need(flags.user, '--user'), project: need(flags.project, '--project') });
      out(
        { revoked: { user: flags.user, project: flags.project } },
        `${flags.user} has no role in ${flags.project} any more\n`,
      );
      return 0;
    case 'audit':
      return flags.verify ? verify(ctx, api, flags) : audit(ctx, api, flags, out);
    default:
      throw new EngramError('INPUT_INVALID', `unknown admin action "${args.join(' ')}"`, {
        hint: TEAM_ADMIN_USAGE,
      });
  }
}

async function audit(
  _ctx: CliContext,
  api: ReturnType<typeof teamApiFor>,
  flags: TeamAdminFlags,
  out: (json: unknown, text: string) => void,
): Promise<number> {
  const entries = await api.audit({
    ...(flags.project ? { project: flags.project } : {}),
    limit: flags.limit ?? 50,
  });
  out(
    { entries },
    entries
      .map(
        (e) =>
          `${when(e.at)}  ${e.chain}#${e.seq}  ${e.user ?? '-'}@${e.device ?? '-'}  ${e.action}${e.target ? ` ${e.target}` : ''}${e.detail ? ` ${e.detail}` : ''}\n`,
      )
      .join(''),
  );
  return 0;
}

async function verify(
  ctx: CliContext,
  api: ReturnType<typeof teamApiFor>,
  flags: TeamAdminFlags,
): Promise<number> {
  const report = await api.verifyAudit();
  if (flags.json) printJson(ctx, report);
  else {
    for (const c of report.chains) {
      ctx.io.out(`${c.ok ? 'ok  ' : 'FAIL'} ${c.chain}: ${c.rows} rows, head ${c.head.slice(0, 16)}\n`);
      for (const p of c.problems) ctx.io.out(`       ${p}\n`);
    }
    ctx.io.out(report.ok ? 'the audit log is intact\n' : 'the audit log was changed outside engram\n');
  }
  return report.ok ? 0 : 1;
}

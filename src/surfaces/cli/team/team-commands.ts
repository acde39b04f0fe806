/**
 * `engram team login | share | status | sync | mark | unmark` (the sync side) and the dispatch to
 * `engram team admin …` (team-admin.ts). In dist/team.mjs: loaded only by `engram team`.
 */
import { execFileSync } from 'node:child_process';
import { hostname } from 'node:os';
import { resolveProject } from '../../../capture/project-identity.ts';
import { describeError, EngramError } from '../../../core/errors.ts';
import type { Project } from '../../../core/model.ts';
import { isLocalPathRemote } from '../../../core/remote-url.ts';
import { fileNodeId } from '../../../graph/node-ids.ts';
import { readGitState } from '../../../worker/git-state.ts';
import { formatAge } from '../../../recall/render-context.ts';
import { planPush, shareProject } from '../../../worker/team-sync.ts';
import { planReviews } from '../../../worker/team-reviews.ts';
import { createFileLogger } from '../../file-logger.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { readTeamCredentials, requireTeamCredentials, writeTeamCredentials } from './team-credentials.ts';
import { teamApiFor, teamSyncFor } from './team-api.ts';
import { teamAdminCommand, type TeamAdminFlags } from './team-admin.ts';
import { created, teamKeyCommand } from './team-key.ts';
import { heldLine } from './team-key-devices.ts';
import { createProjectKey, keyVersionsOf } from '../../../worker/team-keys.ts';

export interface TeamFlags extends TeamAdminFlags {
  json: boolean;
  /** share: share this repository as the project of this name. */
  name?: string | undefined;
  dryRun: boolean;
  cwd: string;
  /** share: make the project end-to-end encrypted (a new project key, unless one is held). */
  encrypt: boolean;
}

const USAGE =
  'engram team login | share [--name NAME] [--encrypt] | key … | status | sync [--dry-run] | device [NAME] | mark <id…> | unmark <id…> | admin …';

export async function teamCommand(ctx: CliContext, args: string[], flags: TeamFlags): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'login':
      return login(ctx, flags);
    case 'share':
      return share(ctx, flags);
    case 'key':
      return teamKeyCommand(ctx, rest, flags);
    case 'device':
      return device(ctx, rest[0], flags);
    case 'status':
      return status(ctx, flags);
    case 'sync':
      return sync(ctx, flags);
    case 'mark':
    case 'unmark':
      return mark(ctx, action, rest, flags);
    case 'admin':
      return teamAdminCommand(ctx, rest, flags);
    default:
      throw new EngramError('INPUT_INVALID', action ? `unknown team action "${action}"` : 'usage: ' + USAGE, {
        hint: `Use: ${USAGE}`,
      });
  }
}

async function login(ctx: CliContext, flags: TeamFlags): Promise<number> {
  if (!flags.server || !flags.token) {
    throw new EngramError('INPUT_INVALID', 'usage: engram team login --server URL --token T');
  }
  const api = teamApiFor({ server: flags.server, token: flags.token }, ctx.runtime.config['team.timeoutMs']);
  const me = await api.me();
  // A token made without a device name is named after this machine; --device names it as asked.
  const device = flags.device ?? (me.token.device === UNNAMED_DEVICE ? hostDeviceName() : me.token.device);
  if (device !== me.token.device) await api.nameDevice(device);
  writeTeamCredentials(ctx.runtime.paths.teamCredentials, {
    server: api.server,
    token: flags.token,
    user: me.user.name,
    device,
  });
  if (flags.json)
    printJson(ctx, {
      server: api.server,
      user: me.user.name,
      device,
      projects: me.projects,
    });
  else {
    ctx.io.out(
      `logged in to ${api.server} as ${me.user.name} (device ${device}); token kept in ${ctx.runtime.paths.teamCredentials}\n`,
    );
    ctx.io.out(
      me.projects.length === 0
        ? 'no project roles yet: ask an admin to grant you one, then run "engram team share" in the project\n'
        : `your projects: ${me.projects.map((p) => `${p.key.replace(/^git:/, '')} (${p.role})`).join(', ')}\n`,
    );
  }
  return 0;
}

/** What the admin API names a token's device when not told (protocol's default). */
const UNNAMED_DEVICE = 'default';

/** This machine's host name as a device name (letters, digits, . _ -; at most 63). */
export function hostDeviceName(host = hostname()): string {
  const name = host
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return name === '' ? 'machine' : name;
}

/** `team device [NAME]`: this machine's device name on the server; with NAME, renamed. */
async function device(ctx: CliContext, name: string | undefined, flags: TeamFlags): Promise<number> {
  const creds = requireTeamCredentials(ctx.runtime.paths.teamCredentials);
  if (name !== undefined) {
    await teamApiFor(creds, ctx.runtime.config['team.timeoutMs']).nameDevice(name);
    writeTeamCredentials(ctx.runtime.paths.teamCredentials, { ...creds, device: name });
  }
  const current = name ?? creds.device;
  if (flags.json) printJson(ctx, { device: current });
  else ctx.io.out(`this machine is ${current} on ${creds.server}\n`);
  return 0;
}

async function share(ctx: CliContext, flags: TeamFlags): Promise<number> {
  const creds = requireTeamCredentials(ctx.runtime.paths.teamCredentials);
  let project = resolveProject(flags.cwd, ctx.runtime.projectLinks);
  let moved = 0;
  if (flags.name !== undefined) ({ project, moved } = shareAsNamed(ctx, project, flags.name, flags.cwd));
  else if (!isShareable(project.key))
    throw new EngramError(
      'INPUT_INVALID',
      `${project.root} has ${project.key.startsWith('git:') ? `a local path as its remote (${project.key.slice(4)})` : 'no remote'}: ` +
        'it would be a different project on every machine',
      {
        hint: 'Share it under a name every clone uses: engram team share --name <name> (an admin grants --project name:<name>).',
      },
    );
  const me = await teamApiFor(creds, ctx.runtime.config['team.timeoutMs']).me();
  const role = me.projects.find((p) => p.id === project.id);
  if (!role) {
    const spec = project.key.replace(/^git:/, '');
    throw new EngramError('FORBIDDEN', `you have no role in ${spec} on ${creds.server}`, {
      hint: `Ask a team admin: engram team admin grant --user ${creds.user} --project ${spec} --role writer`,
    });
  }
  if (moved > 0 && !flags.json)
    ctx.io.out(`moved ${moved} memories of this repository into ${project.name}\n`);
  const queued = withStore(ctx, (store) =>
    shareProject(store, { id: project.id, name: project.name, root: project.root }, ctx.now()),
  );
  // --encrypt: a key made here (one held already, made or imported before, is kept).
  const ring = flags.encrypt
    ? withStore(ctx, (store) =>
        keyVersionsOf(store, project.id) ? null : createProjectKey(store, project.id, ctx.now()),
      )
    : null;
  if (flags.json)
    printJson(ctx, {
      project: project.id,
      key: project.key,
      role: role.role,
      queued,
      ...(flags.encrypt ? { encrypted: true } : {}),
    });
  else {
    ctx.io.out(
      `sharing ${project.name} (${project.key.replace(/^git:/, '')}) as ${role.role}: ${queued} records queued; ` +
        `the worker syncs in the background, "engram team sync" does it now\n` +
        'only distilled memories, summaries and links leave this machine; personal preferences stay private unless you run "engram team mark <id>"\n',
    );
    if (ring) created(ctx, project, flags, ring);
  }
  return 0;
}

/** A project every clone names alike: a named one, or a remote that is not a path on this machine. */
function isShareable(key: string): boolean {
  return key.startsWith('name:') || (key.startsWith('git:') && !isLocalPathRemote(key.slice(4)));
}

/**
 * Name this repository's project (`git config engram.project NAME`, the documented rename) and move
 * what engram already holds of it there, as `engram project move` would.
 */
function shareAsNamed(
  ctx: CliContext,
  before: Project,
  name: string,
  cwd: string,
): { project: Project; moved: number } {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name))
    throw new EngramError('INPUT_INVALID', `--name ${name}: letters, digits, ".", "_" and "-" only`);
  if (before.key.startsWith('path:'))
    throw new EngramError('INPUT_INVALID', `${before.root} is not a git repository`, {
      hint: 'Run it in a git clone (a repository\u2019s project is named by git config engram.project).',
    });
  try {
    execFileSync('git', ['config', 'engram.project', name], { cwd: before.root, stdio: 'pipe' });
  } catch (error) {
    throw new EngramError(
      'INPUT_INVALID',
      `could not run "git config engram.project ${name}": ${describeError(error)}`,
    );
  }
  const project = resolveProject(cwd, ctx.runtime.projectLinks);
  const moved = withStore(ctx, (store) => {
    if (project.id === before.id || store.sessions.project(before.id) === null) return 0;
    const to = { id: project.id, name: project.name, key: project.key, root: project.root };
    return store.memory.moveProject(before.id, to, fileNodeId, { origin: 'cli', at: ctx.now() }).memories;
  });
  return { project, moved };
}

async function status(ctx: CliContext, flags: TeamFlags): Promise<number> {
  const creds = readTeamCredentials(ctx.runtime.paths.teamCredentials);
  let reachable: boolean | null = null;
  let error: string | null = null;
  let roles = new Map<string, string>();
  if (creds) {
    try {
      const me = await teamApiFor(creds, Math.min(5000, ctx.runtime.config['team.timeoutMs'])).me();
      reachable = true;
      roles = new Map(me.projects.map((p) => [p.id, p.role]));
    } catch (e) {
      reachable = false;
      error = describeError(e);
    }
  }
  const local = withStore(ctx, (store) => {
    const counts = store.team.outboxCounts();
    return {
      projects: store.team.projects().map((p) => ({
        id: p.projectId,
        name: p.name,
        role: roles.get(p.projectId) ?? null,
        cursor: p.cursor,
        queued: counts.get(p.projectId) ?? 0,
        lastPushAt: p.lastPushAt,
        lastPullAt: p.lastPullAt,
        lastSyncAt: store.team.syncedAt(p.projectId),
        lastError: p.lastError,
        keyVersions: keyVersionsOf(store, p.projectId) ?? [],
      })),
      blocked: store.team.blocked(),
      conflicts: store.team.conflictCount() / 2,
    };
  });
  const result = {
    server: creds?.server ?? null,
    user: creds?.user ?? null,
    device: creds?.device ?? null,
    reachable,
    error,
    ...local,
  };
  if (flags.json) {
    printJson(ctx, result);
    return 0;
  }
  if (!creds) {
    ctx.io.out('not logged in to a team server (engram team login --server URL --token T)\n');
    return 0;
  }
  ctx.io.out(
    `${creds.server} as ${creds.user} (device ${creds.device}): ${reachable ? 'reachable' : `unreachable — ${error}`}\n`,
  );
  if (local.projects.length === 0) ctx.io.out('no shared projects (run "engram team share" in one)\n');
  for (const p of local.projects) {
    ctx.io.out(
      `  ${p.name} ${p.id} ${p.role ?? 'no role'}${p.keyVersions.length > 0 ? ` (end-to-end encrypted, key v${Math.max(...p.keyVersions)})` : ''}: ${p.lastSyncAt === null ? 'never synced' : `synced ${formatAge(ctx.now() - p.lastSyncAt)}`}, ${p.queued} to push, pulled up to ${p.cursor}` +
        `${p.lastError ? `; last error: ${p.lastError}` : ''}\n`,
    );
  }
  for (const b of local.blocked) ctx.io.out(`  held back: ${b.entity} ${b.entityId}: ${b.reason}\n`);
  if (local.conflicts > 0) ctx.io.out(`  ${local.conflicts} conflicting pairs flagged (both kept)\n`);
  return 0;
}

async function sync(ctx: CliContext, flags: TeamFlags): Promise<number> {
  const creds = requireTeamCredentials(ctx.runtime.paths.teamCredentials);
  if (flags.dryRun) {
    const { plan, reviews, states } = await withStoreAsync(ctx, async (store) => ({
      plan: planPush(store, creds.user),
      // Review decisions for the projects' audit chains (no text: ids, versions, times).
      reviews: planReviews(store),
      // The project state a sync would also send (branch, commit, changed file names).
      states: await Promise.all(
        store.team
          .projects()
          .map(async (p) => ({ project: p.projectId, state: await readGitState(p.root, ctx.now()) })),
      ),
    }));
    const leaving = plan.filter((p) => p.held === null);
    if (flags.json) printJson(ctx, { dryRun: true, server: creds.server, records: plan, reviews, states });
    else {
      ctx.io.out(`would send ${leaving.length} records to ${creds.server}:\n`);
      for (const p of leaving) ctx.io.out(`  ${p.kind} ${p.id}${p.deleted ? ' (erase)' : ''} ${p.title}\n`);
      for (const { project, review } of reviews)
        ctx.io.out(
          `  review decision for ${project}'s audit log: ${review.verdict} ${review.memory} (screen v${review.screen})\n`,
        );
      for (const { project, state } of states) {
        if (state)
          ctx.io.out(
            `  state of ${project}: branch ${state.branch ?? '-'} at ${state.commit ?? '-'}, ${state.fileCount} changed file names\n`,
          );
      }
      const held = plan.filter((p) => p.held !== null);
      if (held.length > 0) ctx.io.out(`kept on this machine:\n`);
      for (const p of held) ctx.io.out(`  ${p.kind} ${p.id}: ${p.held}\n`);
      ctx.io.out('("engram team sync --dry-run --json" shows every record in full)\n');
    }
    return 0;
  }
  const { config, paths } = ctx.runtime;
  const logger = createFileLogger(paths.workerLog, config['log.level'], 'team-sync');
  const report = await withStoreAsync(ctx, (store) =>
    teamSyncFor(creds, store, logger, config['team.timeoutMs'], paths.deviceKey, 'now')(),
  );
  if (flags.json) printJson(ctx, report);
  else {
    const pushed = report.pushed.accepted + report.pushed.duplicate;
    const applied =
      report.applied.created + report.applied.updated + report.applied.merged + report.applied.forgotten;
    ctx.io.out(
      `${report.projects} shared projects: pushed ${pushed}, pulled ${report.pulled} (${applied} changed here)` +
        `${report.conflicts ? `, ${report.conflicts} conflicts kept and flagged` : ''}` +
        `${report.reviews ? `, ${report.reviews} review decisions recorded in the team's audit log` : ''}` +
        `${report.epochReset ? '; the server was reset, everything shared was offered again' : ''}\n`,
    );
    for (const b of report.blocked) ctx.io.out(`  held back ${b.id}: ${b.reason}\n`);
    for (const id of report.readOnly)
      ctx.io.out(`  ${id}: you may only read it; your changes stay on this machine\n`);
    for (const m of report.moved)
      ctx.io.out(
        m.here
          ? `  moved ${m.from} into ${m.name} (${m.to}) on the team server: teammates follow at their next sync\n`
          : `  a teammate moved ${m.from} into ${m.name} (${m.to}): its memories are there on this machine too.\n` +
              `  So that this repository is captured there too, ${identityAdvice(m.key)}\n`,
      );
    for (const k of report.keys) {
      if (k.imported.length > 0)
        ctx.io.out(
          `  ${k.project}: key version ${k.imported.join(', ')} received through the team server (wrapped for this device)\n`,
        );
      for (const w of k.wrapped)
        ctx.io.out(
          `  ${k.project}: key version ${w.versions.join(', ')} wrapped for ${w.user}'s ${w.device}\n`,
        );
      for (const h of k.held ?? []) ctx.io.out(`  ${k.project}: ${heldLine(h)}\n`);
    }
    for (const e of report.errors) ctx.io.err(`  ${e.project}: ${e.error}\n`);
  }
  return report.errors.length > 0 ? 1 : 0;
}

/** What a teammate types to make their clone the moved project too. */
function identityAdvice(key: string): string {
  if (key.startsWith('name:')) return `run in it: git config engram.project ${key.slice(5)}`;
  return `point its origin at the new remote (${key.replace(/^git:/, '')}): git remote set-url origin <its URL>`;
}

async function withStoreAsync<T>(
  ctx: CliContext,
  fn: (store: ReturnType<CliContext['openStore']>) => Promise<T>,
): Promise<T> {
  const store = ctx.openStore();
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

function mark(ctx: CliContext, action: 'mark' | 'unmark', ids: string[], flags: TeamFlags): number {
  if (ids.length === 0) throw new EngramError('INPUT_INVALID', `usage: engram team ${action} <id…>`);
  const changed = withStore(ctx, (store) =>
    store.transaction(() =>
      ids.filter((id) => {
        const o = store.observations.get(id);
        if (!o) throw new EngramError('NOT_FOUND', `no memory with id ${id}`);
        if (action === 'unmark') return store.team.unmark(id);
        const marked = store.team.mark(id, ctx.now());
        if (store.team.project(o.projectId)) store.team.enqueue('memory', id, o.projectId, ctx.now());
        return marked;
      }),
    ),
  );
  if (flags.json) printJson(ctx, { [action === 'mark' ? 'marked' : 'unmarked']: changed });
  else
    ctx.io.out(
      `${action === 'mark' ? 'marked for the team' : 'private again'}: ${changed.join(', ') || 'nothing changed'}\n`,
    );
  return 0;
}

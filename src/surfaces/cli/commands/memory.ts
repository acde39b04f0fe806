/**
 * Reading and correcting memories: `engram search`, `engram show`, `engram forget`, `engram context`.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { namesRoot, resolveProject } from '../../../capture/project-identity.ts';
import { context } from '../../../app/context.ts';
import { search, type SearchResult } from '../../../app/search.ts';
import { timeline } from '../../../app/timeline.ts';
import { EngramError } from '../../../core/errors.ts';
import { OBSERVATION_TYPES, type ObservationType, type Project } from '../../../core/model.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { indexLine } from '../../../recall/render-context.ts';
import { show } from '../../../app/memory-view.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { memoryJson } from '../../memory-json.ts';
import { memoryText } from '../../memory-text.ts';
import { searchHitJson } from '../../search-json.ts';
import {
  boolFlag,
  intFlag,
  needPositionals,
  stringFlag,
  type CommandSpec,
  type FlagSpec,
  type ParsedArgs,
} from '../registry.ts';

export async function searchCommand(
  ctx: CliContext,
  query: string,
  flags: {
    json: boolean;
    /** null: every project. */
    project: Project | null;
    limit: number;
    types: ObservationType[];
    hidden: boolean;
  },
): Promise<number> {
  const { project } = flags;
  const now = ctx.now();
  const { config, env, home } = ctx.runtime;
  // The embedder (embed.provider) is created only here, on demand: plain lexical search loads nothing more.
  const embedder = createEmbedderFromConfig(config, { env, engramHome: home });
  const store = ctx.openStore();
  let result: SearchResult;
  try {
    result = await search(
      { store, embedder, queryTimeoutMs: config['embed.queryTimeoutMs'] },
      {
        query,
        projectId: project?.id ?? null,
        limit: flags.limit,
        now,
        types: flags.types,
        includeHidden: flags.hidden,
      },
    );
  } finally {
    store.close();
  }
  const { mode, vectorError, hits } = result;
  if (flags.json) {
    printJson(ctx, {
      query,
      project: project ? { id: project.id, name: project.name } : null,
      mode,
      ...(embedder ? { embedder: embedder.id, vectorError } : {}),
      results: hits.map(searchHitJson),
    });
    return 0;
  }
  if (embedder && vectorError) ctx.io.err(`(lexical results only: ${vectorError})\n`);
  if (hits.length === 0) {
    ctx.io.out(`no memories match "${query}"${project ? ` in project ${project.name} (try --all)` : ''}\n`);
    return 0;
  }
  // In score order; a memory lent its place by a neighbouring match is context, not a match.
  const lines = hits.map((h) => {
    const line = indexLine(h.memory, now, {
      ...(project ? {} : { showProject: true, projectName: h.project ?? undefined }),
      stale: h.parts.stale ?? undefined,
      team: h.team,
    });
    return h.parts.via === 'context' ? `${line} (context)` : line;
  });
  ctx.io.out(`${lines.join('\n')}\n`);
  return 0;
}

export function timelineCommand(
  ctx: CliContext,
  anchor: string,
  flags: { json: boolean; project: Project; before: number; after: number },
): number {
  const isId = /^obs_/.test(anchor);
  const t = withStore(ctx, (store) =>
    timeline(store, {
      ...(isId ? { id: anchor } : { date: anchor }),
      projectId: flags.project.id,
      before: flags.before,
      after: flags.after,
    }),
  );
  if (flags.json) {
    printJson(ctx, {
      at: t.at,
      anchorId: t.anchorId,
      projectId: t.projectId,
      items: t.items.map((o) => ({
        id: o.id,
        type: o.type,
        status: o.status,
        title: o.title,
        sessionId: o.sessionId,
        createdAt: o.createdAt,
        files: [...new Set([...o.filesModified, ...o.filesRead])],
        tokens: o.tokens,
      })),
    });
    return 0;
  }
  const now = ctx.now();
  if (t.items.length === 0) {
    ctx.io.out(`no memories around ${new Date(t.at).toISOString()} in this project\n`);
    return 0;
  }
  const lines = t.items.map((o) => `${o.id === t.anchorId ? '→' : '-'}${indexLine(o, now).slice(1)}`);
  ctx.io.out(`around ${new Date(t.at).toISOString()}:\n${lines.join('\n')}\n`);
  return 0;
}

export function showCommand(ctx: CliContext, ids: string[], flags: { json: boolean }): number {
  const { found, missing } = withStore(ctx, (store) => show(store, ids));
  if (missing.length > 0) {
    throw new EngramError('NOT_FOUND', `no memory with id ${missing.join(', ')}`, {
      hint: 'Ids look like obs_…; "engram search <words>" lists them.',
    });
  }
  if (flags.json) {
    const withHost = found.map((v) => ({ ...memoryJson(v.memory), host: v.host }));
    printJson(ctx, ids.length === 1 ? withHost[0] : withHost);
    return 0;
  }
  const now = ctx.now();
  const blocks = found.map(({ memory, host }) => memoryText(memory, now, { host }));
  ctx.io.out(`${blocks.join('\n\n')}\n`);
  return 0;
}

export function contextCommand(
  ctx: CliContext,
  flags: { json: boolean; project: Project; source: string; session: string },
): number {
  const { project } = flags;
  const told = withStore(ctx, (store) =>
    context(store, ctx.runtime.config, {
      project,
      source: flags.source,
      sessionId: flags.session,
      now: ctx.now(),
    }),
  );
  if (flags.json) printJson(ctx, told);
  else if (told.excluded)
    ctx.io.out(
      `(project ${project.name} is not captured (projects.include / projects.exclude): nothing is injected)\n`,
    );
  else if (told.text === '') ctx.io.out(`(nothing remembered yet for project ${project.name})\n`);
  else ctx.io.out(`${told.text}\n`);
  return 0;
}

// ---- command specs -------------------------------------------------------------------------------

export const CWD_FLAG: FlagSpec = {
  type: 'string',
  value: 'DIR',
  description: 'the project directory (default: here)',
};

/** "--type decision,bugfix" → the types, each checked. */
function parseTypes(text: string | undefined): ObservationType[] {
  if (text === undefined) return [];
  const types = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of types) {
    if (!(OBSERVATION_TYPES as readonly string[]).includes(t))
      throw new EngramError('INPUT_INVALID', `unknown memory type "${t}"`, {
        hint: `Use one of: ${OBSERVATION_TYPES.join(', ')}.`,
      });
  }
  return types as ObservationType[];
}

export const PROJECT_FLAG: FlagSpec = {
  type: 'string',
  value: 'NAME|ID|PATH',
  description: 'a project engram knows, by name, prj_ id or root path (instead of --cwd)',
};

/**
 * The project a command is about: `--project` names one engram knows (by name, id or root — a Windows
 * root typed with either slash, `namesRoot` —, even if its directory is not on this machine); otherwise
 * the one `--cwd` (default: here) belongs to.
 */
export function projectOf(ctx: CliContext, args: ParsedArgs): Project {
  const wanted = stringFlag(args, 'project');
  if (wanted === undefined) return resolveProject(dirFlag(ctx, args), ctx.runtime.projectLinks);
  const known = withStore(ctx, (store) => store.sessions.projectStats());
  const found = known.filter(
    (p) => p.id === wanted || p.name === wanted || namesRoot(p.root, wanted, ctx.cwd),
  );
  if (found.length === 1) {
    const p = found[0] as (typeof found)[number];
    return (
      withStore(ctx, (store) => store.sessions.project(p.id)) ??
      resolveProject(p.root, ctx.runtime.projectLinks)
    );
  }
  throw new EngramError(
    found.length === 0 ? 'NOT_FOUND' : 'INPUT_INVALID',
    found.length === 0
      ? `no project "${wanted}" in memory`
      : `"${wanted}" names ${found.length} projects: ${found.map((p) => `${p.name} (${p.id})`).join(', ')}`,
    { hint: '"engram status" lists the projects engram knows; use a prj_ id to be exact.' },
  );
}

/** A directory flag that must exist. */
export function dirFlag(ctx: CliContext, args: ParsedArgs, name = 'cwd'): string {
  const dir = resolve(ctx.cwd, stringFlag(args, name) ?? ctx.cwd);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new EngramError('INPUT_INVALID', `--${name}: no such directory: ${dir}`);
  return dir;
}

export const searchSpec: CommandSpec = {
  name: 'search',
  group: 'Memory',
  summary: 'find memories (this project; --all for every project)',
  usage: '<words…> [--all] [--limit N] [--type T,…] [--hidden] [--cwd DIR]',
  details:
    'Words are matched as words ("a phrase" and prefix* work; code identifiers and paths are split). Results come in score order; a result lent by a neighbouring match is marked "(context)".',
  flags: {
    all: { type: 'boolean', description: 'search every project' },
    limit: { type: 'string', value: 'N', description: 'how many results (1–1000, default 10)' },
    type: { type: 'string', value: 'T,…', description: `only these types (${OBSERVATION_TYPES.join(', ')})` },
    hidden: { type: 'boolean', description: 'include superseded, invalidated and archived memories' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: [
    'engram search token refresh',
    'engram search "rate limit" --type decision,bugfix',
    'engram search parseConfig --all --json',
  ],
  run: (ctx, args) =>
    searchCommand(ctx, needPositionals(args, searchSpec).join(' '), {
      json: args.json,
      project: boolFlag(args, 'all') ? null : projectOf(ctx, args),
      limit: intFlag(args, 'limit', 10, { min: 1, max: 1000 }),
      types: parseTypes(stringFlag(args, 'type')),
      hidden: boolFlag(args, 'hidden'),
    }),
};

export const timelineSpec: CommandSpec = {
  name: 'timeline',
  group: 'Memory',
  summary: 'what happened around a memory or a date',
  usage: '<id|date> [--before N] [--after N] [--cwd DIR]',
  flags: {
    before: { type: 'string', value: 'N', description: 'how many earlier memories (0–50, default 5)' },
    after: { type: 'string', value: 'N', description: 'how many later memories (0–50, default 5)' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: ['engram timeline obs_01jf3k2m9x0000000000', 'engram timeline 2026-11-20T14:00 --before 10'],
  run: (ctx, args) =>
    timelineCommand(ctx, needPositionals(args, timelineSpec)[0] as string, {
      json: args.json,
      project: projectOf(ctx, args),
      before: intFlag(args, 'before', 5, { min: 0, max: 50 }),
      after: intFlag(args, 'after', 5, { min: 0, max: 50 }),
    }),
};

export const showSpec: CommandSpec = {
  name: 'show',
  group: 'Memory',
  summary: 'memories in full (text, facts, files, provenance)',
  usage: '<id…>',
  flags: {},
  examples: ['engram show obs_01jf3k2m9x0000000000', 'engram show obs_a obs_b --json'],
  run: (ctx, args) => showCommand(ctx, needPositionals(args, showSpec), { json: args.json }),
};

export const contextSpec: CommandSpec = {
  name: 'context',
  group: 'Memory',
  summary: 'print exactly what a new session in a project would be told',
  usage: '[--cwd DIR | --project P] [--source startup|resume|clear|compact] [--session ID]',
  flags: {
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
    source: { type: 'string', value: 'S', description: 'how the session starts (default startup)' },
    session: { type: 'string', value: 'ID', description: 'the session asking (resume/compact)' },
  },
  examples: ['engram context', 'engram context --cwd ~/code/shop --source resume'],
  run: (ctx, args) => {
    const source = stringFlag(args, 'source') ?? 'startup';
    if (!['startup', 'resume', 'clear', 'compact'].includes(source))
      throw new EngramError(
        'INPUT_INVALID',
        `--source takes startup, resume, clear or compact, not "${source}"`,
      );
    return contextCommand(ctx, {
      json: args.json,
      project: projectOf(ctx, args),
      source,
      session: stringFlag(args, 'session') ?? 'cli',
    });
  },
};

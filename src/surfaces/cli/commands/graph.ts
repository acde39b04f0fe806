/**
 * The memory graph at the command line: `engram query` (the seed's query interface), `engram stale`
 * (re-check anchors, list stale memories) and `engram prune` (retention).
 */
import { EngramError } from '../../../core/errors.ts';
import type { Project } from '../../../core/model.ts';
import {
  loadProjectGraph,
  WORKING_SET,
  type GraphNode,
  type ProjectGraph,
} from '../../../graph/project-graph.ts';
import { pruneProject } from '../../../graph/prune.ts';
import {
  QUERY_STATUSES,
  queryGraph,
  queryHitJson,
  queryHitLine,
  type GraphQuery,
  type QueryHit,
  type QueryStatus,
} from '../../../graph/query.ts';
import { refreshAnchors } from '../../../graph/staleness.ts';
import { projectsOfScope } from '../../../graph/vault-scope.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { hybridSearch } from '../../../recall/hybrid.ts';
import { formatAge } from '../../../recall/render-context.ts';
import type { Store } from '../../../store/store.ts';
import { catchUpGraph } from '../../../worker/graph-pass.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { boolFlag, intFlag, stringFlag, type CommandSpec, type ParsedArgs } from '../registry.ts';
import { parseSince } from './backfill.ts';
import { CWD_FLAG, projectOf, PROJECT_FLAG } from './memory.ts';

export const QUERY_FORMATS = ['summary', 'json', 'full'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

export interface QueryFlags {
  project: Project;
  format: QueryFormat;
  id?: string;
  type?: string;
  tag?: string;
  related?: string;
  recent?: string;
  search?: string;
  status?: string;
  stale: boolean;
  since?: string;
  limit?: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `--recent` may stand alone (10) or take N. */
function recentCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text === '') return 10;
  const n = Number.parseInt(text, 10);
  if (!Number.isInteger(n) || n < 1 || n > 1000 || String(n) !== text.trim())
    throw new EngramError('INPUT_INVALID', `--recent takes a whole number from 1 to 1000, not "${text}"`);
  return n;
}

function status(text: string | undefined): QueryStatus | undefined {
  if (text === undefined) return undefined;
  if ((QUERY_STATUSES as readonly string[]).includes(text)) return text as QueryStatus;
  throw new EngramError('INPUT_INVALID', `--status takes ${QUERY_STATUSES.join(', ')}, not "${text}"`);
}

/** The project an id belongs to (a query by id works from any directory). */
function projectOfId(store: Store, id: string, fallback: Project): Project {
  const memory = store.observations.get(id);
  if (memory) return store.sessions.project(memory.projectId) ?? fallback;
  return fallback;
}

function fullBlock(g: ProjectGraph, h: QueryHit, now: number): string {
  const n: GraphNode = h.node;
  const j = queryHitJson(h);
  const lines = [queryHitLine(h, day)];
  const meta = [`${j.status}`, `made ${formatAge(now - j.created)}`, `updated ${formatAge(now - j.updated)}`];
  if (j.stale && 'stale_reason' in j)
    lines.push(`  STALE since ${day(j.stale_since as number)}: ${String(j.stale_reason)}`);
  lines.push(`  ${meta.join(' · ')}`);
  if (n.kind === 'memory') {
    if (n.memory.narrative) lines.push('', n.memory.narrative);
    if (n.memory.facts.length > 0) lines.push('', ...n.memory.facts.map((f) => `- ${f}`));
  } else if (n.kind === 'file') {
    if (n.file.purpose) lines.push(`  purpose: ${n.file.purpose}`);
    lines.push(`  ${n.file.language || 'unknown language'} · ${n.file.lines} lines · ${n.file.size} bytes`);
    if (n.file.symbols.length > 0) lines.push(`  defines: ${n.file.symbols.join(', ')}`);
  } else if (n.summary) {
    if (n.summary.request) lines.push(`  request: ${n.summary.request}`);
    if (n.summary.completed) lines.push(`  completed: ${n.summary.completed}`);
  }
  if (j.files.length > 0 && n.kind !== 'file') lines.push(`  files: ${j.files.join(', ')}`);
  if (j.tags.length > 0) lines.push(`  tags: ${j.tags.join(', ')}`);
  const title = (id: string) => g.nodes.get(id)?.title ?? id;
  for (const e of g.out.get(n.id) ?? []) lines.push(`  → ${e.kind} ${title(e.to)} (${e.to})`);
  for (const e of g.in.get(n.id) ?? []) lines.push(`  ← ${e.kind} ${title(e.from)} (${e.from})`);
  return lines.join('\n');
}

export async function queryCommand(ctx: CliContext, flags: QueryFlags): Promise<number> {
  const started = performance.now();
  const here = flags.project;
  const query: GraphQuery = {
    ...(flags.id ? { id: flags.id } : {}),
    ...(flags.type ? { type: flags.type } : {}),
    ...(flags.tag ? { tag: flags.tag } : {}),
    ...(flags.related ? { related: flags.related } : {}),
    ...(flags.status ? { status: status(flags.status) as QueryStatus } : {}),
    ...(flags.since ? { since: parseSince(flags.since) } : {}),
    staleOnly: flags.stale,
  };
  const recent = recentCount(flags.recent);
  if (recent !== undefined) query.recent = recent;
  if (flags.limit !== undefined) query.limit = flags.limit;
  const now = ctx.now();
  const store = ctx.openStore();
  let hits: QueryHit[];
  let graph: ProjectGraph;
  try {
    catchUpGraph(store, ctx.runtime.config, now);
    const project = flags.id ? projectOfId(store, flags.id, here) : here;
    if (flags.search !== undefined) {
      const embedder = createEmbedderFromConfig(ctx.runtime.config, {
        env: ctx.runtime.env,
        engramHome: ctx.runtime.home,
      });
      const found = await hybridSearch(store, embedder, {
        query: flags.search,
        projectId: project.id,
        limit: 100,
        now,
        includeHidden: query.status !== undefined && query.status !== 'active',
        queryTimeoutMs: ctx.runtime.config['embed.queryTimeoutMs'],
      });
      query.search = { text: flags.search, memoryIds: found.hits.map((h) => h.observation.id) };
    }
    // The project's working set, plus whatever the query names (an id, search hits, a related memory).
    graph = loadProjectGraph(store, project, {
      includeArchived: query.status === 'archived' || flags.id !== undefined,
      maxMemories: WORKING_SET,
      include: [
        ...(flags.id ? [flags.id] : []),
        ...(query.search?.memoryIds ?? []),
        ...(flags.related?.startsWith('obs_') ? [flags.related] : []),
      ],
    });
    hits = queryGraph(graph, query);
  } finally {
    store.close();
  }
  const ms = Math.round((performance.now() - started) * 10) / 10;
  if (flags.format === 'json') {
    printJson(ctx, { nodes: hits.map(queryHitJson), count: hits.length, query_time_ms: ms });
    return 0;
  }
  if (hits.length === 0) {
    ctx.io.out(`nothing matches in project ${graph.project.name}\n`);
    return flags.id ? 1 : 0;
  }
  if (flags.format === 'full') ctx.io.out(`${hits.map((h) => fullBlock(graph, h, now)).join('\n\n')}\n`);
  else ctx.io.out(`${hits.map((h) => queryHitLine(h, day)).join('\n')}\n`);
  return 0;
}

export function staleCommand(ctx: CliContext, flags: { json: boolean; project: Project }): number {
  const project = flags.project;
  const now = ctx.now();
  const result = withStore(ctx, (store) => {
    catchUpGraph(store, ctx.runtime.config, now);
    const report = refreshAnchors(store, project, { now, origin: 'cli', full: true });
    const stale = [...store.anchors.staleInProject(project.id)].map(([id, mark]) => {
      const m = store.observations.get(id);
      return {
        id,
        type: m?.type ?? '',
        title: m?.title ?? '',
        status: m?.status ?? '',
        since: mark.since,
        reason: mark.reason,
      };
    });
    return { report, stale: stale.filter((s) => s.status !== 'forgotten').sort((a, b) => b.since - a.since) };
  });
  if (flags.json) {
    printJson(ctx, {
      project: { id: project.id, name: project.name },
      checked: result.report.checked,
      followed: result.report.followed,
      newlyStale: result.report.becameStale.map((s) => s.memoryId),
      fresh: result.report.becameFresh,
      stale: result.stale,
    });
    return 0;
  }
  const moved = result.report.followed.filter((f) => f.reason === 'moved');
  ctx.io.out(
    `checked ${result.report.checked} anchors in ${project.name}: ${result.report.followed.length} followed their file` +
      `${moved.length > 0 ? ` (${moved.length} moved)` : ''}, ${result.report.becameStale.length} newly stale, ${result.report.becameFresh.length} fresh again\n`,
  );
  if (result.stale.length === 0) ctx.io.out('no stale memories\n');
  else
    ctx.io.out(
      `${result.stale.length} stale memories (kept, ranked down, never injected as current):\n${result.stale
        .map((s) => `- ${s.id} [${s.type}] ${s.title} · stale since ${day(s.since)} · ${s.reason}`)
        .join('\n')}\n`,
    );
  return 0;
}

export function pruneCommand(
  ctx: CliContext,
  flags: { json: boolean; project: Project | null; dryRun: boolean; max?: number },
): number {
  const maxNodes = flags.max ?? ctx.runtime.config['retention.maxNodes'];
  const now = ctx.now();
  const reports = withStore(ctx, (store) => {
    const projects = flags.project === null ? projectsOfScope(store, 'all') : [flags.project];
    return projects.map((p) => ({
      project: p,
      report: pruneProject(store, p, { maxNodes, dryRun: flags.dryRun, now, origin: 'cli' }),
    }));
  });
  if (flags.json) {
    printJson(ctx, {
      dryRun: flags.dryRun,
      maxNodes,
      projects: reports.map((r) => ({
        id: r.project.id,
        name: r.project.name,
        active: r.report.active,
        archived: r.report.archived,
      })),
    });
    return 0;
  }
  for (const { project, report } of reports) {
    const verb = flags.dryRun ? 'would archive' : 'archived';
    ctx.io.out(
      `${project.name}: ${report.active} active memories, limit ${maxNodes}: ${verb} ${report.archived.length}\n`,
    );
    for (const c of report.archived.slice(0, 50))
      ctx.io.out(`- ${c.id} [${c.type}] ${c.title} · ${c.degree} links · ${day(c.createdAt)}\n`);
    if (report.archived.length > 50) ctx.io.out(`  … and ${report.archived.length - 50} more\n`);
  }
  if (!flags.dryRun && reports.some((r) => r.report.archived.length > 0))
    ctx.io.out(
      'archived memories are hidden from recall, not deleted: "engram restore <id>" brings one back\n',
    );
  return 0;
}

// ---- command specs -------------------------------------------------------------------------------

export const querySpec: CommandSpec = {
  name: 'query',
  group: 'Graph',
  summary: "the memory graph's nodes (memories, files, sessions) by id, type, tag, relation, time, text",
  usage:
    '[--id ID] [--type T] [--tag T] [--related ID|PATH] [--recent [N]] [--search TEXT] [--status S] [--stale] [--since DATE|Nd] [--format summary|json|full]',
  details:
    'Without a selector: the most recently updated active nodes. --related scores links, backlinks, shared files and tags, and says why for each hit. Types: the memory types, file, file-summary, session. summary prints "[type] title - subtitle" lines; json prints {"nodes": […], "count", "query_time_ms"}.',
  flags: {
    id: { type: 'string', value: 'ID', description: 'one node (obs_…, fil_…, ses_…)' },
    type: {
      type: 'string',
      value: 'T',
      description: 'only this type (decision, discovery, error, task, file, file-summary, session, …)',
    },
    tag: { type: 'string', value: 'TAG', description: 'only nodes with this tag (concept)' },
    related: {
      type: 'string',
      value: 'ID|PATH',
      description: 'nodes related to a memory or a file, scored, with why',
    },
    recent: {
      type: 'string',
      value: 'N',
      optionalValue: '10',
      description: 'the N most recently updated (default 10)',
    },
    search: {
      type: 'string',
      value: 'TEXT',
      description: 'memories matching the text (engram search ranks them); files by path or purpose',
    },
    status: {
      type: 'string',
      value: 'S',
      description: `active (default), ${QUERY_STATUSES.slice(1).join(', ')}`,
    },
    stale: { type: 'boolean', description: 'only memories whose code changed since' },
    since: {
      type: 'string',
      value: 'DATE|Nd',
      description: 'only nodes made since a date (2026-01-31) or N days',
    },
    format: { type: 'string', value: 'F', description: 'summary (default), json or full' },
    limit: { type: 'string', value: 'N', description: 'at most N nodes (default 20)' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: [
    'engram query --type decision --recent 5',
    'engram query --related src/store/store.ts',
    'engram query --stale --format json',
    'engram query --search "token refresh" --format full',
  ],
  run: (ctx, args: ParsedArgs) => {
    const format = stringFlag(args, 'format') ?? (args.json ? 'json' : 'summary');
    if (!(QUERY_FORMATS as readonly string[]).includes(format))
      throw new EngramError('INPUT_INVALID', `--format takes ${QUERY_FORMATS.join(', ')}, not "${format}"`);
    const text = (name: string) => {
      const v = stringFlag(args, name);
      return v === undefined ? {} : { [name]: v };
    };
    return queryCommand(ctx, {
      project: projectOf(ctx, args),
      format: format as QueryFormat,
      stale: boolFlag(args, 'stale'),
      ...text('id'),
      ...text('type'),
      ...text('tag'),
      ...text('related'),
      ...text('recent'),
      ...text('search'),
      ...text('status'),
      ...text('since'),
      ...(args.values['limit'] !== undefined
        ? { limit: intFlag(args, 'limit', 20, { min: 1, max: 1000 }) }
        : {}),
    });
  },
};

export const staleSpec: CommandSpec = {
  name: 'stale',
  group: 'Graph',
  summary: "re-check this project's anchors; list memories whose code changed",
  usage: '[--cwd DIR]',
  details:
    'Every memory about a file is anchored to it (its content hash and the lines or definition concerned). A move, a rename or a whitespace-only change updates the anchor silently; a change of the anchored part, or a deleted file, makes the memory stale: kept, shown "stale since", ranked down, never injected as current.',
  flags: { cwd: CWD_FLAG, project: PROJECT_FLAG },
  examples: ['engram stale', 'engram stale --json'],
  run: (ctx, args) => staleCommand(ctx, { json: args.json, project: projectOf(ctx, args) }),
};

export const pruneSpec: CommandSpec = {
  name: 'prune',
  group: 'Graph',
  summary: 'archive the least connected, oldest memories beyond retention.maxNodes (restorable)',
  usage: '[--dry-run] [--max N] [--all]',
  flags: {
    'dry-run': { type: 'boolean', description: 'list what would be archived, change nothing' },
    max: { type: 'string', value: 'N', description: 'the limit (default: retention.maxNodes)' },
    all: { type: 'boolean', description: 'every project' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: ['engram prune --dry-run', 'engram prune --max 300 --all'],
  run: (ctx, args) =>
    pruneCommand(ctx, {
      json: args.json,
      project: boolFlag(args, 'all') ? null : projectOf(ctx, args),
      dryRun: boolFlag(args, 'dry-run'),
      ...(args.values['max'] !== undefined
        ? { max: intFlag(args, 'max', 500, { min: 10, max: 10_000_000 }) }
        : {}),
    }),
};

/**
 * Reading and correcting memories: `engram search`, `engram show`, `engram forget`, `engram context`.
 */
import { resolveProject } from '../../../capture/project-identity.ts';
import { EngramError } from '../../../core/errors.ts';
import type { Observation, ObservationType } from '../../../core/model.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { hybridSearch, type HybridResult } from '../../../recall/hybrid.ts';
import { timeline } from '../../../recall/timeline.ts';
import { formatAge, indexLine, renderSessionContext } from '../../../recall/render-context.ts';
import { printJson, withStore, type CliContext } from '../context.ts';

function observationJson(o: Observation) {
  return {
    id: o.id,
    type: o.type,
    title: o.title,
    subtitle: o.subtitle,
    narrative: o.narrative,
    facts: o.facts,
    concepts: o.concepts,
    filesRead: o.filesRead,
    filesModified: o.filesModified,
    projectId: o.projectId,
    sessionId: o.sessionId,
    source: o.source,
    status: o.status,
    createdAt: o.createdAt,
    tokens: o.tokens,
    provenance: o.provenance,
  };
}

export async function searchCommand(
  ctx: CliContext,
  query: string,
  flags: {
    json: boolean;
    all: boolean;
    limit: number;
    cwd: string;
    types: ObservationType[];
    hidden: boolean;
  },
): Promise<number> {
  const project = flags.all ? null : resolveProject(flags.cwd);
  const now = ctx.now();
  const { config, env, home } = ctx.runtime;
  const options = {
    query,
    projectId: project?.id ?? null,
    limit: flags.limit,
    now,
    types: flags.types,
    includeHidden: flags.hidden,
  };
  // The embedder (embed.provider) is created only here, on demand: plain lexical search loads nothing more.
  const embedder = createEmbedderFromConfig(config, { env, engramHome: home });
  const store = ctx.openStore();
  let result: HybridResult;
  try {
    // Without an embedder, hybridSearch is the lexical search.
    result = await hybridSearch(store, embedder, {
      ...options,
      queryTimeoutMs: config['embed.queryTimeoutMs'],
    });
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
      results: hits.map(({ observation: o, score, via }) => ({
        id: o.id,
        type: o.type,
        status: o.status,
        title: o.title,
        projectId: o.projectId,
        sessionId: o.sessionId,
        createdAt: o.createdAt,
        files: [...new Set([...o.filesModified, ...o.filesRead])],
        tokens: o.tokens,
        score,
        via,
      })),
    });
    return 0;
  }
  if (embedder && vectorError) ctx.io.err(`(lexical results only: ${vectorError})\n`);
  if (hits.length === 0) {
    ctx.io.out(`no memories match "${query}"${project ? ` in project ${project.name} (try --all)` : ''}\n`);
    return 0;
  }
  ctx.io.out(`${hits.map((h) => indexLine(h.observation, now, { project: flags.all })).join('\n')}\n`);
  return 0;
}

export function timelineCommand(
  ctx: CliContext,
  anchor: string,
  flags: { json: boolean; cwd: string; before: number; after: number },
): number {
  const isId = /^obs_/.test(anchor);
  const t = withStore(ctx, (store) =>
    timeline(store, {
      ...(isId ? { id: anchor } : { date: anchor }),
      projectId: resolveProject(flags.cwd).id,
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
  const found = withStore(ctx, (store) => ids.map((id) => ({ id, o: store.observations.get(id) })));
  const missing = found.filter((f) => f.o === null).map((f) => f.id);
  if (missing.length > 0) {
    throw new EngramError('NOT_FOUND', `no memory with id ${missing.join(', ')}`, {
      hint: 'Ids look like obs_…; "engram search <words>" lists them.',
    });
  }
  const list = found.map((f) => f.o as Observation);
  if (flags.json) {
    printJson(ctx, ids.length === 1 ? observationJson(list[0] as Observation) : list.map(observationJson));
    return 0;
  }
  const now = ctx.now();
  const blocks = list.map((o) => {
    const lines = [
      `${o.id} [${o.type}] ${o.title}`,
      `  ${o.status} · ${o.source} · ${formatAge(now - o.createdAt)} · session ${o.sessionId ?? '-'}`,
    ];
    if (o.subtitle) lines.push(`  ${o.subtitle}`);
    if (o.narrative) lines.push('', o.narrative);
    if (o.facts.length > 0) lines.push('', 'Facts:', ...o.facts.map((f) => `- ${f}`));
    if (o.filesModified.length > 0) lines.push('', `Files modified: ${o.filesModified.join(', ')}`);
    if (o.filesRead.length > 0) lines.push(`Files read: ${o.filesRead.join(', ')}`);
    if (o.concepts.length > 0) lines.push(`Concepts: ${o.concepts.join(', ')}`);
    return lines.join('\n');
  });
  ctx.io.out(`${blocks.join('\n\n')}\n`);
  return 0;
}

export function forgetCommand(ctx: CliContext, ids: string[], flags: { json: boolean }): number {
  const results = withStore(ctx, (store) =>
    store.transaction(() =>
      ids.map((id) => ({ id, forgotten: store.memory.forget(id, { origin: 'cli', at: ctx.now() }) })),
    ),
  );
  const missing = results.filter((r) => !r.forgotten).map((r) => r.id);
  if (flags.json) printJson(ctx, { forgotten: results.filter((r) => r.forgotten).map((r) => r.id), missing });
  else for (const r of results) ctx.io.out(r.forgotten ? `forgot ${r.id}\n` : `no memory with id ${r.id}\n`);
  return missing.length > 0 ? 1 : 0;
}

export function contextCommand(
  ctx: CliContext,
  flags: { json: boolean; cwd: string; source: string; session: string },
): number {
  const project = resolveProject(flags.cwd);
  const rendered = withStore(ctx, (store) =>
    renderSessionContext(store, {
      project,
      sessionId: flags.session,
      source: flags.source,
      now: ctx.now(),
      budgetTokens: ctx.runtime.config['context.sessionStartTokens'],
      recentCount: ctx.runtime.config['context.recentCount'],
    }),
  );
  if (flags.json) {
    printJson(ctx, { project: { id: project.id, name: project.name, root: project.root }, ...rendered });
  } else if (rendered.text === '') {
    ctx.io.out(`(nothing remembered yet for project ${project.name})\n`);
  } else {
    ctx.io.out(`${rendered.text}\n`);
  }
  return 0;
}

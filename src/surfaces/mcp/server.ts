/**
 * `engram mcp`: the MCP server (stdio) that lets the agent search, browse and correct its memory.
 * Progressive disclosure: `search` and `timeline` return a compact index; `get_observations` the
 * details. Errors come back as `isError` results that say how to fix the call; every result is kept
 * far below the host's MCP output cap.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { resolveProject } from '../../capture/project-identity.ts';
import { edgeError } from '../../app/edge-errors.ts';
import { hintOf } from '../../core/errors.ts';
import { forget } from '../../app/forget.ts';
import { status, type HealthDeps } from '../../app/health.ts';
import { show } from '../../app/memory-view.ts';
import { statusText } from '../status-text.ts';
import { registerGraphTools } from './graph-tools.ts';
import { checkScope, PROJECT_ARG } from './project-scope.ts';
import type { StaleMark } from '../../core/graph.ts';
import {
  OBSERVATION_TYPES,
  type Observation,
  type ObservationDraft,
  type Project,
  type ProjectLinks,
} from '../../core/model.ts';
import { buildFtsQuery } from '../../recall/fts-query.ts';
import type { Embedder } from '../../core/ports.ts';
import { hybridSearch } from '../../recall/hybrid.ts';
import type { SearchOptions } from '../../recall/search.ts';
import { timeline } from '../../recall/timeline.ts';
import { formatAge, indexLine } from '../../recall/render-context.ts';
import { teamNotesOf } from '../../recall/team-notes.ts';
import type { Store } from '../../store/store.ts';
import { storeKnowledge } from '../../worker/store-knowledge.ts';
import { currentTurnFloor } from '../../worker/turn-floor.ts';

/** Far below Claude Code's 25,000-token MCP cap (and its 10,000-token warning). */
export const MCP_RESULT_CHAR_BUDGET = 16_000;

export interface McpDeps {
  openStore: () => Store;
  cwd: string;
  /** Confirmed `.engram.json` project links. */
  projectLinks?: () => ProjectLinks;
  now: () => number;
  /** The configured embedder (embed.provider): search is hybrid with one, lexical without. */
  embedder?: Embedder | null;
  /** Longest wait for a query's embedding before searching lexically only. */
  queryTimeoutMs?: number;
  /** Where backups are kept: a forget drops those holding the memory (absent: left). */
  backupDir?: string | null;
  /** What the status tool needs beyond the store (absent: no status tool). */
  statusDeps?: () => Omit<HealthDeps, 'store'>;
  /** The capture inbox: `remember` reads what the turn in progress took in (worker/turn-floor). */
  inboxDir?: string;
}

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

function ok(text: string): ToolResult {
  const cut =
    text.length > MCP_RESULT_CHAR_BUDGET
      ? `${text.slice(0, MCP_RESULT_CHAR_BUDGET)}\n… (cut to stay within the output budget; ask for fewer items)`
      : text;
  return { content: [{ type: 'text', text: cut }] };
}

/**
 * A list of items within the output budget: whole items only, and when some do not fit, the ids of
 * those left out, so the model can ask for them.
 */
function okList(header: string, items: { id: string; text: string }[], separator = '\n'): ToolResult {
  const parts: string[] = [header];
  let size = header.length;
  const left: string[] = [];
  for (const item of items) {
    if (left.length === 0 && size + separator.length + item.text.length <= MCP_RESULT_CHAR_BUDGET - 400) {
      parts.push(item.text);
      size += separator.length + item.text.length;
    } else left.push(item.id);
  }
  const text = parts.join(separator);
  if (left.length === 0) return { content: [{ type: 'text', text }] };
  return {
    content: [
      {
        type: 'text',
        text: `${text}\n… ${left.length} more not shown (over the output budget): ${left.slice(0, 40).join(', ')}${left.length > 40 ? ', …' : ''}`,
      },
    ],
  };
}

/** What the model is told about engram when it connects: when to use which tool. */
export const MCP_INSTRUCTIONS = [
  'engram is the memory of earlier sessions in this project: decisions and their reasons, fixes and the errors they fixed, gotchas, conventions, how to build and test, what was left to do.',
  'Before changing something, search for earlier decisions about it (search). When a command or test fails, search the error message: the fix may be known. Results are a compact index; read the few that matter in full with get_observations.',
  'When the user states a preference or a convention, or you make a decision worth keeping, save it with remember (with the reason). If a memory is wrong or outdated, invalidate it with the reason; forget erases one for good.',
  'Before editing a file, related with its path lists what is known about it (and what is touched with it); neighbourhood walks a memory\u2019s links. A memory marked "stale since" describes code that has changed since: check the code before relying on it.',
].join('\n');

function failure(message: string, hint: string): ToolResult {
  return { content: [{ type: 'text', text: `Error: ${message}\nHow to fix: ${hint}` }], isError: true };
}

function details(o: Observation, now: number): string {
  // A quarantined memory's text is for a person to review, never for the agent.
  if (o.review === 'held')
    return `${o.id} [${o.type}] (quarantined: its text awaits a person's review in "engram review" and is not shown)`;
  const lines = [
    `${o.id} [${o.type}] ${o.title}`,
    `${o.status} · ${o.source} · ${formatAge(now - o.createdAt)} · session ${o.sessionId ?? '-'}`,
  ];
  if (o.subtitle) lines.push(o.subtitle);
  if (o.narrative) lines.push('', o.narrative);
  if (o.facts.length > 0) lines.push('', 'Facts:', ...o.facts.map((f) => `- ${f}`));
  if (o.filesModified.length > 0) lines.push(`Files modified: ${o.filesModified.join(', ')}`);
  if (o.filesRead.length > 0) lines.push(`Files read: ${o.filesRead.join(', ')}`);
  return lines.join('\n');
}

const ID = z
  .string()
  .regex(/^obs_[0-9a-z]{20}$/, 'an observation id looks like obs_ followed by 20 characters');

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'engram', version: '0.1.0' }, { instructions: MCP_INSTRUCTIONS });
  const project = (): Project => resolveProject(deps.cwd, deps.projectLinks);
  const withStore = <T>(fn: (store: Store) => T): T => {
    const store = deps.openStore();
    try {
      return fn(store);
    } finally {
      store.close();
    }
  };
  // The one error table (app/edge-errors.ts): the hint comes from the error, else from the table, so
  // a fault on engram's side never tells the model to check its arguments.
  const toFailure = (error: unknown): ToolResult => ({
    content: [{ type: 'text', text: edgeError(error).mcpText }],
    isError: true,
  });
  const guarded =
    <A>(fn: (args: A) => ToolResult) =>
    (args: A): ToolResult => {
      try {
        return fn(args);
      } catch (error) {
        return toFailure(error);
      }
    };
  const guardedAsync =
    <A>(fn: (args: A) => Promise<ToolResult>) =>
    async (args: A): Promise<ToolResult> => {
      try {
        return await fn(args);
      } catch (error) {
        return toFailure(error);
      }
    };
  const embedder = deps.embedder ?? null;
  /** Hybrid when an embedder is configured; hybridSearch answers lexically by itself without one. */
  const search = async (
    options: SearchOptions,
  ): Promise<
    { observation: Observation; context: boolean; stale: StaleMark | null; names: Map<string, string> }[]
  > => {
    const store = deps.openStore();
    try {
      const result = await hybridSearch(store, embedder, {
        ...options,
        ...(deps.queryTimeoutMs ? { queryTimeoutMs: deps.queryTimeoutMs } : {}),
      });
      // Project names only for a search over every project (listing them costs a scan).
      const names = new Map(
        options.projectId === null ? store.sessions.projectStats().map((p) => [p.id as string, p.name]) : [],
      );
      return result.hits.map((h) => ({
        observation: h.observation,
        context: h.via === 'context',
        stale: h.stale,
        names,
      }));
    } finally {
      store.close();
    }
  };

  server.registerTool(
    'search',
    {
      title: 'Search memory',
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        'Full-text search over what earlier sessions learned in this project (decisions, fixes, errors, files, commands). Returns a compact index: id, type, title, files, age and the token cost of reading each in full with get_observations.',
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(2000)
          .describe('Words to look for (code identifiers and file names work).'),
        limit: z.number().int().min(1).max(50).optional().describe('How many results (default 10).'),
        all_projects: z.boolean().optional().describe('Search every project, not only this one.'),
        type: z.enum(OBSERVATION_TYPES).optional().describe('Only memories of this type.'),
        include_hidden: z
          .boolean()
          .optional()
          .describe('Also superseded and invalidated memories (marked as such), e.g. to see what changed.'),
      },
    },
    guardedAsync(
      async ({
        query,
        limit,
        all_projects,
        type,
        include_hidden,
      }: {
        query: string;
        limit?: number;
        all_projects?: boolean;
        type?: (typeof OBSERVATION_TYPES)[number];
        include_hidden?: boolean;
      }) => {
        if (!embedder && !buildFtsQuery(query))
          return failure('the query has no searchable words', 'Use content words, e.g. "token refresh bug".');
        const now = deps.now();
        const hits = await search({
          query,
          projectId: all_projects ? null : project().id,
          limit: limit ?? 10,
          now,
          ...(type ? { types: [type] } : {}),
          includeHidden: include_hidden === true,
        }).then((all) => all.filter((h) => h.observation.review !== 'held'));
        if (hits.length === 0)
          return ok(
            `No memories match "${query}"${all_projects ? '' : ' in this project (try all_projects: true)'}.`,
          );
        // Who on the team wrote each one, and which disagree (shared projects only).
        const notes = withStore((store) =>
          teamNotesOf(
            store,
            hits.map((h) => h.observation),
          ),
        );
        // In score order; a memory lent its place by a neighbouring match is marked as context.
        return okList(
          `${hits.length} memories (id [type] title · files · age · ~tokens in full; read them with get_observations):`,
          hits.map(({ observation: o, context, stale, names }) => ({
            id: o.id,
            text: `${indexLine(o, now, { ...(all_projects ? { showProject: true, projectName: names.get(o.projectId) } : {}), stale: stale ?? undefined, team: notes.get(o.id) })}${context ? ' (context: near a match)' : ''}`,
          })),
        );
      },
    ),
  );

  server.registerTool(
    'timeline',
    {
      title: 'Memory timeline',
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        'What happened in this project around a memory (by id) or a date: the memories just before and after, as a compact index.',
      inputSchema: {
        id: ID.optional().describe('Centre on this memory.'),
        project: PROJECT_ARG,
        date: z
          .string()
          .max(40)
          .optional()
          .describe('Or centre on this date/time (ISO 8601, e.g. 2026-11-20 or 2026-11-20T14:00).'),
        before: z.number().int().min(0).max(30).optional().describe('How many earlier memories (default 5).'),
        after: z.number().int().min(0).max(30).optional().describe('How many later memories (default 5).'),
      },
    },
    guarded(
      ({
        id,
        date,
        before,
        after,
        project: named,
      }: {
        id?: string;
        date?: string;
        before?: number;
        after?: number;
        project?: string;
      }) => {
        const now = deps.now();
        const t = withStore((store) => {
          const anchor = id ? store.observations.get(id) : null;
          if (anchor) checkScope(store, anchor, project(), named);
          return timeline(store, {
            ...(id ? { id } : {}),
            ...(date ? { date } : {}),
            projectId: project().id,
            before: before ?? 5,
            after: after ?? 5,
          });
        });
        if (t.items.length === 0) return ok('No memories in this project around that point.');
        return okList(
          `Around ${new Date(t.at).toISOString()}:`,
          t.items.map((o) => ({
            id: o.id,
            text: `${o.id === t.anchorId ? '→' : '-'}${indexLine(o, now).slice(1)}`,
          })),
        );
      },
    ),
  );

  server.registerTool(
    'get_observations',
    {
      title: 'Read memories in full',
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        'The full text of memories by id (narrative, facts, files), as listed by search or timeline.',
      inputSchema: {
        ids: z.array(ID).min(1).max(20).describe('Ids from search or timeline (at most 20).'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ ids, project: named }: { ids: string[]; project?: string }) => {
      const now = deps.now();
      const here = project();
      // Each id is read only in scope; one of another project says where it is instead.
      const found = withStore((store) => {
        const views = show(store, ids);
        return ids.map((id) => {
          const o = views.found.find((v) => v.memory.id === id)?.memory;
          if (!o) return { id, o: null, outside: null };
          try {
            checkScope(store, o, here, named);
            return { id, o, outside: null };
          } catch (error) {
            return { id, o: null, outside: `${(error as Error).message}; ${hintOf(error)}` };
          }
        });
      });
      const missing = found.filter((f) => !f.o && !f.outside).map((f) => f.id);
      const outside = found.filter((f) => f.outside).map((f) => f.outside as string);
      if (missing.length + outside.length === ids.length)
        return outside.length > 0
          ? failure(outside.join('\n'), 'Read only this project\u2019s memories, or name the other project.')
          : failure(`no memory with id ${missing.join(', ')}`, 'Use ids from a search result.');
      const notes = [
        ...(missing.length > 0 ? [`(not found: ${missing.join(', ')})`] : []),
        ...outside.map((o) => `(${o})`),
      ];
      return okList(
        notes.length > 0 ? notes.join('\n') : `${found.length} memories:`,
        found.filter((f) => f.o).map((f) => ({ id: f.id, text: details(f.o as Observation, now) })),
        '\n\n---\n\n',
      );
    }),
  );

  server.registerTool(
    'get_session_summaries',
    {
      title: 'Session summaries',
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        "Summaries of this project's recent sessions (request, what was learned and completed, next steps, files).",
      inputSchema: {
        limit: z.number().int().min(1).max(20).optional().describe('How many sessions (default 5).'),
      },
    },
    guarded(({ limit }: { limit?: number }) => {
      const now = deps.now();
      const list = withStore((store) => store.summaries.latest(project().id, '', limit ?? 5));
      if (list.length === 0) return ok('No session summaries for this project yet.');
      return okList(
        `${list.length} recent sessions:`,
        list.map((s) => ({
          id: s.sessionId,
          text: [
            `Session ${s.sessionId} (${formatAge(now - s.updatedAt)}${s.final ? '' : ', in progress'})`,
            s.request && `Request: ${s.request}`,
            s.completed && `Completed: ${s.completed}`,
            s.learned && `Learned: ${s.learned}`,
            s.nextSteps && `Next steps: ${s.nextSteps}`,
            s.filesEdited.length > 0 && `Files edited: ${s.filesEdited.join(', ')}`,
          ]
            .filter(Boolean)
            .join('\n'),
        })),
        '\n\n',
      );
    }),
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      description:
        'Save a memory explicitly (a decision with its reason, a preference, a convention, a fact about the project) so later sessions know it. Decisions, preferences and conventions are standing: shown at the start of every session until superseded; a newer one on the same subject supersedes the older.',
      inputSchema: {
        title: z.string().min(3).max(200).describe('One line that says it.'),
        narrative: z.string().max(4000).optional().describe('The details and the why.'),
        type: z.enum(OBSERVATION_TYPES).optional().describe('Default: fact.'),
        facts: z.array(z.string().max(300)).max(20).optional(),
        files: z.array(z.string().max(300)).max(30).optional().describe('Files it concerns.'),
        standing: z
          .boolean()
          .optional()
          .describe(
            'Keep it in every session start index whatever its age (default: yes for decision, preference, convention, correction).',
          ),
      },
    },
    guarded(
      ({
        title,
        narrative,
        type,
        facts,
        files,
        standing,
      }: {
        title: string;
        narrative?: string;
        type?: (typeof OBSERVATION_TYPES)[number];
        facts?: string[];
        files?: string[];
        standing?: boolean;
      }) => {
        const p = project();
        const now = deps.now();
        const ctx = { origin: 'mcp' as const, at: now };
        const draft: ObservationDraft = {
          type: type ?? 'fact',
          title,
          subtitle: '',
          narrative: narrative ?? '',
          facts: facts ?? [],
          concepts: [],
          filesRead: [],
          filesModified: files ?? [],
        };
        const written = withStore((store) => {
          // The agent relays what its turn read: saved after reading a web page, it is external.
          if (currentTurnFloor(store, p, deps.inboxDir) === 'external') draft.trust = 'external';
          return store.transaction(() => {
            store.sessions.touch(p, { id: 'mcp', cwd: deps.cwd, transcriptPath: null }, 'mcp', now);
            const r = storeKnowledge(
              store,
              {
                projectId: p.id,
                sessionId: null,
                source: 'manual',
                byUser: true,
                memories: [{ draft, createdAt: now, provenance: ['mcp:remember'] }],
              },
              ctx,
            );
            const id = r.ids[0] ?? '';
            const memory = store.observations.get(id);
            if (memory && memory.status === 'active' && standing !== undefined)
              store.memory.pin(id, standing, ctx);
            return { r, memory: store.observations.get(id) };
          });
        });
        const { r, memory } = written;
        if (!memory || memory.status === 'forgotten')
          return ok(
            `That memory was forgotten on purpose (${memory?.id ?? 'unknown'}); it is not stored again.`,
          );
        const kept = memory.pinned ? ' It is standing: shown at the start of every session.' : '';
        if (r.created === 0 && r.merged > 0)
          return ok(`The same memory already exists as ${memory.id}; it was marked as seen again.${kept}`);
        const replaced =
          r.superseded > 0 && memory.supersedes ? ` It supersedes ${memory.supersedes} (same subject).` : '';
        return ok(`Remembered as ${memory.id}.${replaced}${kept}`);
      },
    ),
  );

  server.registerTool(
    'invalidate',
    {
      title: 'Mark a memory wrong or outdated',
      // Reversible (engram restore), so not destructive.
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      description:
        'Mark a memory as wrong or no longer true, with the reason; it stops being shown or found.',
      inputSchema: {
        id: ID,
        reason: z.string().min(3).max(500).describe('Why it is wrong or outdated.'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ id, reason, project: named }: { id: string; reason: string; project?: string }) => {
      const changed = withStore((store) => {
        const o = store.observations.get(id);
        if (o && o.status !== 'forgotten') checkScope(store, o, project(), named);
        return store.memory.invalidate(id, reason, { origin: 'mcp', at: deps.now() });
      });
      return ok(changed ? `Invalidated ${id}: ${reason}` : `${id} was already invalidated.`);
    }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description:
        'Erase a memory for good: its text is deleted everywhere engram keeps it and cannot be restored. To mark a memory wrong but keep it, use invalidate.',
      inputSchema: { id: ID, project: PROJECT_ARG },
    },
    guarded(({ id, project: named }: { id: string; project?: string }) => {
      const { forgotten } = withStore((store) => {
        const o = store.observations.get(id);
        if (o && o.status !== 'forgotten') checkScope(store, o, project(), named);
        return forget({ store, backupDir: deps.backupDir ?? null }, [id], () => ({
          origin: 'mcp',
          at: deps.now(),
        }));
      });
      return forgotten.length > 0
        ? ok(`Forgot ${id}.`)
        : failure(`no memory with id ${id} (or it was already forgotten)`, 'Use an id from a search result.');
    }),
  );

  const statusDeps = deps.statusDeps;
  if (statusDeps)
    server.registerTool(
      'status',
      {
        title: 'engram status',
        annotations: { readOnlyHint: true, openWorldHint: false },
        description:
          'Is engram capturing? The worker, the queue and parked turns, configuration problems, memory counts, projects, hosts: what "engram status" prints.',
        inputSchema: {},
      },
      guarded(() => {
        const health = statusDeps();
        const report = withStore((store) => status({ ...health, store }));
        return ok(statusText(report, health.paths, health.now));
      }),
    );

  registerGraphTools(server, { withStore, project, guarded, ok, okList });
  return server;
}

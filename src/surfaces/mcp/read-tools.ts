/**
 * The MCP tools that read memory, each a mapping onto an app verb: `search` and `timeline` (a compact
 * index), `get_observations` (memories in full), `get_session_summaries`, and `history` (a memory's
 * versions).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { history } from '../../app/history.ts';
import { show } from '../../app/memory-view.ts';
import { checkScope } from '../../app/scope.ts';
import { search } from '../../app/search.ts';
import { recentSummaries } from '../../app/session-view.ts';
import { timeline } from '../../app/timeline.ts';
import { EngramError } from '../../core/errors.ts';
import { OBSERVATION_TYPES, type MemorySnapshot } from '../../core/model.ts';
import type { Embedder } from '../../core/ports.ts';
import { formatAge, indexLine } from '../../recall/render-context.ts';
import { memoryText } from '../memory-text.ts';
import { PROJECT_ARG } from './project-scope.ts';
import { guarded, MEMORY_ID, ok, okList, type ToolKit } from './tool-kit.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

function snapshotLine(s: MemorySnapshot): string {
  const status = s.status === 'active' ? '' : ` (${s.status}${s.statusReason ? `: ${s.statusReason}` : ''})`;
  return `[${s.type}] ${s.title}${status}${s.pinned ? ' · pinned' : ''}`;
}

export function registerReadTools(
  server: McpServer,
  kit: ToolKit,
  find: { embedder: Embedder | null; queryTimeoutMs?: number | undefined },
): void {
  server.registerTool(
    'search',
    {
      title: 'Search memory',
      annotations: READ_ONLY,
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
    guarded(async ({ query, limit, all_projects, type, include_hidden }) => {
      const now = kit.now();
      const { hits } = await kit.withStoreAsync((store) =>
        search(
          { store, ...find },
          {
            query,
            projectId: all_projects ? null : kit.project().id,
            limit: limit ?? 10,
            now,
            types: type ? [type] : [],
            includeHidden: include_hidden === true,
            forAgent: true,
          },
        ),
      );
      if (hits.length === 0)
        return ok(
          `No memories match "${query}"${all_projects ? '' : ' in this project (try all_projects: true)'}.`,
        );
      // In score order; a memory lent its place by a neighbouring match is marked as context.
      return okList(
        `${hits.length} memories (id [type] title · files · age · ~tokens in full; read them with get_observations):`,
        hits.map((h) => ({
          id: h.memory.id,
          text: `${indexLine(h.memory, now, { ...(all_projects ? { showProject: true, projectName: h.project ?? undefined } : {}), stale: h.parts.stale ?? undefined, team: h.team })}${h.parts.via === 'context' ? ' (context: near a match)' : ''}`,
        })),
      );
    }),
  );

  server.registerTool(
    'timeline',
    {
      title: 'Memory timeline',
      annotations: READ_ONLY,
      description:
        'What happened in this project around a memory (by id) or a date: the memories just before and after, as a compact index.',
      inputSchema: {
        id: MEMORY_ID.optional().describe('Centre on this memory.'),
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
    guarded(({ id, date, before, after, project }) => {
      const now = kit.now();
      const t = kit.withStore((store) =>
        timeline(
          store,
          { id, date, projectId: kit.project().id, before: before ?? 5, after: after ?? 5 },
          kit.scope(project),
        ),
      );
      if (t.items.length === 0) return ok('No memories in this project around that point.');
      return okList(
        `Around ${new Date(t.at).toISOString()}:`,
        t.items.map((o) => ({
          id: o.id,
          text: `${o.id === t.anchorId ? '→' : '-'}${indexLine(o, now).slice(1)}`,
        })),
      );
    }),
  );

  server.registerTool(
    'get_observations',
    {
      title: 'Read memories in full',
      annotations: READ_ONLY,
      description:
        'The full text of memories by id (narrative, facts, files), as listed by search or timeline.',
      inputSchema: {
        ids: z.array(MEMORY_ID).min(1).max(20).describe('Ids from search or timeline (at most 20).'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ ids, project }) => {
      const now = kit.now();
      // Each id is read only in scope; one of another project says where it is instead.
      const { found, missing, outside } = kit.withStore((store) => {
        const views = show(store, ids);
        const outside: string[] = [];
        const inScope = views.found.filter(({ memory }) => {
          try {
            checkScope(store, memory, kit.scope(project));
            return true;
          } catch (error) {
            outside.push(`${(error as Error).message}; ${(error as EngramError).hint ?? ''}`);
            return false;
          }
        });
        return { found: inScope, missing: views.missing, outside };
      });
      if (found.length === 0)
        throw outside.length > 0
          ? new EngramError('INPUT_INVALID', outside.join('\n'), {
              hint: 'Read only this project\u2019s memories, or name the other project.',
            })
          : new EngramError('NOT_FOUND', `no memory with id ${missing.join(', ')}`, {
              hint: 'Use ids from a search result.',
            });
      const notes = [
        ...(missing.length > 0 ? [`(not found: ${missing.join(', ')})`] : []),
        ...outside.map((o) => `(${o})`),
      ];
      return okList(
        notes.length > 0 ? notes.join('\n') : `${found.length} memories:`,
        found.map(({ memory, host }) => ({
          id: memory.id,
          text: memoryText(memory, now, { host, forAgent: true }),
        })),
        '\n\n---\n\n',
      );
    }),
  );

  server.registerTool(
    'get_session_summaries',
    {
      title: 'Session summaries',
      annotations: READ_ONLY,
      description:
        "Summaries of this project's recent sessions (request, what was learned and completed, next steps, files).",
      inputSchema: {
        limit: z.number().int().min(1).max(20).optional().describe('How many sessions (default 5).'),
      },
    },
    guarded(({ limit }) => {
      const now = kit.now();
      const list = kit.withStore((store) => recentSummaries(store, kit.project().id, limit ?? 5));
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
    'history',
    {
      title: 'A memory’s versions',
      annotations: READ_ONLY,
      description:
        'A memory’s earlier versions, newest first, and what changed each (an edit, invalidate, pin …).',
      inputSchema: { id: MEMORY_ID, project: PROJECT_ARG },
    },
    guarded(({ id, project }) => {
      const now = kit.now();
      const { current, versions } = kit.withStore((store) => history(store, id, kit.scope(project)));
      return ok(
        [
          `${id} v${current.version} (current, changed ${formatAge(now - current.modifiedAt)}): ${snapshotLine(current)}`,
          ...versions.map(
            (v) =>
              `  v${v.version}: ${snapshotLine(v.snapshot)} — replaced by ${v.replacedByOp} (${v.origin}) ${formatAge(now - v.replacedAt)}`,
          ),
          versions.length > 0 ? '' : 'no earlier versions',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }),
  );
}

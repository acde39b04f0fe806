/**
 * MCP tools over the memory graph: `related` (what is related to a memory or a file, scored, each
 * saying why) and `neighbourhood` (a node's links and backlinks, one or two steps out).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EngramError } from '../../core/errors.ts';
import type { Project } from '../../core/model.ts';
import {
  loadProjectGraph,
  WORKING_SET,
  type GraphNode,
  type ProjectGraph,
} from '../../graph/project-graph.ts';
import { resolveNodeRef } from '../../graph/query.ts';
import { neighbourhood, relatedNodes } from '../../graph/related.ts';
import type { Store } from '../../store/store.ts';
import { checkScope } from '../../app/scope.ts';
import { PROJECT_ARG } from './project-scope.ts';
import type { guarded, ok, okList } from './tool-kit.ts';

export interface GraphToolDeps {
  withStore: <T>(fn: (store: Store) => T) => T;
  project: () => Project;
  guarded: typeof guarded;
  ok: typeof ok;
  /** A list within the output budget (whole items; the ids of those left out are named). */
  okList: typeof okList;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function nodeLine(n: GraphNode): string {
  const stale = n.kind === 'memory' && n.stale ? ` (stale since ${day(n.stale.since)})` : '';
  const status = n.kind === 'memory' && n.memory.status !== 'active' ? ` (${n.memory.status})` : '';
  return `[${n.type}] ${n.title}${status}${stale} · ${n.id}`;
}

/**
 * The graph of the project a reference belongs to: this one, or the project the call names (a
 * memory id of another project is refused without it).
 */
function graphFor(
  store: Store,
  ref: string,
  here: Project,
  named: string | undefined,
): { g: ProjectGraph; id: string } {
  const memory = /^obs_/.test(ref) ? store.observations.get(ref) : null;
  if (memory) checkScope(store, memory, { here, named });
  const project = memory ? (store.sessions.project(memory.projectId) ?? here) : here;
  const g = loadProjectGraph(store, project, {
    maxMemories: WORKING_SET,
    include: memory ? [memory.id] : [],
  });
  const id = resolveNodeRef(g, ref);
  if (id === null)
    throw new EngramError('NOT_FOUND', `nothing called "${ref}" in project ${project.name}`, {
      hint: 'Use a memory id from search (obs_…), a file path a memory touched, or a fil_/ses_ id.',
    });
  return { g, id };
}

export function registerGraphTools(server: McpServer, deps: GraphToolDeps): void {
  server.registerTool(
    'related',
    {
      title: 'Related memories and files',
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        'What is related to a memory or a file in this project: linked memories both ways, memories sharing files or tags, the memories that touch a file and the files touched with it. Scored; each result says why. Stale ones (their code changed since) are marked.',
      inputSchema: {
        ref: z.string().min(1).max(400).describe('A memory id (obs_…) or a file path (src/store.ts).'),
        limit: z.number().int().min(1).max(30).optional().describe('How many (default 10).'),
        project: PROJECT_ARG,
      },
    },
    deps.guarded(({ ref, limit, project }: { ref: string; limit?: number; project?: string }) =>
      deps.withStore((store) => {
        const { g, id } = graphFor(store, ref, deps.project(), project);
        const hits = relatedNodes(g, id, limit ?? 10);
        if (hits.length === 0) return deps.ok(`Nothing is related to ${ref} yet.`);
        return deps.okList(
          `Related to ${nodeLine(g.nodes.get(id) as GraphNode)} (read memories in full with get_observations):`,
          hits.map((h) => ({
            id: h.node.id,
            text: `- ${nodeLine(h.node)} — ${h.why.join('; ')} (score ${h.score})`,
          })),
        );
      }),
    ),
  );

  server.registerTool(
    'neighbourhood',
    {
      title: "A node's neighbourhood in the memory graph",
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        "A memory's, file's or session's links and backlinks (supersedes, related, depends_on, links_to, touches, part_of), one or two steps out.",
      inputSchema: {
        ref: z.string().min(1).max(400).describe('A memory id (obs_…), a file path, or a fil_/ses_ id.'),
        depth: z.number().int().min(1).max(2).optional().describe('Steps out (default 1).'),
        limit: z.number().int().min(1).max(80).optional().describe('Most neighbours listed (default 40).'),
        project: PROJECT_ARG,
      },
    },
    deps.guarded(
      ({ ref, depth, limit, project }: { ref: string; depth?: number; limit?: number; project?: string }) =>
        deps.withStore((store) => {
          const { g, id } = graphFor(store, ref, deps.project(), project);
          const n = neighbourhood(g, id, depth ?? 1, limit ?? 40);
          if (!n) return deps.ok(`Nothing called ${ref}.`);
          const lines = [nodeLine(n.centre)];
          for (const r of n.rings) {
            const arrow = r.via.direction === 'out' ? '→' : '←';
            const indent = '  '.repeat(r.depth);
            lines.push(`${indent}${arrow} ${r.via.kind} ${nodeLine(r.node)}`);
          }
          if (n.rings.length === 0) lines.push('  (no links yet)');
          return deps.ok(lines.join('\n'));
        }),
    ),
  );
}

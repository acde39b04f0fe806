/**
 * `engram mcp`: the MCP server (stdio) that lets the agent search, browse and correct its memory.
 * Progressive disclosure: `search` and `timeline` return a compact index; `get_observations` the
 * details. Each tool parses its input, calls an app verb and formats the result as text (read-tools,
 * write-tools, graph-tools); errors come back as `isError` results that say how to fix the call, and
 * every result is kept far below the host's MCP output cap (tool-kit).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { hostOfMcpClient } from '../../capture/hosts/mcp-client.ts';
import { resolveProject } from '../../capture/project-identity.ts';
import { status, type HealthDeps } from '../../app/health.ts';
import { metrics, type MetricsDeps } from '../../app/metrics.ts';
import type { Project, ProjectLinks } from '../../core/model.ts';
import type { Embedder } from '../../core/ports.ts';
import type { Store } from '../../store/store.ts';
import { metricsText } from '../metrics-text.ts';
import { statusText } from '../status-text.ts';
import { registerGraphTools } from './graph-tools.ts';
import { scopeOf } from './project-scope.ts';
import { registerReadTools } from './read-tools.ts';
import { guarded, ok, okList, type ToolKit } from './tool-kit.ts';
import { registerWriteTools } from './write-tools.ts';

export { MCP_RESULT_CHAR_BUDGET } from './tool-kit.ts';

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
  /** What the metrics tool needs beyond the store (absent: no metrics tool). */
  metricsDeps?: () => Omit<MetricsDeps, 'store'>;
  /** The capture inbox: `remember` reads what the turn in progress took in (worker/turn-floor). */
  inboxDir?: string;
}

/** What the model is told about engram when it connects: when to use which tool. */
export const MCP_INSTRUCTIONS = [
  'engram is the memory of earlier sessions in this project: decisions and their reasons, fixes and the errors they fixed, gotchas, conventions, how to build and test, what was left to do.',
  'Before changing something, search for earlier decisions about it (search). When a command or test fails, search the error message: the fix may be known. Results are a compact index; read the few that matter in full with get_observations.',
  'When the user states a preference or a convention, or you make a decision worth keeping, save it with remember (with the reason). If a memory is wrong or outdated, invalidate it with the reason (or correct it with edit); forget erases one for good.',
  'Before editing a file, related with its path lists what is known about it (and what is touched with it); neighbourhood walks a memory\u2019s links. A memory marked "stale since" describes code that has changed since: check the code before relying on it.',
].join('\n');

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'engram', version: '0.1.0' }, { instructions: MCP_INSTRUCTIONS });
  const project = (): Project => resolveProject(deps.cwd, deps.projectLinks);
  const kit: ToolKit = {
    withStore: (fn) => {
      const store = deps.openStore();
      try {
        return fn(store);
      } finally {
        store.close();
      }
    },
    withStoreAsync: async (fn) => {
      const store = deps.openStore();
      try {
        return await fn(store);
      } finally {
        store.close();
      }
    },
    project,
    scope: (named) => scopeOf(project(), named),
    now: deps.now,
  };

  registerReadTools(server, kit, { embedder: deps.embedder ?? null, queryTimeoutMs: deps.queryTimeoutMs });
  registerGraphTools(server, { ...kit, guarded, ok, okList });
  registerWriteTools(server, kit, {
    cwd: deps.cwd,
    inboxDir: deps.inboxDir,
    backupDir: deps.backupDir,
    // The host the agent runs in, from the name its client gave when it connected.
    clientHost: () => hostOfMcpClient(server.server.getClientVersion()?.name),
  });

  const { statusDeps, metricsDeps } = deps;
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  if (statusDeps)
    server.registerTool(
      'status',
      {
        title: 'engram status',
        annotations: readOnly,
        description:
          'Is engram capturing? The worker, the queue and parked turns, configuration problems, memory counts, projects, hosts: what "engram status" prints.',
        inputSchema: {},
      },
      guarded(() => {
        const health = statusDeps();
        const report = kit.withStore((store) => status({ ...health, store }));
        // What the injection gate kept from the agent is not quoted back to it here.
        return ok(statusText(report, health.paths, health.now, { forAgent: true }));
      }),
    );
  if (metricsDeps)
    server.registerTool(
      'metrics',
      {
        title: 'engram metrics',
        annotations: readOnly,
        description:
          'Token usage and its estimated cost (by model, project, day), the LLM distiller’s ledger and capture health: what "engram metrics" prints.',
        inputSchema: {},
      },
      guarded(() => {
        const data = kit.withStore((store) =>
          metrics({ ...metricsDeps(), store }, { days: null, now: kit.now() }),
        );
        return ok(metricsText(data));
      }),
    );
  return server;
}

/**
 * The MCP tools that change memory, each a mapping onto an app verb with origin `mcp` and the server's
 * scope: `remember`, `edit`, `pin`, `invalidate`, `forget`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { edit, invalidate, pinOne } from '../../app/corrections.ts';
import { forget } from '../../app/forget.ts';
import { remember } from '../../app/remember.ts';
import { memoryOf } from '../../app/scope.ts';
import { EngramError } from '../../core/errors.ts';
import { OBSERVATION_TYPES } from '../../core/model.ts';
import { currentTurnFloor } from '../../worker/turn-floor.ts';
import { PROJECT_ARG } from './project-scope.ts';
import { guarded, MEMORY_ID, ok, type ToolKit } from './tool-kit.ts';

const CHANGES = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export interface WriteToolDeps {
  cwd: string;
  /** The capture inbox: `remember` reads what the turn in progress took in (worker/turn-floor). */
  inboxDir?: string | undefined;
  /** Where backups are kept: a forget drops those holding the memory (absent: left). */
  backupDir?: string | null | undefined;
  /** The host the connected client runs in (`unknown` when its name says none): `remember` records it. */
  clientHost?: (() => string) | undefined;
}

export function registerWriteTools(server: McpServer, kit: ToolKit, deps: WriteToolDeps): void {
  const ctx = () => ({ origin: 'mcp' as const, at: kit.now() });

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      annotations: CHANGES,
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
    guarded((args) => {
      const project = kit.project();
      const r = kit.withStore((store) => {
        // The agent relays what its turn read: saved after reading a web page, it is external.
        const floor = currentTurnFloor(store, project, deps.inboxDir);
        return remember(
          store,
          {
            ...args,
            project,
            cwd: deps.cwd,
            host: deps.clientHost?.() ?? 'unknown',
            ...(floor === 'external' ? { trust: 'external' as const } : {}),
          },
          ctx(),
        );
      });
      const id = r.memory?.id ?? 'unknown';
      if (r.outcome === 'forgotten')
        return ok(`That memory was forgotten on purpose (${id}); it is not stored again.`);
      const kept = r.memory?.pinned ? ' It is standing: shown at the start of every session.' : '';
      if (r.outcome === 'seen-again')
        return ok(`The same memory already exists as ${id}; it was marked as seen again.${kept}`);
      const replaced = r.supersedes ? ` It supersedes ${r.supersedes} (same subject).` : '';
      return ok(`Remembered as ${id}.${replaced}${kept}`);
    }),
  );

  server.registerTool(
    'edit',
    {
      title: 'Correct a memory',
      annotations: CHANGES,
      description:
        'Correct a memory’s title, narrative, type or facts (its old text is kept as a version). To mark it wrong instead, use invalidate.',
      inputSchema: {
        id: MEMORY_ID,
        title: z.string().min(3).max(200).optional(),
        narrative: z.string().max(4000).optional(),
        type: z.enum(OBSERVATION_TYPES).optional(),
        facts: z.array(z.string().max(300)).max(20).optional().describe('Replaces the whole list.'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ id, project, ...patch }) => {
      const r = kit.withStore((store) => edit(store, id, patch, ctx(), kit.scope(project)));
      return ok(r.changed ? `Edited ${id} (now v${r.memory.version}).` : `${id} already says that.`);
    }),
  );

  server.registerTool(
    'pin',
    {
      title: 'Make a memory standing (or not)',
      annotations: CHANGES,
      description:
        'Pin a memory (standing: shown at the start of every session whatever its age) or unpin it (it ages out).',
      inputSchema: {
        id: MEMORY_ID,
        pinned: z.boolean().describe('true: standing; false: ordinary again.'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ id, pinned, project }) => {
      const r = kit.withStore((store) => pinOne(store, id, pinned, ctx(), kit.scope(project)));
      const state = pinned ? 'pinned (standing)' : 'not pinned';
      return ok(r.changed ? `${id} is now ${state}.` : `${id} was already ${state}.`);
    }),
  );

  server.registerTool(
    'invalidate',
    {
      title: 'Mark a memory wrong or outdated',
      // Reversible (engram restore), so not destructive.
      annotations: CHANGES,
      description:
        'Mark a memory as wrong or no longer true, with the reason; it stops being shown or found.',
      inputSchema: {
        id: MEMORY_ID,
        reason: z.string().min(3).max(500).describe('Why it is wrong or outdated.'),
        project: PROJECT_ARG,
      },
    },
    guarded(({ id, reason, project }) => {
      const r = kit.withStore((store) => invalidate(store, id, reason, ctx(), kit.scope(project)));
      return ok(r.changed ? `Invalidated ${id}: ${reason}` : `${id} was already invalidated.`);
    }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description:
        'Erase a memory for good: its text is deleted everywhere engram keeps it and cannot be restored. To mark a memory wrong but keep it, use invalidate.',
      inputSchema: { id: MEMORY_ID, project: PROJECT_ARG },
    },
    guarded(({ id, project }) => {
      const { forgotten } = kit.withStore((store) => {
        const o = store.observations.get(id);
        if (o && o.status !== 'forgotten') memoryOf(store, id, kit.scope(project));
        return forget({ store, backupDir: deps.backupDir ?? null }, [id], ctx);
      });
      if (forgotten.length === 0)
        throw new EngramError('NOT_FOUND', `no memory with id ${id} (or it was already forgotten)`, {
          hint: 'Use an id from a search result.',
        });
      return ok(`Forgot ${id}.`);
    }),
  );
}

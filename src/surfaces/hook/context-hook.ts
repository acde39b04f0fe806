/**
 * The database half of the hook (bundled apart as dist/hook-context.cjs, loaded only for SessionStart
 * and UserPromptSubmit): render the context to inject, reading only; the event goes to the inbox.
 */
import { existsSync } from 'node:fs';
import type * as ModuleModule from 'node:module';
import { dirname, join } from 'node:path';
import { withProjectId } from '../../capture/project-identity.ts';
import { describeError } from '../../core/errors.ts';
import type { Project } from '../../core/model.ts';
import type { Logger } from '../../core/ports.ts';
import { staleLookupOver } from '../../graph/anchor-freshness.ts';
import type { RenderedContext } from '../../recall/render-context.ts';
import { loadedByHost, type LoadedFile } from '../../recall/host-loaded.ts';
import { answerPromptQuery } from '../../recall/prompt-query.ts';
import {
  gatherSessionInputs,
  renderSessionFrom,
  type SessionInputs,
  type StartSource,
} from '../../recall/session-context.ts';
import type { ScreenMemo } from '../../recall/injection-gate.ts';
import { usableSnapshot } from '../../recall/session-snapshot.ts';
import { teamView } from '../../recall/team-notes.ts';
import { markedEpoch, readContextEpoch, readContextSnapshot } from '../../store/context-snapshot.ts';
import type { InboxRecord } from '../../store/inbox.ts';
import { openReadStore, type ReadStore } from '../../store/read-store.ts';
import { readTold } from '../../store/told-ledger.ts';
import type { Runtime } from '../runtime.ts';
import { finishContextEvent, type ContextOutcome } from './context-outcome.ts';
import { hostLoadedFiles, promptQueryOf } from './context-query.ts';

function nativeBindingPath(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  // dist/ beside the package's own node_modules (a checkout, npm link, a global install): no module
  // resolution needed (it costs ~1.5 ms of the hook's time).
  const beside = join(
    here,
    '..',
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  if (existsSync(beside)) return beside;
  try {
    // `node:module` only here: loading it costs ~1 M instructions, and a SessionStart served from the
    // worker's snapshot never opens the database.
    const { createRequire } = process.getBuiltinModule('node:module') as typeof ModuleModule;
    const req = createRequire(join(here, 'x.js'));
    return join(
      dirname(req.resolve('better-sqlite3/package.json')),
      'build',
      'Release',
      'better_sqlite3.node',
    );
  } catch {
    return undefined; // let better-sqlite3 search for its addon itself
  }
}

type SessionStartRecord = InboxRecord & { event: { kind: 'session_start'; source: StartSource } };

/**
 * A SessionStart's context from what the index reads (the worker's snapshot, or the store itself),
 * rendered here and now by the same code either way.
 */
function renderStart(
  runtime: Runtime,
  project: Project,
  record: SessionStartRecord,
  files: LoadedFile[],
  from:
    | { snapshot: { inputs: SessionInputs; screened: ScreenMemo } }
    | { store: ReadStore; inputs: SessionInputs },
): RenderedContext {
  const { config } = runtime;
  const { event, sessionId, at } = record;
  const told = readTold(runtime.paths.toldDir, sessionId);
  const loaded = project.root && files.length > 0 ? loadedByHost(project.root, files) : undefined;
  const inputs = 'snapshot' in from ? from.snapshot.inputs : from.inputs;
  const store = 'store' in from ? from.store : null;
  return renderSessionFrom(
    inputs,
    {
      project,
      sessionId,
      source: event.source,
      now: at,
      budgetTokens: config['context.sessionStartTokens'],
      recentCount: config['context.recentCount'],
      keyFiles: config['graph.keyFiles'],
      standingShare: config['context.standingShare'],
      told,
      ...(loaded ? { loadedByHost: loaded } : {}),
    },
    {
      staleOf: staleLookupOver(inputs.anchors ?? [], project.root),
      // A snapshot is never taken of a shared project (and sharing one changes the epoch).
      team: store ? (ids) => teamView(store, project.id, ids) : () => null,
      // Read for a resumed session only, which never renders from a snapshot.
      injected: (id) => store?.injections.has(sessionId, id) ?? false,
      ...('snapshot' in from ? { screened: from.snapshot.screened } : {}),
    },
  );
}

const startSettings = (runtime: Runtime, project: Project) => ({
  projectId: project.id,
  recentCount: runtime.config['context.recentCount'],
  keyFiles: runtime.config['graph.keyFiles'],
});

/**
 * A SessionStart served without opening the database: the worker's snapshot of the project, while
 * the worker's note of the store's epoch still stands for the store (no commit since it was taken,
 * told from the store's files) and the snapshot was read at that epoch. Null: ask the database.
 */
function startFromFiles(
  runtime: Runtime,
  project: Project,
  record: SessionStartRecord,
  files: LoadedFile[],
): RenderedContext | null {
  const { source } = record.event;
  if (source !== 'startup' && source !== 'clear') return null;
  const epoch = markedEpoch(runtime.paths.snapshotDir, runtime.paths.db);
  if (epoch === null) return null;
  const snapshot = usableSnapshot(readContextSnapshot(runtime.paths.snapshotDir, project.id), {
    ...startSettings(runtime, project),
    epoch,
    source,
  });
  return snapshot ? renderStart(runtime, project, record, files, { snapshot }) : null;
}

function render(
  store: ReadStore,
  runtime: Runtime,
  project: Project,
  record: InboxRecord,
  files: LoadedFile[],
): RenderedContext | null {
  const { event, sessionId } = record;
  if (event.kind === 'prompt')
    // The same question the worker answers through its recall folder (context-query.ts, recall/prompt-query.ts).
    return answerPromptQuery(
      store,
      promptQueryOf({ ...record, event }, project, runtime, files),
      runtime.paths.toldDir,
    );
  if (event.kind !== 'session_start') return null;
  const start = { ...record, event };
  const settings = startSettings(runtime, project);
  // The worker's snapshot of what the index reads, while the store's epoch is still the one it was
  // taken at (the worker's note of it may lag a commit behind); otherwise the store itself.
  const snapshot = usableSnapshot(readContextSnapshot(runtime.paths.snapshotDir, project.id), {
    ...settings,
    epoch: readContextEpoch(store.db),
    source: event.source,
  });
  if (snapshot) return renderStart(runtime, project, start, files, { snapshot });
  const inputs = gatherSessionInputs(store, {
    ...settings,
    exceptSessionId: sessionId,
    source: event.source,
    anchors: true,
  });
  return renderStart(runtime, project, start, files, { store, inputs });
}

/**
 * Render the context from the database — reading only: a context hook never takes the write lock, so
 * it never waits for the worker — and leave the event, with what was injected, in the inbox like every
 * other event (the worker imports it in order and records the injection). If the database cannot be
 * read (missing, due an upgrade the worker runs, broken), nothing is injected and the event is kept.
 * The connection is not closed: the process ends at once, and closing would checkpoint the WAL.
 */
export function handleContextEvent(
  record: InboxRecord,
  deps: {
    runtime: Runtime;
    logger: Logger;
    renderContext: (hookEventName: string, text: string) => string;
    /** The project's rules files the host loads itself (its capability table): not said twice. */
    rulesFiles?: readonly string[];
    /** The host loads Claude Code's auto memory itself (its capability table). */
    autoMemory?: boolean;
  },
): ContextOutcome {
  const { runtime, logger } = deps;
  const project = withProjectId(record.project);
  let ctx: RenderedContext | null = null;
  if (existsSync(runtime.paths.db)) {
    try {
      const files = hostLoadedFiles(project, runtime, deps.rulesFiles ?? [], deps.autoMemory === true);
      const { event } = record;
      if (event.kind === 'session_start') {
        ctx = startFromFiles(runtime, project, { ...record, event }, files);
        if (ctx) return { ...finishContextEvent(record, ctx, deps), read: 'snapshot' };
      }
      const binding = nativeBindingPath();
      const store = openReadStore(runtime.paths.db, {
        busyTimeoutMs: 3000,
        nativeBinding: binding,
        oneShot: true,
      });
      ctx = render(store, runtime, project, record, files);
    } catch (error) {
      // Nothing to inject this time; the event itself is kept below.
      logger.error('could not build the context to inject', {
        hook: record.hook,
        error: describeError(error),
      });
    }
  }
  return { ...finishContextEvent(record, ctx, deps), read: 'database' };
}

/**
 * `engram worker start|stop|status|run` and `engram flush`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngramError } from '../../../core/errors.ts';
import { systemClock } from '../../../core/ports.ts';
import { createHeuristicDistiller } from '../../../distill/heuristic-distiller.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { drainOnce, drainOnceAsync, type DrainReport } from '../../../worker/drain.ts';
import { catchUpGraph } from '../../../worker/graph-pass.ts';
import { importInboxInto } from '../../../worker/import-inbox.ts';
import type { StandingLocator } from '../../../worker/standing-pass.ts';
import { standingFilesOf } from '../../../capture/hosts/standing-files.ts';
import { startRecallService, type RecallService } from '../../../worker/recall-service.ts';
import { retryWhileBusy } from '../../../worker/busy-retry.ts';
import { runWorker } from '../../../worker/run-worker.ts';
import { createFileLogger } from '../../file-logger.ts';
import {
  readWorkerPidFile,
  removeWorkerPidFile,
  runningWorkerPid,
  spawnWorker,
  touchWorkerPidFile,
  writeWorkerPidFile,
} from '../../worker-launcher.ts';
import { forgetDue } from '../../../app/forget.ts';
import { ownStamp } from '../../../store/process-identity.ts';
import { closeMarked, storeStateReader } from '../../../store/context-snapshot.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { createLlmStep } from '../llm-step.ts';
import type { CommandSpec } from '../registry.ts';
import { backgroundTeamSync } from './team.ts';

function cliEntry(ctx: CliContext): string {
  const path = join(ctx.distDir, 'cli.mjs');
  if (!existsSync(path)) {
    throw new EngramError('WORKER_FAILED', `the built CLI is missing at ${path}`, {
      hint: 'Run "npm run build".',
    });
  }
  return path;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

export async function workerCommand(
  ctx: CliContext,
  action: string,
  flags: { json: boolean },
): Promise<number> {
  const paths = ctx.runtime.paths;
  switch (action) {
    case 'status': {
      const pid = runningWorkerPid(paths);
      if (flags.json) printJson(ctx, { running: pid !== null, pid });
      else ctx.io.out(pid ? `worker running (pid ${pid})\n` : 'worker not running\n');
      return 0;
    }
    case 'start': {
      const existing = runningWorkerPid(paths);
      if (existing) {
        ctx.io.out(`worker already running (pid ${existing})\n`);
        return 0;
      }
      spawnWorker(paths, cliEntry(ctx), { ...ctx.runtime.env });
      const started = await waitFor(() => runningWorkerPid(paths) !== null, 10_000);
      if (!started)
        throw new EngramError('WORKER_FAILED', `the worker did not start; see ${paths.workerLog}`);
      ctx.io.out(`worker started (pid ${runningWorkerPid(paths)})\n`);
      return 0;
    }
    case 'stop': {
      // Only a process proven to be engram's worker (pid, start time, command line, heartbeat) is signalled.
      const pid = runningWorkerPid(paths);
      if (!pid) {
        const stale = readWorkerPidFile(paths);
        if (stale) removeWorkerPidFile(paths, stale.stamp.pid);
        ctx.io.out(
          stale
            ? `worker not running (removed a stale pid file naming pid ${stale.stamp.pid}, which is not engram's worker; it was not signalled)\n`
            : 'worker not running\n',
        );
        return 0;
      }
      process.kill(pid, 'SIGTERM');
      const stopped = await waitFor(() => runningWorkerPid(paths) === null, 10_000);
      if (!stopped) throw new EngramError('WORKER_FAILED', `worker ${pid} did not stop within 10 s`);
      ctx.io.out(`worker stopped (pid ${pid})\n`);
      return 0;
    }
    case 'run':
      return runForeground(ctx);
    default:
      throw new EngramError('INPUT_INVALID', `unknown worker action "${action}"`, {
        hint: 'Use: engram worker start | stop | status | run',
      });
  }
}

/** How long a starting worker waits for a busy store before it gives up (exit 75). */
const STARTUP_BUSY_MS = 120_000;

async function runForeground(ctx: CliContext): Promise<number> {
  const { paths, config } = ctx.runtime;
  const logger = createFileLogger(paths.workerLog, config['log.level'], 'worker');
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const stamp = ownStamp();
  // Another process may hold the store's write lock (creating it, say) past SQLite's busy timeout.
  const { store, lock } = await retryWhileBusy(
    () => {
      const opened = ctx.openStore();
      try {
        return { store: opened, lock: opened.workerLock.acquire(stamp, ctx.now()) };
      } catch (error) {
        opened.close();
        throw error;
      }
    },
    { giveUpAt: ctx.now() + STARTUP_BUSY_MS, now: ctx.now, logger, signal: controller.signal },
  );
  let recall: Promise<RecallService | null> = Promise.resolve(null);
  // The store's state read off its WAL index with one descriptor, closed only after the store is.
  const stateReader = storeStateReader(paths.db);
  try {
    if (!lock.ok) {
      ctx.io.err(`another worker is running (pid ${lock.holder})\n`);
      return 0;
    }
    writeWorkerPidFile(paths, stamp);
    // Prompt-time recall answered from a thread beside the loop, through $ENGRAM_HOME/recall/.
    if (config['worker.recallSocket'])
      recall = startRecallService({
        script: join(ctx.distDir, 'recall-thread.mjs'),
        recallDir: paths.recallDir,
        dbPath: paths.db,
        toldDir: paths.toldDir,
        logger,
      });
    await runWorker({
      store,
      distiller: createHeuristicDistiller(),
      logger,
      clock: systemClock,
      config,
      stamp,
      signal: controller.signal,
      onHeartbeat: () => touchWorkerPidFile(paths),
      inboxDir: paths.inboxDir,
      hostSessionsDir: paths.hostSessionsDir,
      toldDir: paths.toldDir,
      snapshotDir: paths.snapshotDir,
      stateReader,
      projectLinks: ctx.runtime.projectLinks(),
      prepare: await createLlmStep(ctx, store, logger, controller.signal),
      embedder: createEmbedderFromConfig(config, { env: ctx.runtime.env, engramHome: ctx.runtime.home }),
      teamSync: await backgroundTeamSync(ctx, store, logger),
      backupDir: paths.backupDir,
      standingFiles: standingLocator(ctx),
    });
    return 0;
  } finally {
    await (await recall)?.stop();
    try {
      // Noted as it closes, so the next session's hook can tell its snapshot stands while no worker runs.
      closeMarked(store.db, paths.snapshotDir, stateReader, () => store.close());
    } finally {
      // Gone only once the store is closed (`worker stop` waits for this).
      removeWorkerPidFile(paths, stamp.pid);
    }
  }
}

/** Where each project's standing files are, in this process's environment (HOME, CLAUDE_CONFIG_DIR). */
const standingLocator =
  (ctx: CliContext): StandingLocator =>
  (root) =>
    standingFilesOf(root, ctx.runtime.env);

export async function flushCommand(ctx: CliContext, flags: { json: boolean }): Promise<number> {
  const { config } = ctx.runtime;
  const logger = createFileLogger(ctx.runtime.paths.workerLog, config['log.level'], 'flush');
  const total: DrainReport = { turns: 0, events: 0, observations: 0, failures: 0, busy: 0 };
  const store = ctx.openStore();
  let result;
  try {
    const prepare = await createLlmStep(ctx, store, logger);
    const inbox = importInboxInto(store, ctx.runtime.paths.inboxDir, logger, standingLocator(ctx));
    for (let round = 0; round < 1000; round++) {
      const deps = {
        store,
        distiller: createHeuristicDistiller(),
        logger,
        readTranscripts: true,
        inboxDir: ctx.runtime.paths.inboxDir,
        hostSessionsDir: ctx.runtime.paths.hostSessionsDir,
        projectLinks: ctx.runtime.projectLinks(),
        standingFiles: standingLocator(ctx),
      };
      const options = {
        force: true,
        now: ctx.now(),
        staleTurnMs: 0,
        maxAttempts: config['worker.maxAttempts'],
      };
      const report = prepare ? await drainOnceAsync(deps, options, prepare) : drainOnce(deps, options);
      total.turns += report.turns;
      total.events += report.events;
      total.observations += report.observations;
      total.failures += report.failures;
      total.busy += report.busy;
      if (report.events === 0 && report.failures === 0) break;
    }
    // The graph grows from what was distilled (edges, anchors, staleness), as the worker would.
    catchUpGraph(store, config, ctx.now());
    // Forgets whose undo window ended while no viewer ran (the viewer and the worker also do this).
    forgetDue({ store, backupDir: ctx.runtime.paths.backupDir }, ctx.now(), () => ({
      origin: 'viewer',
      at: ctx.now(),
    }));
    result = { ...total, imported: inbox.imported, rejected: inbox.rejected, queue: store.events.counts() };
  } finally {
    store.close();
  }
  if (flags.json) printJson(ctx, result);
  else {
    ctx.io.out(
      `distilled ${result.events} events in ${result.turns} turns into ${result.observations} new memories` +
        `${result.failures > 0 ? `; ${result.failures} failures (see engram status)` : ''}; ${result.queue.pending} pending, ${result.queue.parked} parked\n`,
    );
  }
  return result.failures > 0 ? 1 : 0;
}

export const workerSpec: CommandSpec = {
  name: 'worker',
  group: 'Health and plumbing',
  summary: 'the background worker: start | stop | status | run (hooks start it on their own)',
  usage: '[start|stop|status|run]',
  details:
    '"run" keeps it in the foreground. "stop" signals only engram\u2019s own worker (checked by its identity).',
  flags: {},
  examples: ['engram worker status', 'engram worker stop'],
  run: (ctx, args) => workerCommand(ctx, args.positionals[0] ?? 'status', { json: args.json }),
};

export const flushSpec: CommandSpec = {
  name: 'flush',
  group: 'Health and plumbing',
  summary: 'distil everything pending now, in the foreground',
  usage: '',
  flags: {},
  examples: ['engram flush'],
  run: (ctx, args) => flushCommand(ctx, { json: args.json }),
};

export const retrySpec: CommandSpec = {
  name: 'retry',
  group: 'Health and plumbing',
  summary: 'put parked turns back in the queue (after fixing what failed them)',
  usage: '[SEQ…] [--all]',
  details:
    '"engram status" lists parked events with their sequence numbers; a turn is retried with the rest of its session\u2019s parked events, in order.',
  flags: { all: { type: 'boolean', description: 'retry every parked event' } },
  examples: ['engram retry --all', 'engram retry 1234'],
  run: (ctx, args) => {
    const all = args.values['all'] === true;
    const seqs = args.positionals.map((p) => {
      if (!/^\d+$/.test(p)) throw new EngramError('INPUT_INVALID', `"${p}" is not a sequence number`);
      return Number(p);
    });
    if (!all && seqs.length === 0)
      throw new EngramError('INPUT_INVALID', 'name the parked events to retry, or use --all', {
        hint: '"engram status" lists parked events with their numbers.',
      });
    const retried = withStore(ctx, (store) =>
      store.transaction(() => store.events.retryParked(all ? undefined : seqs)),
    );
    if (args.json) printJson(ctx, { retried });
    else
      ctx.io.out(
        retried > 0
          ? `${retried} events back in the queue; the worker distils them next\n`
          : 'nothing parked to retry\n',
      );
    return 0;
  },
};

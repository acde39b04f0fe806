/**
 * `engram ui [--port N] [--no-open]`: the web viewer, in a process of its own (the capture worker's
 * duties and idle exit are untouched). The first line of stdout is the URL to open: a one-time link
 * that signs the browser in. It opens the browser unless --no-open and serves until no tab has been
 * connected for viewer.idleExitSeconds, or Ctrl-C. A second `engram ui` while one runs prints a new
 * link to the running viewer and exits.
 */
import { systemClock } from '../../../core/ports.ts';
import { ownStamp } from '../../../store/process-identity.ts';
import { healthDeps } from '../health-deps.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { createFileLogger } from '../../file-logger.ts';
import { loadViewerAssets } from '../../http/viewer-assets.ts';
import { loadViewerSecret } from '../../http/viewer-secret.ts';
import { clearViewerState, runningViewer, writeViewerState } from '../../http/viewer-state.ts';
import { openBrowser } from '../../open-browser.ts';
import { ensureHome } from '../../runtime.ts';
import { createTeamSyncScheduler, tickEvery } from '../../../worker/team-scheduler.ts';
import type { CliContext } from '../context.ts';
import { boolFlag, intFlag, type CommandSpec } from '../registry.ts';
import { backgroundTeamSync } from './team.ts';

export interface UiFlags {
  port: number | null;
  open: boolean;
}

export async function uiCommand(ctx: CliContext, flags: UiFlags): Promise<number> {
  const { paths, config, env, home } = ctx.runtime;
  // The viewer's server (Hono and its pages) is loaded only here, so no other command pays for it.
  const { launchUrlFor, startViewer } = await import('../../http/viewer-server.ts');
  ensureHome(paths);
  const secret = loadViewerSecret(paths.viewerSecret);
  const existing = runningViewer(paths.viewerState);
  if (existing && (flags.port === null || flags.port === existing.port)) {
    const url = launchUrlFor(existing.port, secret, ctx.now());
    ctx.io.out(`${url}\n`);
    ctx.io.err(
      `engram: the viewer is already running (pid ${existing.stamp.pid}); this link signs a browser in.\n`,
    );
    if (flags.open && !(await openBrowser(url)))
      ctx.io.err('engram: could not open a browser; open the link above.\n');
    return 0;
  }
  const logger = createFileLogger(paths.viewerLog, config['log.level'], 'viewer');
  const store = ctx.openStore();
  try {
    const viewer = await startViewer({
      store,
      paths,
      env,
      secret,
      assets: loadViewerAssets(ctx.distDir),
      clock: systemClock,
      logger,
      embedder: createEmbedderFromConfig(config, { env, engramHome: home }),
      port: flags.port ?? config['viewer.port'],
      statusDeps: (live) => healthDeps({ paths, env, cwd: ctx.cwd, ...live }),
    });
    writeViewerState(paths.viewerState, { stamp: ownStamp(), port: viewer.port, startedAt: ctx.now() });
    // While it runs, the viewer keeps shared projects in sync too (an edit made here reaches the team).
    const teamSync = await backgroundTeamSync(ctx, store, logger);
    const teamStop = new AbortController();
    const team = teamSync
      ? tickEvery(
          createTeamSyncScheduler({
            sync: teamSync,
            logger,
            clock: systemClock,
            intervalMs: config['team.syncIntervalSeconds'] * 1000,
            signal: teamStop.signal,
          }),
          systemClock,
          1000,
        )
      : null;
    const stop = () => void viewer.stop();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
      const url = viewer.launchUrl();
      ctx.io.out(`${url}\n`);
      ctx.io.out(
        `engram viewer on http://127.0.0.1:${viewer.port}/ (pid ${process.pid}); the link above works once and signs a browser in.\n` +
          `It stops ${config['viewer.idleExitSeconds']} s after the last tab closes, or on Ctrl-C; "engram ui" again prints a new link.\n`,
      );
      if (flags.open && !(await openBrowser(url)))
        ctx.io.err('engram: could not open a browser; open the link above.\n');
      await viewer.done;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      teamStop.abort();
      await team?.stop();
      clearViewerState(paths.viewerState, process.pid);
    }
    return 0;
  } finally {
    store.close();
  }
}

export const uiSpec: CommandSpec = {
  name: 'ui',
  group: 'Memory',
  summary: 'the web viewer on 127.0.0.1: browse, search and correct memories, see what each session was told',
  usage: '[--port N] [--no-open]',
  details:
    'Prints a one-time sign-in link as the first line of stdout and opens it in the browser. Runs in a process ' +
    'of its own until no browser tab has been open for viewer.idleExitSeconds (or Ctrl-C); the capture worker ' +
    'is not involved. On a machine logged in to a team server it also syncs shared projects while it runs. ' +
    'Run it again while it runs to get a new link.',
  flags: {
    port: {
      type: 'string',
      value: 'N',
      description: 'port on 127.0.0.1 (default viewer.port, 7431; 0 picks a free one)',
    },
    'no-open': { type: 'boolean', description: 'print the link without opening a browser' },
  },
  noJson: true,
  examples: ['engram ui', 'engram ui --port 0 --no-open'],
  run: (ctx, args) =>
    uiCommand(ctx, {
      port: args.values['port'] === undefined ? null : intFlag(args, 'port', 0, { min: 0, max: 65_535 }),
      open: !boolFlag(args, 'no-open'),
    }),
};

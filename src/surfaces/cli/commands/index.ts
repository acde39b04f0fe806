/**
 * Every CLI command, in the order the overall usage lists them within their group. Add a command by
 * writing its spec next to its handler and listing it here.
 */
import type { CommandSpec } from '../registry.ts';
import { backfillSpec } from './backfill.ts';
import { changesSpec, historySpec, restoreSpec } from './changes.ts';
import { configSpec } from './config.ts';
import { archiveSpec, editSpec, invalidateSpec, rememberSpec } from './correct.ts';
import { demoSpec } from './demo.ts';
import { doctorSpec } from './doctor.ts';
import { forgetSpec } from './forget.ts';
import { pruneSpec, querySpec, staleSpec } from './graph.ts';
import { installSpec, uninstallSpec } from './install.ts';
import { contextSpec, searchSpec, showSpec, timelineSpec } from './memory.ts';
import { metricsSpec } from './metrics.ts';
import { pinSpec, unpinSpec } from './pin.ts';
import { projectSpec } from './project.ts';
import { reviewSpec } from './review.ts';
import { hookSpec, mcpSpec } from './plumbing.ts';
import { serverSpec } from './server.ts';
import { statusSpec } from './status.ts';
import { teamSpec } from './team.ts';
import { vaultSpec } from './vault.ts';
import { uiSpec } from './ui.ts';
import { flushSpec, retrySpec, workerSpec } from './worker.ts';

export const COMMANDS: readonly CommandSpec[] = [
  installSpec,
  uninstallSpec,
  demoSpec,
  projectSpec,
  contextSpec,
  searchSpec,
  timelineSpec,
  showSpec,
  rememberSpec,
  editSpec,
  historySpec,
  restoreSpec,
  pinSpec,
  unpinSpec,
  invalidateSpec,
  archiveSpec,
  forgetSpec,
  reviewSpec,
  uiSpec,
  changesSpec,
  backfillSpec,
  querySpec,
  staleSpec,
  pruneSpec,
  vaultSpec,
  teamSpec,
  serverSpec,
  statusSpec,
  doctorSpec,
  metricsSpec,
  flushSpec,
  retrySpec,
  workerSpec,
  configSpec,
  hookSpec,
  mcpSpec,
];

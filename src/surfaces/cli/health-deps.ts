/**
 * What the status verb (app/health.ts) needs from this process, found the same way for every surface
 * (`engram status`, MCP's status tool, the viewer — which `engram ui` hands it): the worker's pid, the embedder's id, problems of the
 * configuration and of prices.json, and Claude Code's transcripts (missed ones, their retention).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HealthDeps } from '../../app/health.ts';
import type { Config, ConfigIssue } from '../../core/config.ts';
import type { EngramPaths } from '../../core/paths.ts';
import { createEmbedderFromConfig } from '../../recall/embedders/from-config.ts';
import { findTranscripts } from '../../worker/backfill.ts';
import { retentionFindings } from './claude-retention.ts';
import { loadPricesChecked } from '../prices-file.ts';
import type { Runtime } from '../runtime.ts';
import { runningWorkerPid } from '../worker-launcher.ts';

export function healthDeps(input: {
  paths: EngramPaths;
  env: Readonly<Record<string, string | undefined>>;
  /** The configuration in force, and the problems of its file. */
  config: Config;
  configIssues: readonly ConfigIssue[];
  /** The embedder in use (default: the one the configuration names). */
  embedderId?: string | null;
  /** The project directory (its Claude Code settings can set transcript retention). */
  cwd: string;
  now: number;
  markHookLog?: boolean;
}): Omit<HealthDeps, 'store'> {
  const { paths, env, config, now } = input;
  const pricesFile = join(paths.home, 'prices.json');
  const priceIssues = loadPricesChecked(pricesFile).problems.map((message) => ({
    key: 'prices.json',
    source: pricesFile,
    message,
    severity: 'error' as const,
  }));
  const here = { runtime: { env, config }, cwd: input.cwd, now: () => now };
  return {
    paths,
    config,
    configIssues: [...input.configIssues, ...priceIssues],
    now,
    workerPid: runningWorkerPid(paths),
    embedderId:
      input.embedderId !== undefined
        ? input.embedderId
        : (createEmbedderFromConfig(config, { env, engramHome: paths.home })?.id ?? null),
    transcripts: (store) => {
      const root = join(env['HOME'] || homedir(), '.claude', 'projects');
      const sessions = findTranscripts(root).filter(
        (f) => !f.subagent && store.transcripts.progress(f.path) === null,
      ).length;
      return { missed: { root, sessions }, findings: retentionFindings(here, store) };
    },
    markHookLog: input.markHookLog ?? false,
  };
}

/** The same for a command of this process's runtime. */
export function runtimeHealthDeps(
  runtime: Runtime,
  options: { cwd: string; now: number; markHookLog?: boolean },
): Omit<HealthDeps, 'store'> {
  return healthDeps({
    paths: runtime.paths,
    env: runtime.env,
    config: runtime.config,
    configIssues: runtime.configIssues,
    ...options,
  });
}

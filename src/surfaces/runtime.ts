/**
 * The runtime every entry point starts from: ENGRAM_HOME and ENGRAM_* settings (the environment as
 * `engram-home.ts` reads it), plus the config file.
 * Entry points call `loadRuntime` once and pass the frozen result down.
 */
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { resolveConfigReport, type Config, type ConfigIssue } from '../core/config.ts';
import type { ProjectLinks } from '../core/model.ts';
import { pathsFor, type EngramPaths } from '../core/paths.ts';
import { makeDirs } from '../store/make-dirs.ts';
import { engramHomeFrom, processEnv } from './engram-home.ts';
import { readProjectLinks } from '../store/project-links.ts';

export { engramHomeFrom, processEnv };

export interface Runtime {
  home: string;
  paths: EngramPaths;
  config: Config;
  /** What was wrong with the configuration (each invalid value fell back): shown by status and doctor. */
  configIssues: readonly ConfigIssue[];
  env: Readonly<Record<string, string | undefined>>;
  /** Confirmed `.engram.json` project links, read on first use (only when a repository has one). */
  projectLinks: () => ProjectLinks;
}

/** The config file's JSON (undefined when there is none), or why it cannot be read. */
export function readConfigFile(path: string): { value: unknown } | { error: string } {
  if (!existsSync(path)) return { value: undefined };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { error: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `${path} is not valid JSON (${(error as Error).message})` };
  }
}

/** Never fails on configuration: every invalid value falls back and is listed in `configIssues`. */
export function loadRuntime(env: Readonly<Record<string, string | undefined>> = processEnv()): Runtime {
  const home = engramHomeFrom(env);
  const paths = pathsFor(home);
  const file = readConfigFile(paths.config);
  const { config, issues } = resolveConfigReport({
    ...('error' in file ? { fileError: file.error } : { file: file.value }),
    fileName: paths.config,
    env,
  });
  let links: ProjectLinks | undefined;
  const projectLinks = () => (links ??= readProjectLinks(paths.projectLinks));
  return { home, paths, config, configIssues: issues, env, projectLinks };
}

/**
 * Make engram's home (and its logs folder); an ENGRAM_HOME that cannot be a folder (a file, a place
 * nothing can be created in) is a configuration error (exit 2) that says so, never an internal fault.
 */
export function ensureHome(paths: EngramPaths): void {
  const hint = 'Point ENGRAM_HOME at a folder you can write to, or unset it to use ~/.engram.';
  makeDirs(paths.home, { what: 'ENGRAM_HOME', code: 'CONFIG_INVALID', hint });
  makeDirs(paths.logDir, { what: 'the logs folder', code: 'CONFIG_INVALID', hint });
  // A home made by an older engram (or by hand) under a loose umask is closed to others.
  for (const dir of [paths.home, paths.logDir]) {
    try {
      if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
    } catch {
      continue; // not ours to change: doctor reports it
    }
  }
}

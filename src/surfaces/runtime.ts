/**
 * The one place that reads the environment: ENGRAM_HOME and ENGRAM_* settings, plus the config file.
 * Entry points call `loadRuntime` once and pass the frozen result down.
 */
import type * as OsModule from 'node:os';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveConfig, type Config } from '../core/config.ts';
import { EngramError } from '../core/errors.ts';
import { pathsFor, type EngramPaths } from '../core/paths.ts';

export interface Runtime {
  home: string;
  paths: EngramPaths;
  config: Config;
  env: Readonly<Record<string, string | undefined>>;
}

export function engramHomeFrom(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env['ENGRAM_HOME'];
  if (fromEnv && fromEnv.trim() !== '') return resolve(fromEnv);
  return join(env['HOME'] || (process.getBuiltinModule('node:os') as typeof OsModule).homedir(), '.engram');
}

export function readConfigFile(path: string): unknown {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `${path} is not valid JSON: ${(error as Error).message}`, {
      hint: 'Fix the file, or move it away to use the defaults.',
    });
  }
}

export function loadRuntime(env: Readonly<Record<string, string | undefined>> = process.env): Runtime {
  const home = engramHomeFrom(env);
  const paths = pathsFor(home);
  const config = resolveConfig({ file: readConfigFile(paths.config), fileName: paths.config, env });
  return { home, paths, config, env };
}

export function ensureHome(paths: EngramPaths): void {
  mkdirSync(paths.logDir, { recursive: true, mode: 0o700 });
}

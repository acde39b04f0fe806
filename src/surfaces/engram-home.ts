/**
 * Where engram keeps its data, from the environment (`ENGRAM_HOME`, else `~/.engram`), and the one
 * place engram reads the environment. Apart from `runtime.ts` so the hook's tiny entry can find its
 * code cache without loading the configuration.
 */
import type * as OsModule from 'node:os';
import { join, resolve } from 'node:path';

export function engramHomeFrom(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env['ENGRAM_HOME'];
  if (fromEnv && fromEnv.trim() !== '') return resolve(fromEnv);
  return join(env['HOME'] || (process.getBuiltinModule('node:os') as typeof OsModule).homedir(), '.engram');
}

/** This process's environment: the one place engram reads it (entry points pass it on). */
export function processEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

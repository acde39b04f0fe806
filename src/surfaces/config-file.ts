/**
 * Reading and writing `$ENGRAM_HOME/config.json` as flat dotted keys (the CLI's `engram config` and
 * the viewer's settings page share it). Writes are atomic (temporary file, then rename) and 0600; a
 * file that cannot be read is never overwritten by a change.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { flattenConfigFile } from '../core/config.ts';
import { EngramError } from '../core/errors.ts';
import { readConfigFile } from './runtime.ts';

/** The file's settings as flat keys ({} when there is no file), and why it cannot be used, if so. */
export function readFlatConfig(path: string): { file: Record<string, unknown>; problem: string | null } {
  const read = readConfigFile(path);
  if ('error' in read) return { file: {}, problem: read.error };
  if (read.value === undefined) return { file: {}, problem: null };
  try {
    return { file: flattenConfigFile(read.value, path), problem: null };
  } catch (error) {
    return { file: {}, problem: (error as Error).message };
  }
}

/** The file's flat keys, to change them: refuses when the file cannot be read (it would be lost). */
export function readFlatConfigForChange(path: string): Record<string, unknown> {
  const { file, problem } = readFlatConfig(path);
  if (problem !== null)
    throw new EngramError('CONFIG_INVALID', `${problem}: not changing it`, {
      hint: 'Fix the file by hand or move it away (the defaults apply meanwhile).',
    });
  return file;
}

/** Write flat keys back, grouped (`{"context": {"promptTokens": 300}}`), sorted. */
export function writeFlatConfig(path: string, flat: Record<string, unknown>): void {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat).sort(([a], [b]) => a.localeCompare(b))) {
    const [group, name] = key.split('.') as [string, string];
    const section = (nested[group] ??= {}) as Record<string, unknown>;
    section[name] = value;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(nested, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * What each session was already told, kept beside the inbox until the worker records it: a context
 * hook reads the database only, and the injection it made reaches the database when the worker imports
 * its event. Until then this small per-session file (memory ids only, never text) keeps the next hook
 * of the same session from repeating itself. Files untouched for a day are removed by the worker.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hash64Hex } from '../core/ids.ts';

const SAFE_NAME = /^[A-Za-z0-9_-]{1,100}$/;

function fileFor(dir: string, sessionId: string): string {
  const name = SAFE_NAME.test(sessionId) ? sessionId : `h-${hash64Hex(sessionId)}`;
  return join(dir, `${name}.ids`);
}

/** The ids this session was told and the database may not know yet (empty when there is no file). */
export function readTold(dir: string, sessionId: string): Set<string> {
  const file = fileFor(dir, sessionId);
  // A session's first hook finds no file: asked first, since a failed read costs an error's stack.
  if (!existsSync(file)) return new Set();
  try {
    return new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
  } catch {
    return new Set();
  }
}

/** Add the ids just injected into this session (one append; concurrent hooks never clobber). */
export function appendTold(dir: string, sessionId: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  const text = `${ids.join('\n')}\n`;
  const file = fileFor(dir, sessionId);
  try {
    appendFileSync(file, text, { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(file, text, { mode: 0o600 });
  }
}

/** Remove the files of sessions not told anything since `olderThan` (ms epoch); how many went. */
export function pruneTold(dir: string, olderThan: number): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.endsWith('.ids')) continue;
    const file = join(dir, name);
    try {
      if (statSync(file).mtimeMs < olderThan) {
        rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // gone already, or unreadable: the next round tries again
    }
  }
  return removed;
}

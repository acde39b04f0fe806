/**
 * Confirmed project links (`$ENGRAM_HOME/project-links.json`): a repository whose `.engram.json` asks
 * to share another project's memory joins it only once the user confirmed it with `engram project
 * link`. Read by the hooks only when such a file exists.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ProjectLinks } from '../core/model.ts';

/** The confirmed links; none when the file is missing or unreadable (nothing is trusted then). */
export function readProjectLinks(path: string): ProjectLinks {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as { links?: unknown };
    const links = value.links;
    if (links === null || typeof links !== 'object' || Array.isArray(links)) return {};
    return Object.fromEntries(
      Object.entries(links).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {}; // no file yet, or a damaged one: no override is confirmed
  }
}

/** Confirm (`name`) or withdraw (`null`) the link of a repository's own identity key. */
export function writeProjectLink(path: string, key: string, name: string | null): void {
  const links: Record<string, string> = { ...readProjectLinks(path) };
  if (name === null) delete links[key];
  else links[key] = name;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ links }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

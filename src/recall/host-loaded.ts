/**
 * What the host already tells the agent: a host loads some of the project's rules files (Claude Code
 * its CLAUDE.md, Codex its AGENTS.md) into the agent's context by itself. A memory engram read from
 * such a file — its facts say `source: <the file>` and each `rule: …` — is not injected again to that
 * host while the file still holds every rule it states: one fact said once per context. A rule the
 * file no longer says, or one read from a file this host does not load, is told as usual.
 */
import { readFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import type { Observation } from '../core/model.ts';

const flat = (text: string) =>
  text
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

export type LoadedByHost = (o: Pick<Observation, 'facts'>) => boolean;

/** Which memories `root`'s files `files` (paths from the root) already put before the agent. */
export function loadedByHost(root: string, files: readonly string[]): LoadedByHost {
  const loaded = new Map<string, string>();
  for (const file of files) {
    try {
      loaded.set(join(root, file), flat(readFileSync(join(root, file), 'utf8')));
    } catch {
      // not there: nothing of it is loaded
    }
  }
  if (loaded.size === 0) return () => false;
  return (o) => {
    const source = o.facts
      .find((f) => f.startsWith('source: '))
      ?.slice('source: '.length)
      .trim();
    if (!source) return false;
    const text = isAbsolute(source)
      ? loaded.get(source)
      : [...loaded].find(([path]) => basename(path) === basename(source) && !source.includes('/'))?.[1];
    if (text === undefined) return false;
    const rules = o.facts.filter((f) => f.startsWith('rule: ')).map((f) => flat(f.slice('rule: '.length)));
    return rules.length > 0 && rules.every((r) => text.includes(r));
  };
}

/**
 * What the host already tells the agent: a host loads some of the project's rules files (Claude Code
 * its CLAUDE.md, Codex its AGENTS.md) into the agent's context by itself. A memory engram read from
 * such a file — its facts say `source: <the file>` and each `rule: …` — is not injected again to that
 * host while the file still holds every rule it states: one fact said once per context. A rule the
 * file no longer says, or one read from a file this host does not load, is told as usual.
 */
import { readFileSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import type { Observation } from '../core/model.ts';

const flat = (text: string) =>
  text
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

export type LoadedByHost = (o: Pick<Observation, 'facts'>) => boolean;

/** A file the host loads: a path from the project's root (or absolute), or one loaded only in part. */
export type LoadedFile = string | { path: string; firstLines: number };

/** Which memories the files `files` (paths from `root`, or absolute) already put before the agent. */
export function loadedByHost(root: string, files: readonly LoadedFile[]): LoadedByHost {
  const loaded = new Map<string, string>();
  for (const file of files) {
    const path = resolve(root, typeof file === 'string' ? file : file.path);
    try {
      const text = readFileSync(path, 'utf8');
      const part = typeof file === 'string' ? text : text.split('\n').slice(0, file.firstLines).join('\n');
      loaded.set(path, flat(part));
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

/**
 * Transcript files under a folder, for backfill: a bounded walk (unreadable or vanished entries are
 * passed over) keeping the files a host's layout names, with their size and time.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { HostName } from '../hosts/host-port.ts';

export interface TranscriptFile {
  path: string;
  /** The host whose transcript it is (its reader still decides by the file itself). */
  host: HostName;
  /** A subagent's transcript (usage and counts, no memories of its own). */
  subagent: boolean;
  bytes: number;
  mtimeMs: number;
  /** The session's working directory, where the host keeps it beside the file (not in the records). */
  cwd?: string;
}

/** Files under `root` (at most `depth` folders down) that `accept` keeps, sessions before subagents, oldest first. */
export function findFiles(
  root: string,
  host: HostName,
  depth: number,
  accept: (path: string) => boolean,
  subagent: (path: string) => boolean = () => false,
  cwdOf: (path: string) => string | null = () => null,
): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  const walk = (dir: string, level: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return; // unreadable or vanished
    }
    for (const name of names) {
      const path = join(dir, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory() && level < depth) walk(path, level + 1);
      else if (st.isFile() && accept(path)) {
        const cwd = cwdOf(path);
        out.push({
          path,
          host,
          subagent: subagent(path),
          bytes: st.size,
          mtimeMs: st.mtimeMs,
          ...(cwd ? { cwd } : {}),
        });
      }
    }
  };
  if (existsSync(root)) walk(root, 0);
  return out.sort(
    (a, b) =>
      Number(a.subagent) - Number(b.subagent) || a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path),
  );
}

/** In a `subagents` folder (Claude Code's layout for a subagent's transcript). */
export const inSubagentsFolder = (path: string): boolean => basename(dirname(path)) === 'subagents';

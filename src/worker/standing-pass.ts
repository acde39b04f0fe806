/**
 * When a session starts in a project, the worker reads the project's standing files again (its rules
 * files, the user's own notes: where they are is the capture layer's business) and brings the memories
 * read from them in line (app/standing-files.ts). A file is read whole up to a cap; a file that cannot
 * be read is left as it was (only a missing one retires its rules).
 */
import { readFileSync, statSync } from 'node:fs';
import type { StandingFile } from '../capture/hosts/standing-files.ts';
import { syncStandingFiles, type StandingReport, type StandingSource } from '../app/standing-files.ts';
import { describeError } from '../core/errors.ts';
import type { Project } from '../core/model.ts';
import type { Logger } from '../core/ports.ts';
import type { Store } from '../store/store.ts';

/** The standing files of a project rooted at a folder. */
export type StandingLocator = (root: string) => readonly StandingFile[];

/** Rules files are small; a file past this is not a rules file engram reads. */
const MAX_BYTES = 256 * 1024;

function read(file: StandingFile): StandingSource | null {
  try {
    if (statSync(file.path).size > MAX_BYTES) return null;
    return { ...file, content: readFileSync(file.path, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...file, content: null };
    return null;
  }
}

/** Sync the standing files of each project (a session started in it). */
export function syncStandingOf(
  store: Store,
  projects: Iterable<Project>,
  locate: StandingLocator,
  at: number,
  logger?: Logger,
): StandingReport[] {
  const reports: StandingReport[] = [];
  for (const project of projects) {
    if (!project.root) continue;
    try {
      const sources = locate(project.root)
        .map(read)
        .filter((s): s is StandingSource => s !== null);
      reports.push(syncStandingFiles(store, project, sources, { origin: 'hook', at }));
    } catch (error) {
      logger?.warn('could not read the project’s standing files', {
        project: project.name,
        error: describeError(error),
      });
    }
  }
  return reports;
}

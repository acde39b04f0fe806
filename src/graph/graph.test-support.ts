/**
 * Test helpers for the graph: a git repository in a temp dir as a project, a real store beside it,
 * and memories made the way the worker makes them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import type { ObservationDraft, Project } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { draftOf } from '../store/store.test-support.ts';

export interface GraphWorld {
  dir: string;
  root: string;
  project: Project;
  store: Store;
  write(path: string, text: string): void;
  git(...args: string[]): string;
  /** A memory as the worker makes one (origin hook), in session `s1` by default. */
  remember(
    title: string,
    draft: Partial<ObservationDraft>,
    options?: { at?: number; sessionId?: string },
  ): string;
  cleanup(): void;
}

export function createGraphWorld(name = 'graph-world'): GraphWorld {
  const dir = mkdtempSync(join(tmpdir(), 'engram-graph-'));
  const root = join(dir, name);
  mkdirSync(root);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  git('init', '-q');
  const project: Project = { id: projectIdFromKey(root) as ProjectId, name, key: root, root };
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  store.sessions.touch(project, { id: 's1', cwd: root, transcriptPath: null }, 'SessionStart', 1);
  return {
    dir,
    root,
    project,
    store,
    git,
    write(path, text) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    remember(title, draft, options = {}) {
      const at = options.at ?? Date.now();
      return store.memory.create(
        {
          projectId: project.id,
          sessionId: options.sessionId ?? 's1',
          source: 'hook',
          createdAt: at,
          provenance: [],
          draft: draftOf(title, draft),
        },
        { origin: 'hook', at },
      ).id;
    },
    cleanup() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

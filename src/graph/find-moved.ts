/**
 * Finding a file that moved: the project's files are listed once (skipping dependency, build and
 * hidden folders, up to a cap), and a vanished anchor's content is looked for among the files of the
 * same size (an exact move) or the same name (a move with whitespace changes).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { AnchorState } from '../core/graph.ts';
import type { FileNow } from './anchor.ts';
import { gitBlobHash } from './blob-hash.ts';
import { readIfPresent } from './read-if-present.ts';

const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'target',
  'vendor',
  'coverage',
  '__pycache__',
  'venv',
]);

export interface MoveFinderOptions {
  /** Most files listed (a huge tree is searched only this far). */
  maxFiles?: number;
}

interface Listed {
  path: string;
  size: number;
}

function listFiles(root: string, maxFiles: number): Listed[] {
  const out: Listed[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder holds nothing we can anchor to
    }
    for (const entry of entries) {
      if (out.length >= maxFiles) return;
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const size = statSync(full, { throwIfNoEntry: false })?.size;
        if (size !== undefined) out.push({ path: relative(root, full).split(sep).join('/'), size });
      }
    }
  };
  walk(root);
  return out;
}

/**
 * Candidates for classifyAnchor's moved-file search over one project root: files with the anchor's
 * exact content first, then files of the same name. The tree is listed only when first asked.
 */
export function createMoveFinder(
  root: string,
  options: MoveFinderOptions = {},
): (anchor: AnchorState) => FileNow[] {
  let files: Listed[] | null = null;
  return (anchor) => {
    files ??= listFiles(root, options.maxFiles ?? 50_000);
    const name = basename(anchor.path);
    const exact: FileNow[] = [];
    const sameName: FileNow[] = [];
    for (const f of files) {
      if (f.path === anchor.path || (f.size !== anchor.size && basename(f.path) !== name)) continue;
      const content = readIfPresent(join(root, f.path));
      if (!content) continue;
      if (gitBlobHash(content) === anchor.blobHash) exact.push({ path: f.path, content });
      else if (basename(f.path) === name) sameName.push({ path: f.path, content });
    }
    return [...exact, ...sameName];
  };
}

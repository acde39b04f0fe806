/**
 * A host plugin file engram owns outright (opencode's `plugins/engram.js`): written whole by install,
 * deleted by uninstall — only ever a file that carries engram's mark, never one the user wrote. The
 * folders an install had to create are recorded in the file, and uninstall removes those again when
 * nothing else is in them, so an uninstall leaves the folder tree as it found it.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../../core/errors.ts';

export interface PluginSpec {
  /** The file's text, given the folders this install created (recorded in it). */
  source: (createdDirs: readonly string[]) => string;
  isEngrams: (text: string) => boolean;
  createdDirs: (text: string) => string[];
}

export interface PluginInstallReport {
  pluginPath: string;
  /** `created`: there was no file; `updated`: engram's older file was replaced; `unchanged`: already so. */
  outcome: 'created' | 'updated' | 'unchanged';
  /** Folders this install created, outermost first. */
  createdDirs: string[];
}

export interface PluginUninstallReport {
  pluginPath: string;
  /** engram's file was there and is deleted. */
  removed: boolean;
  /** A file is there that is not engram's: left alone. */
  foreign: boolean;
  /** Folders the install had created, removed again (they were empty). */
  removedDirs: string[];
}

const readText = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** The folders from `dir` up that do not exist yet, outermost first. */
function missingDirs(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  return missing;
}

export function installPluginFile(path: string, spec: PluginSpec): PluginInstallReport {
  const existing = readText(path);
  if (existing !== null && !spec.isEngrams(existing))
    throw new EngramError('INSTALL_FAILED', `${path} exists and is not engram's plugin`, {
      hint: 'Move or rename that file, then run the install again.',
    });
  if (existing !== null) {
    const createdDirs = spec.createdDirs(existing);
    const text = spec.source(createdDirs);
    if (text === existing) return { pluginPath: path, outcome: 'unchanged', createdDirs };
    writeFileSync(path, text);
    return { pluginPath: path, outcome: 'updated', createdDirs };
  }
  const createdDirs = missingDirs(dirname(path));
  if (createdDirs.length > 0) mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, spec.source(createdDirs), { flag: 'wx' });
  return { pluginPath: path, outcome: 'created', createdDirs };
}

export function uninstallPluginFile(path: string, spec: PluginSpec): PluginUninstallReport {
  const report: PluginUninstallReport = { pluginPath: path, removed: false, foreign: false, removedDirs: [] };
  const existing = readText(path);
  if (existing === null) return report;
  if (!spec.isEngrams(existing)) return { ...report, foreign: true };
  unlinkSync(path);
  report.removed = true;
  for (const dir of spec.createdDirs(existing).reverse()) {
    try {
      rmdirSync(dir);
      report.removedDirs.push(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') break; // used since: kept, and so are its parents
      throw error;
    }
  }
  return report;
}

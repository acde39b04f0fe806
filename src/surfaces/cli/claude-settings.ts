/**
 * Merging engram's hooks into a Claude Code settings file, and taking them out again exactly.
 * The user's other settings and hooks are never touched; a backup is written before any change.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { EngramError } from '../../core/errors.ts';

export interface HookInstallSpec {
  /** The shell command Claude Code runs for every event. */
  command: string;
  events: readonly string[];
  timeoutSeconds?: (event: string) => number | undefined;
}

export interface InstallReport {
  settingsPath: string;
  backupPath: string | null;
  added: string[];
  alreadyPresent: string[];
  created: boolean;
}

export interface UninstallReport {
  settingsPath: string;
  removed: string[];
  restoredExactly: boolean;
  deletedFile: boolean;
}

interface Sidecar {
  createdFile: boolean;
  createdHooksKey: boolean;
  backupPath: string | null;
  installedAt: string;
}

type Json = Record<string, unknown>;
interface HookEntry {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
}
interface MatcherGroup {
  matcher?: unknown;
  hooks?: unknown;
}

/** The shell comment that marks engram's hook commands, wherever engram is installed. */
export const ENGRAM_HOOK_MARKER = '# engram-hook';

/** engram's hook commands end with the marker comment, or are a plain `engram hook`. */
export function isEngramHookCommand(command: string): boolean {
  const c = command.trim();
  return /#\s*engram-hook$/.test(c) || /(?:^|[\s"'/])engram["']?\s+hook$/.test(c);
}

function sidecarPath(settingsPath: string): string {
  return `${settingsPath}.engram-install.json`;
}

function readSettings(path: string): { json: Json; text: string } | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { json: {}, text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EngramError(
      'INSTALL_FAILED',
      `${path} is not valid JSON (${(error as Error).message}); nothing was changed`,
      {
        hint: 'Fix the file (or move it away) and run the command again.',
      },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EngramError('INSTALL_FAILED', `${path} does not hold a JSON object; nothing was changed`);
  }
  const hooks = (value as Json)['hooks'];
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))) {
    throw new EngramError('INSTALL_FAILED', `${path}: "hooks" must be an object; nothing was changed`);
  }
  return { json: value as Json, text };
}

function writeAtomic(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.engram-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

const format = (json: unknown) => `${JSON.stringify(json, null, 2)}\n`;

function groupsOf(hooks: Json, event: string): MatcherGroup[] {
  const list = hooks[event];
  return Array.isArray(list) ? (list as MatcherGroup[]) : [];
}

function entriesOf(group: MatcherGroup): HookEntry[] {
  return Array.isArray(group.hooks) ? (group.hooks as HookEntry[]) : [];
}

const isEngramEntry = (h: HookEntry) => typeof h.command === 'string' && isEngramHookCommand(h.command);

export function installHooks(
  settingsPath: string,
  spec: HookInstallSpec,
  now: () => Date = () => new Date(),
): InstallReport {
  const existing = readSettings(settingsPath);
  const settings: Json = existing ? structuredClone(existing.json) : {};
  const createdHooksKey = settings['hooks'] === undefined;
  const hooks = (settings['hooks'] ??= {}) as Json;
  const added: string[] = [];
  const alreadyPresent: string[] = [];
  for (const event of spec.events) {
    const timeout = spec.timeoutSeconds?.(event);
    const entry: HookEntry = { type: 'command', command: spec.command, ...(timeout ? { timeout } : {}) };
    const groups = groupsOf(hooks, event);
    let found = false;
    for (const group of groups) {
      const entries = entriesOf(group);
      const index = entries.findIndex(isEngramEntry);
      if (index === -1) continue;
      if (found) {
        entries.splice(index, 1); // a duplicate from an older install
        continue;
      }
      found = true;
      if (isDeepStrictEqual(entries[index], entry)) alreadyPresent.push(event);
      else {
        entries[index] = entry; // a new install path or timeout: replace in place
        added.push(event);
      }
    }
    if (!found) {
      hooks[event] = [...groups, { hooks: [entry] }];
      added.push(event);
    }
  }
  let backupPath: string | null = null;
  if (added.length > 0) {
    const mode = existing ? statSync(settingsPath).mode & 0o777 : 0o600;
    if (existing) {
      backupPath = `${settingsPath}.engram-backup-${now().toISOString().replace(/[:.]/g, '-')}`;
      copyFileSync(settingsPath, backupPath);
      chmodSync(backupPath, mode);
    }
    writeAtomic(settingsPath, format(settings), mode);
    if (!existsSync(sidecarPath(settingsPath))) {
      const sidecar: Sidecar = {
        createdFile: !existing,
        createdHooksKey,
        backupPath,
        installedAt: now().toISOString(),
      };
      writeAtomic(sidecarPath(settingsPath), format(sidecar), 0o600);
    }
  }
  return { settingsPath, backupPath, added, alreadyPresent, created: !existing };
}

function readSidecar(settingsPath: string): Sidecar | null {
  try {
    return JSON.parse(readFileSync(sidecarPath(settingsPath), 'utf8')) as Sidecar;
  } catch {
    return null; // no record of the install: entries are still removed, nothing is restored
  }
}

export function uninstallHooks(settingsPath: string): UninstallReport {
  const report: UninstallReport = { settingsPath, removed: [], restoredExactly: false, deletedFile: false };
  const existing = readSettings(settingsPath);
  const sidecar = readSidecar(settingsPath);
  if (!existing) {
    if (sidecar) unlinkSync(sidecarPath(settingsPath));
    return report;
  }
  const settings = structuredClone(existing.json);
  const hooks = settings['hooks'] as Json | undefined;
  if (hooks) {
    for (const event of Object.keys(hooks)) {
      const groups = groupsOf(hooks, event);
      let removedHere = false;
      const kept = groups
        .map((group) => {
          const entries = entriesOf(group);
          const remaining = entries.filter((h) => !isEngramEntry(h));
          if (remaining.length === entries.length) return group;
          removedHere = true;
          return remaining.length === 0 ? null : { ...group, hooks: remaining };
        })
        .filter((g): g is MatcherGroup => g !== null);
      if (!removedHere) continue;
      report.removed.push(event);
      if (kept.length === 0) delete hooks[event];
      else hooks[event] = kept;
    }
    if (Object.keys(hooks).length === 0 && sidecar?.createdHooksKey) delete settings['hooks'];
  }
  if (report.removed.length > 0) {
    const mode = statSync(settingsPath).mode & 0o777;
    const backup = sidecar?.backupPath ? readSettings(sidecar.backupPath) : null;
    if (sidecar?.createdFile && Object.keys(settings).length === 0) {
      unlinkSync(settingsPath);
      report.deletedFile = true;
    } else if (backup && isDeepStrictEqual(backup.json, settings)) {
      writeAtomic(settingsPath, backup.text, mode);
      report.restoredExactly = true;
    } else {
      writeAtomic(settingsPath, format(settings), mode);
    }
  }
  if (sidecar) unlinkSync(sidecarPath(settingsPath));
  return report;
}

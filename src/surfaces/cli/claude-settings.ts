/**
 * Merging engram's hooks into a Claude Code settings file, and taking them out again exactly.
 *
 * Settings shape: `{"hooks":{"<Event>":[{"matcher":"…","hooks":[{"type":"command","command":"…","timeout":30}]}]}}`.
 * engram adds one matcher group per event (no `matcher` key: it matches everything) and never touches anything
 * else: other settings, the user's own hooks and their order stay as they were. A backup is written next to the
 * file before every change, writes are atomic (temp file + rename, mode kept), and a sidecar
 * `<settings>.engram-install.json` records what the first install created so uninstall can undo exactly that.
 * A host that lists entries directly under each event (Copilot CLI: `{"hooks":{"<Event>":[{"type":"command",
 * "bash":"…","timeoutSec":30}]}}`) names its command and timeout keys (`flat`); the rest is the same.
 */
import { rmSync, unlinkSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { EngramError } from '../../core/errors.ts';
import { ENGRAM_HOOK_MARKER, isEngramHookCommand } from './engram-hook-command.ts';
import {
  sidecarPath,
  isObject,
  loadSettings,
  describeType,
  writeAtomic,
  formatJson,
  fileMode,
  writeBackup,
  readSidecar,
  newestBackup,
  loadBackup,
  type JsonObject,
  type Sidecar,
} from './settings-files.ts';

export interface HookInstallSpec {
  /** The shell command Claude Code runs for every event; must satisfy `isEngramHookCommand`. */
  command: string;
  events: readonly string[];
  /** Per-event timeout (seconds) written as `"timeout"`; `undefined` leaves Claude Code's default. */
  timeoutSeconds?: (event: string) => number | undefined;
  /** Entries sit directly under each event, with these keys for the command and the timeout (Copilot CLI). */
  flat?: FlatEntries;
  /** The host reads `"timeout"` in milliseconds (Gemini CLI): the seconds are written × 1000. */
  timeoutInMilliseconds?: boolean;
  /** A `"name"` written on each entry (Gemini CLI lists and toggles hooks by it). */
  name?: string;
  /** Top-level keys the file must have, written when absent and taken out again by uninstall (Cursor's `"version": 1`). */
  fileKeys?: Readonly<Record<string, string | number>>;
}

export interface FlatEntries {
  commandKey: string;
  timeoutKey: string;
}

export interface InstallReport {
  settingsPath: string;
  /** The copy of the file as it was before this call changed it; null when nothing was changed or created. */
  backupPath: string | null;
  /** Events whose engram entry was added or replaced (new command or timeout). */
  added: string[];
  /** Events whose engram entry was already exactly as wanted. */
  alreadyPresent: string[];
  /** The settings file did not exist and was created. */
  created: boolean;
}

export interface UninstallReport {
  settingsPath: string;
  /** Events from which engram entries were removed. */
  removed: string[];
  /** The file was put back byte for byte from the backup taken before engram was installed. */
  restoredExactly: boolean;
  /** engram had created the file and nothing else was in it, so it was deleted. */
  deletedFile: boolean;
}

export { ENGRAM_HOOK_MARKER, isEngramHookCommand } from './engram-hook-command.ts';

// ---------------------------------------------------------------------------------------------------------------
// Hook entries

/** Whether an entry is engram's (its command, under `commandKey`, carries engram's marker). */
const engramEntryTest =
  (commandKey: string) =>
  (entry: unknown): boolean => {
    if (!isObject(entry)) return false;
    const command = entry[commandKey];
    return typeof command === 'string' && isEngramHookCommand(command);
  };
const isEngramEntry = engramEntryTest('command');

const groupEntries = (group: unknown): unknown[] | null =>
  isObject(group) && Array.isArray(group['hooks']) ? (group['hooks'] as unknown[]) : null;

function hasAnyEngramEntry(hooks: JsonObject | undefined, flat: FlatEntries | undefined): boolean {
  if (!hooks) return false;
  const isEngram = engramEntryTest(flat?.commandKey ?? 'command');
  return Object.values(hooks).some(
    (groups) =>
      Array.isArray(groups) &&
      groups.some((group) => (flat ? isEngram(group) : (groupEntries(group)?.some(isEngram) ?? false))),
  );
}

/** A flat event list with engram's entry in place of the first of its own (duplicates dropped), or added. */
function withFlatEntry(
  current: unknown[],
  wanted: JsonObject,
  isEngram: (entry: unknown) => boolean,
): { entries: unknown[]; changed: boolean } {
  let found = false;
  let changed = false;
  const entries: unknown[] = [];
  for (const entry of current) {
    if (!isEngram(entry)) entries.push(entry);
    else if (found) changed = true;
    else {
      found = true;
      if (!isDeepStrictEqual(entry, wanted)) changed = true;
      entries.push(wanted);
    }
  }
  if (!found) {
    entries.push(wanted);
    changed = true;
  }
  return { entries, changed };
}

function validateSpec(spec: HookInstallSpec): { events: string[]; entryFor: (event: string) => JsonObject } {
  const command = typeof spec.command === 'string' ? spec.command.trim() : '';
  if (command === '' || /[\r\n]/.test(command)) {
    throw new EngramError('INPUT_INVALID', 'the hook command must be a single non-empty line');
  }
  if (!isEngramHookCommand(command)) {
    throw new EngramError('INPUT_INVALID', `the hook command is not recognisable as engram's: ${command}`, {
      hint: `End it with "${ENGRAM_HOOK_MARKER}" so it can be found again to update or uninstall.`,
    });
  }
  const events: string[] = [];
  for (const event of spec.events) {
    if (typeof event !== 'string' || event.trim() === '') {
      throw new EngramError(
        'INPUT_INVALID',
        `hook event names must be non-empty strings (got ${JSON.stringify(event)})`,
      );
    }
    if (!events.includes(event)) events.push(event);
  }
  if (events.length === 0) throw new EngramError('INPUT_INVALID', 'no hook events to install');
  const entryFor = (event: string): JsonObject => {
    const timeout = spec.timeoutSeconds?.(event);
    if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
      throw new EngramError(
        'INPUT_INVALID',
        `the timeout for ${event} must be a positive number of seconds (got ${String(timeout)})`,
      );
    }
    const keys = spec.flat ?? { commandKey: 'command', timeoutKey: 'timeout' };
    const entry: JsonObject = {
      ...(spec.name ? { name: spec.name } : {}),
      type: 'command',
      [keys.commandKey]: command,
    };
    if (timeout !== undefined) entry[keys.timeoutKey] = spec.timeoutInMilliseconds ? timeout * 1000 : timeout;
    return entry;
  };
  for (const event of events) entryFor(event); // fail before touching anything
  return { events, entryFor };
}

// ---------------------------------------------------------------------------------------------------------------
// Install / uninstall

/**
 * Adds (or updates in place) engram's hook entry for each event. Idempotent: an unchanged install writes nothing.
 * Throws INPUT_INVALID for a bad spec and INSTALL_FAILED (changing nothing) for an unusable settings file.
 */
export function installHooks(
  settingsPath: string,
  spec: HookInstallSpec,
  now: () => Date = () => new Date(),
): InstallReport {
  const { events, entryFor } = validateSpec(spec);
  const existing = loadSettings(settingsPath);
  const settings: JsonObject = existing ? structuredClone(existing.json) : {};
  const createdHooksKey = settings['hooks'] === undefined;
  const createdKeys = Object.keys(spec.fileKeys ?? {}).filter((key) => settings[key] === undefined);
  const hooks = (settings['hooks'] ??= {}) as JsonObject;
  const fresh = !hasAnyEngramEntry(hooks, spec.flat);

  const added: string[] = [];
  const alreadyPresent: string[] = [];
  let dirty = false;
  for (const event of events) {
    const wanted = entryFor(event);
    const current = hooks[event];
    if (current === undefined) {
      hooks[event] = spec.flat ? [wanted] : [{ hooks: [wanted] }];
      added.push(event);
      dirty = true;
      continue;
    }
    if (!Array.isArray(current)) {
      throw new EngramError(
        'INSTALL_FAILED',
        `${settingsPath}: "hooks.${event}" must be an array of ${spec.flat ? 'hook entries' : 'matcher groups'} (it is ${describeType(current)}); nothing was changed`,
        { hint: 'Fix that setting (or move the file away) and run the command again.' },
      );
    }
    if (spec.flat) {
      const { entries, changed } = withFlatEntry(current, wanted, engramEntryTest(spec.flat.commandKey));
      if (changed) {
        hooks[event] = entries;
        added.push(event);
        dirty = true;
      } else alreadyPresent.push(event);
      continue;
    }
    current.forEach((group, index) => {
      if (!isObject(group) || (group['hooks'] !== undefined && !Array.isArray(group['hooks']))) {
        throw new EngramError(
          'INSTALL_FAILED',
          `${settingsPath}: "hooks.${event}[${index}]" must be an object with a "hooks" array; nothing was changed`,
          { hint: 'Fix that setting (or move the file away) and run the command again.' },
        );
      }
    });
    let found = false;
    let changed = false;
    const groups: unknown[] = [];
    for (const group of current) {
      const entries = groupEntries(group);
      if (!entries?.some(isEngramEntry)) {
        groups.push(group);
        continue;
      }
      const kept: unknown[] = [];
      for (const entry of entries) {
        if (!isEngramEntry(entry)) kept.push(entry);
        else if (found)
          changed = true; // a duplicate (an older install, say): dropped
        else {
          found = true;
          if (!isDeepStrictEqual(entry, wanted)) changed = true; // new path or timeout: replaced in place
          kept.push(wanted);
        }
      }
      if (kept.length > 0) groups.push({ ...(group as JsonObject), hooks: kept });
    }
    if (!found) {
      groups.push({ hooks: [wanted] });
      changed = true;
    }
    if (changed) {
      hooks[event] = groups;
      added.push(event);
      dirty = true;
    } else alreadyPresent.push(event);
  }

  for (const key of createdKeys) {
    settings[key] = spec.fileKeys?.[key];
    dirty = true;
  }
  if (!dirty) return { settingsPath, backupPath: null, added, alreadyPresent, created: false };

  const mode = existing ? fileMode(settingsPath) : 0o600;
  const at = now();
  const backupPath = existing ? writeBackup(settingsPath, mode, at) : null;
  if (fresh) {
    // Only a fresh install knows what the file was like without engram; a later one keeps that record.
    const sidecar: Sidecar = {
      createdFile: !existing,
      createdHooksKey,
      ...(createdKeys.length > 0 ? { createdKeys } : {}),
      backupPath,
      installedAt: at.toISOString(),
    };
    writeAtomic(sidecarPath(settingsPath), formatJson(sidecar), 0o600);
  }
  writeAtomic(settingsPath, formatJson(settings), mode);
  return { settingsPath, backupPath, added, alreadyPresent, created: !existing };
}

/**
 * Removes engram's entries (only those), the matcher groups and event lists that leaves empty, and the `hooks`
 * object if engram created it and it is now empty. Restores the pre-install backup byte for byte when the result
 * equals it, deletes the file when engram created it and nothing else is left, and deletes the sidecar.
 */
export function uninstallHooks(settingsPath: string, flat?: FlatEntries): UninstallReport {
  const report: UninstallReport = { settingsPath, removed: [], restoredExactly: false, deletedFile: false };
  const sidecar = readSidecar(settingsPath);
  const existing = loadSettings(settingsPath);
  const dropSidecar = (): void => rmSync(sidecarPath(settingsPath), { force: true });
  if (!existing) {
    dropSidecar();
    return report;
  }

  const settings = structuredClone(existing.json);
  const hooks = settings['hooks'] as JsonObject | undefined;
  let alternative: JsonObject | null = null; // the result without an emptied "hooks", if engram may have added it
  if (hooks) {
    for (const event of Object.keys(hooks)) {
      const groups = hooks[event];
      if (!Array.isArray(groups)) continue;
      let removedHere = false;
      const kept: unknown[] = [];
      if (flat) {
        const isEngram = engramEntryTest(flat.commandKey);
        kept.push(...groups.filter((entry) => !isEngram(entry)));
        removedHere = kept.length < groups.length;
      } else
        for (const group of groups) {
          const entries = groupEntries(group);
          const remaining = entries?.filter((entry) => !isEngramEntry(entry));
          if (!entries || !remaining || remaining.length === entries.length) {
            kept.push(group);
            continue;
          }
          removedHere = true;
          if (remaining.length > 0) kept.push({ ...(group as JsonObject), hooks: remaining });
        }
      if (!removedHere) continue;
      report.removed.push(event);
      if (kept.length === 0) delete hooks[event];
      else hooks[event] = kept;
    }
    if (report.removed.length > 0 && Object.keys(hooks).length === 0) {
      // The keys the install added for the hooks' sake go with the last of them.
      for (const key of sidecar?.createdKeys ?? []) delete settings[key];
      if (sidecar?.createdHooksKey) delete settings['hooks'];
      else if (!sidecar) {
        alternative = { ...settings };
        delete alternative['hooks'];
      }
    }
  }

  if (report.removed.length === 0) {
    dropSidecar(); // nothing of engram's left to undo
    return report;
  }

  if (sidecar?.createdFile && Object.keys(settings).length === 0) {
    unlinkSync(settingsPath);
    report.deletedFile = true;
    dropSidecar();
    return report;
  }

  const mode = fileMode(settingsPath);
  const candidates = [sidecar?.backupPath ?? null, newestBackup(settingsPath)].filter(
    (path, index, all): path is string => path !== null && all.indexOf(path) === index,
  );
  for (const candidate of candidates) {
    const backup = loadBackup(candidate);
    if (!backup) continue;
    if (
      isDeepStrictEqual(backup.json, settings) ||
      (alternative && isDeepStrictEqual(backup.json, alternative))
    ) {
      writeAtomic(settingsPath, backup.text, mode);
      report.restoredExactly = true;
      break;
    }
  }
  if (!report.restoredExactly) writeAtomic(settingsPath, formatJson(settings), mode);
  dropSidecar();
  return report;
}

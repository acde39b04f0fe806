/**
 * engram's MCP server in Codex's `config.toml`: one `[mcp_servers.engram]` table, written after a
 * marker comment at the end of the file, every other byte of the user's file left as it was; taken
 * out again so that the file is what it was before (the one newline put before the marker goes too,
 * and a file engram created is deleted). A table of the user's own for `engram` is replaced in place,
 * after a backup, and put back by uninstall from that backup. `mcp_servers.engram` written any other
 * way (dotted keys, an inline table) is refused rather than edited.
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { EngramError } from '../../core/errors.ts';
import { fileMode, fsMessage, newestBackup, writeAtomic, writeBackup } from './settings-files.ts';
import { keyStartsWith, tomlStatements, tomlString, type TomlStatement } from './toml-statements.ts';

const NAME = ['mcp_servers', 'engram'];
const MARKER = '# engram: its MCP server ("engram uninstall --host codex" takes this table out)';
const MARKER_CREATED = `${MARKER.slice(0, -1)}; engram created this file)`;

export type TomlEntry = Record<string, string | readonly string[]>;

/** How engram's table came to be where it is: appended after one newline (in a file it created or not), or in place of the user's own. */
type Placement = 'appended' | 'created' | 'replaced';

const value = (v: string | readonly string[]): string =>
  typeof v === 'string' ? tomlString(v) : `[${v.map(tomlString).join(', ')}]`;

/** The text engram writes: the marker (not in place of the user's own table), the header, one line per field. */
export function engramTable(entry: TomlEntry, placement: Placement): string {
  const lines = [`[${NAME.join('.')}]`];
  if (placement !== 'replaced') lines.unshift(placement === 'created' ? MARKER_CREATED : MARKER);
  for (const [key, v] of Object.entries(entry)) lines.push(`${key} = ${value(v)}`);
  return `${lines.join('\n')}\n`;
}

interface Found {
  /** Byte ranges of engram's tables (its marker comment included), in order. */
  ranges: { start: number; end: number }[];
  /** How the first one was placed: a marker says engram appended it; without one it may be the user's. */
  placement: Placement;
}

function refused(file: string, what: string): EngramError {
  return new EngramError(
    'INSTALL_FAILED',
    `${file} defines the MCP server "engram" as ${what}, which engram does not edit; nothing was changed`,
    { hint: 'Take that entry out (or run "codex mcp remove engram") and run the command again.' },
  );
}

/** Where `[mcp_servers.engram]` and its sub-tables are; refuses any other form of that key. */
function findEngram(text: string, file: string): Found {
  const statements = tomlStatements(text, file);
  const found: Found = { ranges: [], placement: 'replaced' };
  let open: { start: number; end: number } | null = null;
  statements.forEach((s: TomlStatement, i) => {
    if (s.kind === 'pair') {
      const full = [...s.table, ...s.key];
      if (open) open.end = s.end;
      // `mcp_servers.engram.command = …`, `engram = {…}` under [mcp_servers], or `mcp_servers = {…}`
      // (an inline table cannot be added to by a table header).
      else if (keyStartsWith(full, NAME) || (full.length === 1 && full[0] === NAME[0]))
        throw refused(file, full.join('.'));
      return;
    }
    if (s.kind !== 'table' && s.kind !== 'array-table') return;
    if (open) found.ranges.push(open);
    open = null;
    if (!keyStartsWith(s.key, NAME)) return;
    if (s.kind === 'array-table') throw refused(file, `[[${s.key.join('.')}]]`);
    let start = s.start;
    const before = statements[i - 1];
    const marker = before?.kind === 'comment' ? text.slice(before.start, before.end).trim() : '';
    if (marker === MARKER || marker === MARKER_CREATED) {
      start = before?.start ?? start;
      if (found.ranges.length === 0) found.placement = marker === MARKER ? 'appended' : 'created';
    }
    open = { start, end: s.end };
  });
  if (open) found.ranges.push(open);
  return found;
}

/** `text` without engram's tables; the newline engram put before an appended one goes with it. */
function strip(text: string, found: Found): string {
  let out = '';
  let at = 0;
  found.ranges.forEach((r, i) => {
    let start = r.start;
    if (i === 0 && found.placement !== 'replaced' && start > 0 && text[start - 1] === '\n') start -= 1;
    out += text.slice(at, start);
    at = r.end;
  });
  return out + text.slice(at);
}

export interface TomlRegisterReport {
  changed: boolean;
  backupPath: string | null;
}

/** Writes engram's table into `file` (created when missing); unchanged when it is already exactly so. */
export function registerTomlMcp(file: string, entry: TomlEntry, now: () => Date): TomlRegisterReport {
  const exists = existsSync(file);
  const text = exists ? read(file) : '';
  const found = findEngram(text, file);
  let next: string;
  const first = found.ranges[0];
  if (!first) {
    next =
      text === ''
        ? engramTable(entry, exists ? 'appended' : 'created')
        : `${text}\n${engramTable(entry, 'appended')}`;
  } else {
    const table = engramTable(entry, found.placement);
    if (found.ranges.length === 1 && text.slice(first.start, first.end) === table)
      return { changed: false, backupPath: null };
    // In place of the first, the others (sub-tables of the user's: env, tools …) taken out.
    let out = text.slice(0, first.start) + table;
    let at = first.end;
    for (const r of found.ranges.slice(1)) {
      out += text.slice(at, r.start);
      at = r.end;
    }
    next = out + text.slice(at);
  }
  const mode = exists ? fileMode(file) : 0o600;
  const backupPath = exists ? writeBackup(file, mode, now()) : null;
  writeAtomic(file, next, mode);
  return { changed: true, backupPath };
}

/**
 * Takes engram's table out of `file`, leaving the file as it was before engram: the newline engram
 * added goes too, a file engram created and nothing else uses is deleted, and a user's own `engram`
 * table that install replaced comes back from its backup (when nothing else changed since). Returns
 * whether there was a table.
 */
export function unregisterTomlMcp(file: string): boolean {
  if (!existsSync(file)) return false;
  const text = read(file);
  const found = findEngram(text, file);
  if (found.ranges.length === 0) return false;
  const next = strip(text, found);
  if (found.placement === 'created' && next.trim() === '') {
    unlinkSync(file);
    return true;
  }
  const mode = fileMode(file);
  const backup = found.placement === 'replaced' ? newestBackup(file) : null;
  if (backup) {
    const before = read(backup);
    const theirs = (() => {
      try {
        return findEngram(before, backup);
      } catch {
        return null; // a backup that cannot be read is not restored
      }
    })();
    if (
      theirs &&
      theirs.ranges.length > 0 &&
      theirs.placement === 'replaced' &&
      strip(before, theirs) === next
    ) {
      writeAtomic(file, before, mode);
      return true;
    }
  }
  writeAtomic(file, next, mode);
  return true;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new EngramError('INSTALL_FAILED', `cannot read ${file}: ${fsMessage(error)}`, { cause: error });
  }
}

/** engram's entry as registered in `file` (its `command` and `args` lines), or null when there is none. */
export function readTomlMcp(file: string): { command: string; args: string[] } | null {
  if (!existsSync(file)) return null;
  const text = read(file);
  const first = findEngram(text, file).ranges[0];
  if (!first) return null;
  const body = text.slice(first.start, first.end);
  const unquote = (s: string): string => {
    try {
      return JSON.parse(`"${s}"`) as string; // TOML's basic-string escapes, but for \U and \e
    } catch {
      return s;
    }
  };
  const command = /^\s*command\s*=\s*"((?:[^"\\]|\\.)*)"/m.exec(body)?.[1] ?? '';
  const list = /^\s*args\s*=\s*\[([^\]]*)\]/m.exec(body)?.[1] ?? '';
  const args = [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unquote(m[1] ?? ''));
  return { command: unquote(command), args };
}

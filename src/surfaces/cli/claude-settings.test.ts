import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.ts';
import { installHooks, isEngramHookCommand, uninstallHooks } from './claude-settings.ts';

const COMMAND = '"/usr/bin/node" "/opt/memory/dist/hook.cjs" # engram-hook';
const EVENTS = ['SessionStart', 'PostToolUse', 'Stop'];
const spec = { command: COMMAND, events: EVENTS, timeoutSeconds: () => 15 };

describe('Claude Code settings merge', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-settings-'));
    path = join(dir, '.claude', 'settings.json');
    mkdirSync(join(dir, '.claude'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const read = () =>
    JSON.parse(readFileSync(path, 'utf8')) as {
      hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    } & Record<string, unknown>;

  it('creates the file when missing, and uninstall deletes it again', () => {
    const report = installHooks(path, spec);
    expect(report).toMatchObject({ created: true, backupPath: null, added: EVENTS });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(read().hooks['Stop']).toEqual([{ hooks: [{ type: 'command', command: COMMAND, timeout: 15 }] }]);
    expect(uninstallHooks(path)).toMatchObject({ removed: EVENTS, deletedFile: true });
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(join(dir, '.claude'))).toEqual([]);
  });

  it('keeps the user settings and hooks, is idempotent, and restores the file byte for byte', () => {
    const original =
      '{\n    "model": "opus",\n    "hooks": {\n        "Stop": [ { "matcher": "", "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]\n    }\n}\n';
    writeFileSync(path, original, { mode: 0o644 });
    const first = installHooks(path, spec);
    expect(first.backupPath).not.toBeNull();
    expect(readFileSync(first.backupPath as string, 'utf8')).toBe(original);
    const merged = read();
    expect(merged['model']).toBe('opus');
    expect(merged.hooks['Stop']?.map((g) => g.hooks[0]?.command)).toEqual(['notify-send done', COMMAND]);
    expect(statSync(path).mode & 0o777).toBe(0o644);

    const second = installHooks(path, spec);
    expect(second).toMatchObject({ added: [], alreadyPresent: EVENTS, backupPath: null });
    expect(read().hooks['Stop']).toHaveLength(2);

    const movedCommand = '"/usr/bin/node" "/new/place/dist/hook.cjs" # engram-hook';
    const moved = installHooks(path, { ...spec, command: movedCommand });
    expect(moved.added).toEqual(EVENTS);
    expect(read().hooks['Stop']?.map((g) => g.hooks[0]?.command)).toEqual(['notify-send done', movedCommand]);

    const undone = uninstallHooks(path);
    expect(undone).toMatchObject({ restoredExactly: true, deletedFile: false });
    expect([...undone.removed].sort()).toEqual([...EVENTS].sort());
    expect(readFileSync(path, 'utf8')).toBe(original);
  });

  it('keeps a setting the user changed after installing', () => {
    writeFileSync(path, JSON.stringify({ model: 'opus' }));
    installHooks(path, spec);
    const edited = read();
    edited['theme'] = 'dark';
    writeFileSync(path, JSON.stringify(edited));
    expect(uninstallHooks(path)).toMatchObject({ restoredExactly: false, deletedFile: false });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ model: 'opus', theme: 'dark' });
  });

  it('refuses to touch invalid JSON and says where the problem is', () => {
    writeFileSync(path, '{ "model": "opus", }');
    expect(() => installHooks(path, spec)).toThrow(EngramError);
    expect(() => installHooks(path, spec)).toThrow(/settings\.json is not valid JSON.*nothing was changed/);
    expect(readFileSync(path, 'utf8')).toBe('{ "model": "opus", }');
    writeFileSync(path, '{ "hooks": [] }');
    expect(() => installHooks(path, spec)).toThrow(/"hooks" must be an object/);
  });

  it('recognises only engram hook commands', () => {
    expect(isEngramHookCommand(COMMAND)).toBe(true);
    expect(isEngramHookCommand('engram hook')).toBe(true);
    expect(isEngramHookCommand('/home/u/.npm/bin/engram hook')).toBe(true);
    expect(isEngramHookCommand('node /x/dist/hook.cjs #  engram-hook ')).toBe(true);
    expect(isEngramHookCommand('echo engram > /tmp/x')).toBe(false);
    expect(isEngramHookCommand('engram-notify hook')).toBe(false);
    expect(isEngramHookCommand('node /opt/other/dist/hook.cjs')).toBe(false);
    expect(isEngramHookCommand('engram hook --other')).toBe(false);
  });
});

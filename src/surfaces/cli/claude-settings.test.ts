import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.ts';
import { HOOK_EVENTS } from '../../core/model.ts';
import { installHooks, isEngramHookCommand, uninstallHooks } from './claude-settings.ts';

const COMMAND = '"/usr/bin/node" "/opt/memory/dist/hook.cjs" # engram-hook';
const EVENTS = ['SessionStart', 'PostToolUse', 'Stop'];
const spec = { command: COMMAND, events: EVENTS, timeoutSeconds: () => 15 };
const FIXED = () => new Date('2026-01-02T03:04:05.678Z');

type Group = { matcher?: string; hooks: { type?: string; command: string; timeout?: number }[] };
type Settings = { hooks: Record<string, Group[]> } & Record<string, unknown>;

function caught(fn: () => unknown): EngramError {
  try {
    fn();
  } catch (error) {
    if (error instanceof EngramError) return error;
    throw error;
  }
  throw new Error('expected an EngramError');
}

describe('Claude Code settings merge', () => {
  let dir: string;
  let claudeDir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-settings-'));
    claudeDir = join(dir, '.claude');
    path = join(claudeDir, 'settings.json');
    mkdirSync(claudeDir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const read = (p = path) => JSON.parse(readFileSync(p, 'utf8')) as Settings;
  const commands = (event: string, p = path) =>
    read(p).hooks[event]?.flatMap((g) => g.hooks.map((h) => h.command));
  const listing = () => readdirSync(claudeDir).sort();
  const backups = () => listing().filter((n) => n.includes('.engram-backup-'));

  it('creates the file (and missing directories) with mode 0600, and uninstall deletes it again', () => {
    const nested = join(dir, 'a', 'b', 'settings.json');
    const report = installHooks(nested, { ...spec, events: HOOK_EVENTS }, FIXED);
    expect(report).toEqual({
      settingsPath: nested,
      created: true,
      backupPath: null,
      added: [...HOOK_EVENTS],
      alreadyPresent: [],
    });
    expect(statSync(nested).mode & 0o777).toBe(0o600);
    const text = readFileSync(nested, 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(read(nested).hooks['Stop']).toEqual([
      { hooks: [{ type: 'command', command: COMMAND, timeout: 15 }] },
    ]);
    expect(Object.keys(read(nested).hooks)).toEqual([...HOOK_EVENTS]);
    expect(JSON.parse(readFileSync(`${nested}.engram-install.json`, 'utf8'))).toEqual({
      createdFile: true,
      createdHooksKey: true,
      backupPath: null,
      installedAt: '2026-01-02T03:04:05.678Z',
    });

    expect(uninstallHooks(nested)).toEqual({
      settingsPath: nested,
      removed: [...HOOK_EVENTS],
      restoredExactly: false,
      deletedFile: true,
    });
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual([]);
  });

  it('keeps other settings and the user hooks (in order), and backs up the original with its mode', () => {
    const original = {
      model: 'opus',
      permissions: { allow: ['Bash(ls:*)'] },
      hooks: {
        Stop: [
          { matcher: '', hooks: [{ type: 'command', command: 'notify-send done' }] },
          { hooks: [{ type: 'command', command: 'echo engram > /tmp/x', timeout: 3 }] },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'say hi' }] }],
      },
      statusLine: { type: 'command', command: 'x' },
    };
    const originalText = JSON.stringify(original);
    writeFileSync(path, originalText, { mode: 0o644 });
    const report = installHooks(path, spec, FIXED);
    expect(report).toMatchObject({ created: false, added: EVENTS, alreadyPresent: [] });
    expect(report.backupPath).toBe(`${path}.engram-backup-2026-01-02T03-04-05-678Z`);
    expect(readFileSync(report.backupPath as string, 'utf8')).toBe(originalText);
    expect(statSync(report.backupPath as string).mode & 0o777).toBe(0o644);
    expect(statSync(path).mode & 0o777).toBe(0o644);

    const merged = read();
    expect(Object.keys(merged)).toEqual(['model', 'permissions', 'hooks', 'statusLine']);
    expect(merged['permissions']).toEqual(original.permissions);
    expect(merged.hooks['Stop']).toEqual([
      ...original.hooks.Stop,
      { hooks: [{ type: 'command', command: COMMAND, timeout: 15 }] },
    ]);
    expect(merged.hooks['Notification']).toEqual(original.hooks.Notification);
    expect(Object.keys(merged.hooks)).toEqual(['Stop', 'Notification', 'SessionStart', 'PostToolUse']);
    expect(listing()).toEqual([
      'settings.json',
      'settings.json.engram-backup-2026-01-02T03-04-05-678Z',
      'settings.json.engram-install.json',
    ]);

    const undone = uninstallHooks(path);
    expect(undone).toMatchObject({ restoredExactly: true, deletedFile: false });
    expect([...undone.removed].sort()).toEqual([...EVENTS].sort());
    expect(readFileSync(path, 'utf8')).toBe(originalText);
    expect(listing()).toEqual(['settings.json', 'settings.json.engram-backup-2026-01-02T03-04-05-678Z']);
  });

  it('is idempotent: a second install changes nothing and writes no backup', () => {
    writeFileSync(path, JSON.stringify({ model: 'opus' }));
    installHooks(path, spec, FIXED);
    const before = readFileSync(path, 'utf8');
    const second = installHooks(path, spec, FIXED);
    expect(second).toEqual({
      settingsPath: path,
      backupPath: null,
      added: [],
      alreadyPresent: EVENTS,
      created: false,
    });
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(backups()).toHaveLength(1);
    for (const event of EVENTS) expect(commands(event)).toEqual([COMMAND]);
  });

  it('replaces an entry whose command or timeout changed in place, and collapses duplicates', () => {
    writeFileSync(
      path,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'user-first' }] }] } }),
    );
    installHooks(path, spec, FIXED);
    // The user adds a hook after engram's.
    const edited = read();
    edited.hooks['Stop']?.push({ hooks: [{ type: 'command', command: 'user-last' }] });
    // An older install left a second engram entry inside a user's group.
    edited.hooks['PostToolUse'] = [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'lint' },
          { type: 'command', command: 'engram hook' },
        ],
      },
      ...(edited.hooks['PostToolUse'] ?? []),
    ];
    writeFileSync(path, JSON.stringify(edited, null, 2));

    const moved = '"/usr/bin/node" "/new/place/dist/hook.cjs" # engram-hook';
    const report = installHooks(
      path,
      { ...spec, command: moved, timeoutSeconds: (e) => (e === 'Stop' ? 5 : 15) },
      FIXED,
    );
    expect(report.added).toEqual(EVENTS);
    expect(report.backupPath).toBe(`${path}.engram-backup-2026-01-02T03-04-05-678Z-1`); // same instant: a new name
    expect(commands('Stop')).toEqual(['user-first', moved, 'user-last']);
    expect(read().hooks['Stop']?.[1]).toEqual({ hooks: [{ type: 'command', command: moved, timeout: 5 }] });
    // The first engram entry found is replaced where it stands; the duplicate's group, now empty, goes.
    expect(read().hooks['PostToolUse']).toEqual([
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'lint' },
          { type: 'command', command: moved, timeout: 15 },
        ],
      },
    ]);

    // Only the timeout changes: still a replacement, one entry.
    installHooks(path, { ...spec, command: moved, timeoutSeconds: () => 20 }, FIXED);
    expect(read().hooks['Stop']?.[1]).toEqual({ hooks: [{ type: 'command', command: moved, timeout: 20 }] });
    // No timeout: the key is left out.
    installHooks(path, { command: moved, events: ['Stop'] }, FIXED);
    expect(read().hooks['Stop']?.[1]).toEqual({ hooks: [{ type: 'command', command: moved }] });
  });

  it('restores odd formatting byte for byte after install, reinstall with a new path, and uninstall', () => {
    const original =
      '{\n    "model": "opus",\n    "hooks": {\n        "Stop": [ { "matcher": "", "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]\n    }\n}\n';
    writeFileSync(path, original, { mode: 0o640 });
    const first = installHooks(path, spec, FIXED);
    expect(readFileSync(first.backupPath as string, 'utf8')).toBe(original);
    installHooks(path, { ...spec, command: 'node /home/u/engram/dist/hook.cjs' }, FIXED);
    expect(commands('Stop')).toEqual(['notify-send done', 'node /home/u/engram/dist/hook.cjs']);

    const undone = uninstallHooks(path);
    expect(undone).toMatchObject({ restoredExactly: true, deletedFile: false });
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(existsSync(`${path}.engram-install.json`)).toBe(false);
  });

  it('refuses invalid JSON, naming the file and the position, and changes nothing', () => {
    const bad = '{\n  "model": "opus",\n}\n';
    writeFileSync(path, bad);
    const error = caught(() => installHooks(path, spec));
    expect(error.code).toBe('INSTALL_FAILED');
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/is not valid JSON: .*line 3,? column 1.*nothing was changed/);
    expect(error.hint).toMatch(/fix the file \(or move it away\)/i);
    expect(readFileSync(path, 'utf8')).toBe(bad);
    expect(listing()).toEqual(['settings.json']);
    expect(caught(() => uninstallHooks(path)).code).toBe('INSTALL_FAILED');
    expect(readFileSync(path, 'utf8')).toBe(bad);
  });

  it('refuses settings of the wrong shape and changes nothing', () => {
    for (const [text, message] of [
      ['[]', /does not hold a JSON object/],
      ['{ "hooks": [] }', /"hooks" must be an object \(it is an array\)/],
      ['{ "hooks": "x" }', /"hooks" must be an object \(it is a string\)/],
      ['{ "hooks": { "Stop": {} } }', /"hooks\.Stop" must be an array of matcher groups/],
      ['{ "hooks": { "Stop": [null] } }', /"hooks\.Stop\[0\]" must be an object with a "hooks" array/],
      ['{ "hooks": { "Stop": [{ "hooks": 1 }] } }', /"hooks\.Stop\[0\]" must be an object/],
    ] as const) {
      writeFileSync(path, text);
      const error = caught(() => installHooks(path, spec));
      expect(error.code).toBe('INSTALL_FAILED');
      expect(error.message).toMatch(message);
      expect(error.message).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(listing()).toEqual(['settings.json']);
    }
  });

  it('leaves malformed settings for events it does not install untouched', () => {
    writeFileSync(path, JSON.stringify({ hooks: { Notification: 'whatever' } }));
    installHooks(path, spec, FIXED);
    expect(read().hooks['Notification']).toBe('whatever');
    expect(uninstallHooks(path)).toMatchObject({ restoredExactly: true });
  });

  it('keeps a setting the user changed after installing', () => {
    writeFileSync(path, JSON.stringify({ model: 'opus' }));
    installHooks(path, spec, FIXED);
    const edited = read();
    edited['theme'] = 'dark';
    edited.hooks['Stop']?.push({ hooks: [{ type: 'command', command: 'mine' }] });
    writeFileSync(path, JSON.stringify(edited));
    const undone = uninstallHooks(path);
    expect(undone).toMatchObject({ restoredExactly: false, deletedFile: false });
    expect([...undone.removed].sort()).toEqual([...EVENTS].sort());
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text)).toEqual({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] },
      theme: 'dark',
    });
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  it('drops the hooks object it created once empty, but keeps one the user had', () => {
    writeFileSync(path, JSON.stringify({ model: 'opus' }));
    installHooks(path, spec, FIXED);
    writeFileSync(path, JSON.stringify({ ...read(), theme: 'dark' }));
    uninstallHooks(path);
    expect(read()).toEqual({ model: 'opus', theme: 'dark' });

    writeFileSync(path, JSON.stringify({ hooks: {} }));
    installHooks(path, spec, FIXED);
    writeFileSync(path, JSON.stringify({ ...read(), theme: 'dark' }));
    uninstallHooks(path);
    expect(read()).toEqual({ hooks: {}, theme: 'dark' });
  });

  it('does not delete a created file the user has since added to', () => {
    installHooks(path, spec, FIXED);
    const edited = read();
    edited.hooks['Stop']?.unshift({ hooks: [{ type: 'command', command: 'mine' }] });
    writeFileSync(path, JSON.stringify(edited));
    expect(uninstallHooks(path)).toMatchObject({ deletedFile: false, restoredExactly: false });
    expect(read()).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] } });
  });

  it('removes only engram entries, keeping a user hook that shares a group', () => {
    writeFileSync(
      path,
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: 'Edit|Write',
              hooks: [
                { type: 'command', command: 'prettier --write' },
                { type: 'command', command: 'npx -y engram hook' },
                { type: 'command', command: 'echo engram hook' },
              ],
            },
          ],
        },
      }),
    );
    const undone = uninstallHooks(path);
    expect(undone).toEqual({
      settingsPath: path,
      removed: ['PostToolUse'],
      restoredExactly: false,
      deletedFile: false,
    });
    expect(read().hooks['PostToolUse']).toEqual([
      {
        matcher: 'Edit|Write',
        hooks: [
          { type: 'command', command: 'prettier --write' },
          { type: 'command', command: 'echo engram hook' },
        ],
      },
    ]);
  });

  it('uninstalls without a sidecar, still restoring exactly when the newest backup matches', () => {
    const original = '{"model":"opus"}';
    writeFileSync(path, original);
    installHooks(path, spec, FIXED);
    unlinkSync(`${path}.engram-install.json`);
    const undone = uninstallHooks(path);
    expect(undone).toMatchObject({ restoredExactly: true, deletedFile: false });
    expect(readFileSync(path, 'utf8')).toBe(original);

    // Created by install, sidecar lost: engram entries go, the (now empty) file stays.
    rmSync(path);
    installHooks(path, spec, FIXED);
    unlinkSync(`${path}.engram-install.json`);
    expect(uninstallHooks(path)).toMatchObject({ deletedFile: false });
    expect(read()).toEqual({ hooks: {} });
  });

  it('does nothing when there is nothing to uninstall', () => {
    expect(uninstallHooks(path)).toEqual({
      settingsPath: path,
      removed: [],
      restoredExactly: false,
      deletedFile: false,
    });
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, '{ "model": "opus" }');
    expect(uninstallHooks(path).removed).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe('{ "model": "opus" }');
    expect(listing()).toEqual(['settings.json']);
  });

  it('writes through a symlinked settings file, keeping the link', () => {
    const target = join(dir, 'dotfiles-settings.json');
    const original = '{ "model": "opus" }\n';
    writeFileSync(target, original, { mode: 0o644 });
    symlinkSync(target, path);
    installHooks(path, spec, FIXED);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(commands('Stop', target)).toEqual([COMMAND]);
    uninstallHooks(path);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(original);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects a spec it could not find again, before touching anything', () => {
    for (const bad of [
      { ...spec, command: 'node /opt/other/dist/hook.cjs' },
      { ...spec, command: '  ' },
      { ...spec, command: 'engram hook\nrm -rf ~' },
      { ...spec, events: [] },
      { ...spec, events: [''] },
      { ...spec, timeoutSeconds: () => 0 },
      { ...spec, timeoutSeconds: () => Number.NaN },
    ]) {
      expect(caught(() => installHooks(path, bad)).code).toBe('INPUT_INVALID');
    }
    expect(listing()).toEqual([]);
  });

  it('recognises engram hook commands and not lookalikes', () => {
    const engrams = [
      COMMAND,
      'node /x/dist/hook.cjs #  engram-hook ',
      'node /x/dist/hook.cjs #engram-hook',
      '"/usr/bin/node" "/opt/engram/dist/hook.cjs"',
      'node /usr/lib/node_modules/engram/dist/hook.cjs',
      '/home/u/src/engram-main/dist/hook.cjs',
      '"/Users/J Doe/.nvm/bin/node" --no-warnings "/Users/J Doe/src/Engram/dist/hook.cjs"',
      "'C:\\Program Files\\nodejs\\node.exe' 'C:\\Users\\u\\engram\\dist\\hook.cjs'",
      'engram hook',
      '  engram hook  ',
      '/home/u/.npm/bin/engram hook',
      '"/home/u/my tools/engram" hook',
      'node /opt/engram/bin/engram hook',
      'npx engram hook',
      'npx -y engram@0.1.0 hook',
      'ENGRAM_HOME=/tmp/e exec engram hook',
    ];
    const lookalikes = [
      'echo engram > /tmp/x',
      'echo engram hook',
      'echo "engram hook"',
      "echo 'x # engram-hook'",
      'echo x#engram-hook',
      '# engram-hook',
      'engram-notify hook',
      'engram hook --other',
      'engram hook; rm -rf ~',
      'engram hook | tee /tmp/log',
      'engram status',
      'myengram hook',
      'node /opt/other/dist/hook.cjs',
      'node /home/engramfan/dist/hook.cjs',
      'node /opt/engram/dist/hook.cjs.bak',
      'node /opt/engram/dist/other.cjs',
      'cat /opt/engram/dist/hook.cjs',
      'node /opt/engram/dist/hook.cjs > /tmp/out',
      'node /opt/engram/dist/hook.cjs extra',
      'hook.cjs',
      'npx engram-fork hook',
      'node "/opt/engram/dist/hook.cjs',
      '',
    ];
    for (const command of engrams) expect([command, isEngramHookCommand(command)]).toEqual([command, true]);
    for (const command of lookalikes)
      expect([command, isEngramHookCommand(command)]).toEqual([command, false]);
  });
});

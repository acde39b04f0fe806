import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTomlMcp, registerTomlMcp, unregisterTomlMcp } from './toml-mcp.ts';
import { tomlStatements } from './toml-statements.ts';

const ENTRY = {
  command: '/usr/bin/node',
  args: ['/opt/engram/dist/cli.mjs', 'mcp'],
  env_vars: ['ENGRAM_HOME'],
};
const now = () => new Date('2026-11-27T12:00:00Z');

/** A config a user might have: comments, a multi-line string and array, a table header inside a string. */
const USERS = [
  '# my codex config',
  'model = "gpt-5.1-codex"',
  "notes = '''",
  '[mcp_servers.engram]',
  "not a table: inside a literal string'''",
  'trusted = [',
  '  "a", # a comment with ] and [',
  '  [ "nested" ],',
  ']',
  '',
  '[mcp_servers.docs]',
  'command = "npx"',
  'args = ["-y", "docs-mcp"]',
  '',
  '[mcp_servers.docs.env]',
  'TOKEN_NAME = "x"',
].join('\n');

describe('engram in Codex config.toml', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-toml-'));
    file = join(dir, 'config.toml');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the file when there is none, and deletes it again', () => {
    expect(registerTomlMcp(file, ENTRY, now)).toEqual({ changed: true, backupPath: null });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[mcp_servers.engram]\ncommand = "/usr/bin/node"\n');
    expect(text).toContain('args = ["/opt/engram/dist/cli.mjs", "mcp"]\nenv_vars = ["ENGRAM_HOME"]\n');
    expect(readTomlMcp(file)).toEqual({ command: ENTRY.command, args: ENTRY.args });
    expect(unregisterTomlMcp(file)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(unregisterTomlMcp(file)).toBe(false);
  });

  for (const [label, original] of [
    ['ending in a newline', `${USERS}\n`],
    ['without a final newline', USERS],
    ['empty', ''],
  ] as const) {
    it(`appends to a file ${label}, keeps every byte of it and takes only its own table out`, () => {
      writeFileSync(file, original);
      const first = registerTomlMcp(file, ENTRY, now);
      expect(first.changed).toBe(true);
      expect(first.backupPath && readFileSync(first.backupPath, 'utf8')).toBe(original);
      const installed = readFileSync(file, 'utf8');
      expect(installed.startsWith(original)).toBe(true);
      expect(readTomlMcp(file)?.args).toEqual(ENTRY.args);
      // The table header inside the user's string is not taken for a table.
      const tables = tomlStatements(installed, file).filter((s) => s.kind === 'table');
      expect(tables.map((t) => t.key.join('.'))).toEqual(
        original === ''
          ? ['mcp_servers.engram']
          : ['mcp_servers.docs', 'mcp_servers.docs.env', 'mcp_servers.engram'],
      );

      expect(registerTomlMcp(file, ENTRY, now)).toEqual({ changed: false, backupPath: null });
      expect(readdirSync(dir).filter((n) => n.includes('.engram-backup-'))).toHaveLength(1);

      expect(unregisterTomlMcp(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(original);
    });
  }

  it('updates its table in place when engram moved, and still leaves the file as it was', () => {
    writeFileSync(file, `${USERS}\n`);
    registerTomlMcp(file, ENTRY, now);
    // Codex (or the user) adds a table after engram's.
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n[projects."/src/app"]\ntrust_level = "trusted"\n`);
    const moved = { ...ENTRY, args: ['/new/place/dist/cli.mjs', 'mcp'] };
    expect(registerTomlMcp(file, moved, now).changed).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(readTomlMcp(file)?.args).toEqual(moved.args);
    expect(text).not.toContain('/opt/engram');
    expect(text.endsWith('[projects."/src/app"]\ntrust_level = "trusted"\n')).toBe(true);
    expect(unregisterTomlMcp(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${USERS}\n\n[projects."/src/app"]\ntrust_level = "trusted"\n`);
  });

  it("replaces the user's own engram table (and its sub-tables) in place; uninstall puts it back", () => {
    const own = [
      'model = "o3"',
      '',
      '[mcp_servers.engram]',
      'command = "engram"',
      'args = ["mcp"]',
      '',
      '[mcp_servers.engram.env]',
      'ENGRAM_HOME = "/data/engram"',
      '',
      '[mcp_servers.other]',
      'command = "other"',
      '',
    ].join('\n');
    writeFileSync(file, own);
    expect(registerTomlMcp(file, ENTRY, now).changed).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('/data/engram');
    expect(text.startsWith('model = "o3"\n\n[mcp_servers.engram]\ncommand = "/usr/bin/node"\n')).toBe(true);
    expect(text.endsWith('\n[mcp_servers.other]\ncommand = "other"\n')).toBe(true);
    expect(unregisterTomlMcp(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(own);
  });

  it('refuses forms of mcp_servers.engram it does not edit, changing nothing', () => {
    for (const text of [
      'mcp_servers.engram.command = "engram"\n',
      '[mcp_servers]\nengram = { command = "engram" }\n',
      'mcp_servers = { docs = { command = "x" } }\n',
      '[[mcp_servers.engram]]\ncommand = "x"\n',
      'model = "unclosed\n',
      'model = [1, 2\n',
    ]) {
      writeFileSync(file, text);
      expect(() => registerTomlMcp(file, ENTRY, now), text).toThrow(/nothing was changed/);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('writes paths with quotes and backslashes as TOML strings', () => {
    const odd = { command: 'C:\\Program Files\\node.exe', args: ['/a "b"/cli.mjs', 'mcp'] };
    registerTomlMcp(file, odd, now);
    expect(readFileSync(file, 'utf8')).toContain('command = "C:\\\\Program Files\\\\node.exe"');
    expect(readTomlMcp(file)).toEqual(odd);
  });
});

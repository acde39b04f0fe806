import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPluginFile, uninstallPluginFile, type PluginSpec } from './plugin-file.ts';

const MARK = '// engram plugin';
const spec = (version: string): PluginSpec => ({
  source: (dirs) => `${MARK}\n// dirs ${JSON.stringify(dirs)}\n// ${version}\n`,
  isEngrams: (text) => text.startsWith(MARK),
  createdDirs: (text) => JSON.parse(/\/\/ dirs (.*)/.exec(text)?.[1] ?? '[]') as string[],
});

describe('a plugin file engram owns', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-plugin-file-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is created with the folders it needs, and uninstall takes those folders away again', () => {
    const file = join(root, 'config', 'opencode', 'plugins', 'engram.js');
    const made = installPluginFile(file, spec('v1'));
    expect(made).toMatchObject({
      outcome: 'created',
      createdDirs: [
        join(root, 'config'),
        join(root, 'config', 'opencode'),
        join(root, 'config', 'opencode', 'plugins'),
      ],
    });
    expect(installPluginFile(file, spec('v1')).outcome).toBe('unchanged');
    expect(installPluginFile(file, spec('v2')).outcome).toBe('updated');
    expect(readFileSync(file, 'utf8')).toContain('v2');
    // The host has written beside it since: that folder stays, with what it holds.
    writeFileSync(join(root, 'config', 'opencode', 'opencode.json'), '{}');
    const removed = uninstallPluginFile(file, spec('v2'));
    expect(removed).toMatchObject({
      removed: true,
      removedDirs: [join(root, 'config', 'opencode', 'plugins')],
    });
    expect(existsSync(join(root, 'config', 'opencode', 'opencode.json'))).toBe(true);
    expect(uninstallPluginFile(file, spec('v2'))).toMatchObject({ removed: false, foreign: false });
  });

  it('never replaces or deletes a file that is not engram’s, nor a folder that was there', () => {
    mkdirSync(join(root, 'plugins'));
    const file = join(root, 'plugins', 'engram.js');
    writeFileSync(file, 'export const Mine = async () => ({});\n');
    expect(() => installPluginFile(file, spec('v1'))).toThrow(/not engram's plugin/);
    expect(uninstallPluginFile(file, spec('v1'))).toMatchObject({ removed: false, foreign: true });
    expect(readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({});\n');
    rmSync(file);
    expect(installPluginFile(file, spec('v1')).createdDirs).toEqual([]);
    uninstallPluginFile(file, spec('v1'));
    expect(existsSync(join(root, 'plugins'))).toBe(true);
  });
});

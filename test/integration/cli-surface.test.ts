import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/surfaces/cli/commands/index.ts';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

describe('the CLI a user meets', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox();
  });
  afterAll(() => sb.cleanup());

  it('has --help for every command: usage, options and an example, exit 0', () => {
    expect(COMMANDS.length).toBeGreaterThan(15);
    for (const { name } of COMMANDS) {
      const r = sb.engram([name, '--help']);
      expect(r.status, name).toBe(0);
      expect(r.stdout, name).toMatch(new RegExp(`^Usage: engram ${name}`));
      expect(r.stdout, name).toMatch(/\nOptions:\n/);
      expect(r.stdout, name).toMatch(/\nExamples:\n {2}engram /);
    }
    expect(sb.engram(['help', 'search']).stdout).toMatch(/^Usage: engram search/);
    const usage = sb.engram(['--help']);
    expect(usage.status).toBe(0);
    for (const { name } of COMMANDS) expect(usage.stdout).toContain(`  ${name} `);
  });

  it('suggests the command a typo meant, and refuses bad flags and paths with exit 2', () => {
    const typo = sb.engram(['serach', 'x']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/unknown command "serach"; did you mean "search"\?/);
    const flag = sb.engram(['status', '--colour']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--colour'/);
    expect(flag.stderr).toMatch(/engram status --help/);
    const limit = sb.engram(['search', 'x', '--limit', 'ten']);
    expect([limit.status, limit.stderr]).toEqual([2, expect.stringMatching(/--limit takes a whole number/)]);
    const dir = sb.engram(['context', '--cwd', join(sb.root, 'no-such-dir')]);
    expect([dir.status, dir.stderr]).toEqual([2, expect.stringMatching(/no such directory/)]);
    const from = sb.engram(['backfill', '--from', join(sb.root, 'nowhere')]);
    expect([from.status, from.stderr]).toEqual([2, expect.stringMatching(/no such directory/)]);
    const settings = sb.engram(['install', '--settings', join(sb.root, 'missing-dir', 'settings.json')]);
    expect([settings.status, settings.stderr]).toEqual([2, expect.stringMatching(/does not exist/)]);
    expect(existsSync(join(sb.root, 'missing-dir'))).toBe(false);
    expect(sb.engram(['project', 'nope']).status).toBe(2);
  });

  it('treats a reader that stops early (| head) as normal, not as an error', () => {
    const cwd = sb.project('many');
    const p = payloads('sess-many', cwd);
    for (let i = 0; i < 30; i++) {
      sb.hook(p.prompt(`Add the helper number ${i} for the invoice totals`));
      sb.hook(p.stop(`Added helper ${i}: invoice totals are computed in cents now and covered by a test.`));
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const r = spawnSync('/bin/sh', ['-c', `node "${CLI_BIN}" changes --limit 5000 | head -n 1`], {
      env: sb.env,
      cwd,
    });
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(/^#1 /);
    expect(r.stderr.toString()).not.toMatch(/EPIPE|Error/);
  });

  it('doctor names each problem with its fix, and fails only on real problems', () => {
    const clean = JSON.parse(sb.engram(['doctor', '--json']).stdout) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(clean.checks.find((c) => c.name === 'database')?.status).toBe('ok');
    expect(clean.checks.find((c) => c.name === 'hooks')?.status).toBe('warn'); // not installed yet
    const broken = createSandbox({ ENGRAM_WORKER_POLL_MS: 'often' });
    try {
      mkdirSync(broken.engramHome, { recursive: true });
      writeFileSync(join(broken.engramHome, 'prices.json'), JSON.stringify({ mystery: { input: 'free' } }));
      const r = broken.engram(['doctor']);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(
        /✗ config worker\.pollMs: .*must be a number.*\n {4}fix: engram config set worker\.pollMs/,
      );
      expect(r.stdout).toMatch(/✗ prices: prices\.json: "mystery" needs non-negative numbers/);
      expect(broken.engram(['install']).status).toBe(0);
      expect(broken.engram(['doctor']).stdout).toMatch(/✓ hooks: engram hooks installed/);
    } finally {
      broken.cleanup();
    }
  });

  it('install --settings FILE changes only that file, never the global MCP registration', () => {
    const dir = join(sb.root, 'repo', '.claude');
    mkdirSync(dir, { recursive: true });
    const local = join(dir, 'settings.local.json');
    const r = sb.engram(['install', '--settings', local, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mcp).toBeNull();
    expect(existsSync(join(sb.home, '.claude.json'))).toBe(false);
    expect(existsSync(join(sb.home, '.claude', 'settings.json'))).toBe(false);
    expect(readFileSync(local, 'utf8')).toMatch(/engram-hook/);
    writeFileSync(join(sb.home, '.claude.json'), '{"mcpServers":{"engram":{"command":"x","args":[]}}}\n');
    expect(sb.engram(['uninstall', '--settings', local]).status).toBe(0);
    expect(existsSync(local)).toBe(false); // it was engram's own file
    expect(readFileSync(join(sb.home, '.claude.json'), 'utf8')).toMatch(/"engram"/); // untouched
  });
});

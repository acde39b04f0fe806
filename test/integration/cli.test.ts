import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

describe('the engram CLI', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox();
  });
  afterAll(() => sb.cleanup());

  it('installs into and uninstalls from a Claude Code settings file, restoring it exactly', () => {
    const settings = join(sb.home, '.claude', 'settings.json');
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    const original = '{\n  "permissions": { "allow": ["Bash(ls:*)"] }\n}\n';
    writeFileSync(settings, original);
    const install = sb.engram(['install', '--json']);
    expect(install.status, install.stderr).toBe(0);
    const report = JSON.parse(install.stdout) as { added: string[]; backupPath: string };
    expect(report.added).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'SessionEnd',
    ]);
    expect(existsSync(report.backupPath)).toBe(true);
    const merged = JSON.parse(readFileSync(settings, 'utf8')) as {
      permissions: unknown;
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(merged.permissions).toEqual({ allow: ['Bash(ls:*)'] });
    expect(merged.hooks['PostToolUse']?.[0]?.hooks[0]?.command).toMatch(/dist\/hook\.cjs" # engram-hook$/);
    const claudeJson = JSON.parse(readFileSync(join(sb.home, '.claude.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(claudeJson.mcpServers['engram']?.args).toEqual([expect.stringMatching(/dist\/cli\.mjs$/), 'mcp']);
    expect(sb.engram(['install']).stdout).toMatch(/nothing to add/);
    const uninstall = sb.engram(['uninstall']);
    expect(uninstall.stdout).toMatch(/restored exactly/);
    expect(readFileSync(settings, 'utf8')).toBe(original);
    expect(uninstall.stdout).toMatch(/removed the engram MCP server/);
    expect(existsSync(join(sb.home, '.claude.json'))).toBe(false); // engram created it: deleted again
  });

  it('gets, sets and validates configuration', () => {
    expect(sb.engram(['config', 'get', 'context.sessionStartTokens']).stdout.trim()).toBe('1000');
    expect(sb.engram(['config', 'set', 'context.sessionStartTokens', '1200']).status).toBe(0);
    expect(sb.engram(['config', 'get', 'context.sessionStartTokens']).stdout.trim()).toBe('1200');
    expect(JSON.parse(readFileSync(join(sb.engramHome, 'config.json'), 'utf8'))).toEqual({
      context: { sessionStartTokens: 1200 },
    });
    const env = sb.engram(['config', 'get', 'context.sessionStartTokens', '--json'], {
      env: { ENGRAM_CONTEXT_SESSION_START_TOKENS: '900' },
    });
    expect(JSON.parse(env.stdout)).toEqual({ key: 'context.sessionStartTokens', value: 900, source: 'env' });
    const bad = sb.engram(['config', 'set', 'context.sessionStartTokens', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/context.sessionStartTokens must be a number/);
    const unknown = sb.engram(['config', 'get', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown config key "nope"/);
    const list = JSON.parse(sb.engram(['config', 'list', '--json']).stdout) as {
      key: string;
      env: string;
      source: string;
    }[];
    expect(list.find((k) => k.key === 'capture.skipTools')).toMatchObject({
      env: 'ENGRAM_CAPTURE_SKIP_TOOLS',
      source: 'default',
    });
    expect(sb.engram(['config', 'unset', 'context.sessionStartTokens']).status).toBe(0);
    expect(sb.engram(['config', 'get', 'context.sessionStartTokens']).stdout.trim()).toBe('1000');
  });

  it('searches, shows and forgets memories; rejects unknown ids and commands clearly', () => {
    const cwd = sb.project('search-me', 'git@github.com:example/search-me.git');
    const p = payloads('sess-search', cwd);
    for (const call of [
      p.start(),
      p.prompt('Add a retry with exponential backoff to the webhook sender'),
      p.tool(
        'Edit',
        {
          file_path: `${cwd}/src/webhook.ts`,
          old_string: 'export async function send(e) {\n  await post(e);\n}',
          new_string: 'export async function send(e) {\n  await withBackoff(() => post(e));\n}',
        },
        {},
      ),
      p.stop('Webhook sends now retry with exponential backoff (withBackoff, 5 attempts).'),
      p.end(),
    ]) {
      expect(sb.hook(call).status).toBe(0);
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const search = JSON.parse(sb.engram(['search', 'webhook backoff', '--json', '--cwd', cwd]).stdout) as {
      results: { id: string; title: string; files: string[] }[];
    };
    // Titled by what is now true (the assistant's statement of the result), never by the prompt.
    expect(search.results[0]).toMatchObject({
      title: 'Webhook sends now retry with exponential backoff (withBackoff, 5 attempts).',
      files: ['src/webhook.ts'],
    });
    const id = search.results[0]?.id as string;
    const show = JSON.parse(sb.engram(['show', id, '--json']).stdout) as {
      facts: string[];
      narrative: string;
    };
    expect(show.facts).toContain('src/webhook.ts: changed send');
    expect(show.narrative).toMatch(/withBackoff/);
    expect(sb.engram(['show', id]).stdout).toMatch(/Files modified: src\/webhook\.ts/);
    // Other projects do not see it unless asked for all.
    const elsewhere = sb.project('elsewhere');
    expect(JSON.parse(sb.engram(['search', 'webhook', '--json', '--cwd', elsewhere]).stdout).results).toEqual(
      [],
    );
    expect(
      JSON.parse(sb.engram(['search', 'webhook', '--json', '--all', '--cwd', elsewhere]).stdout).results,
    ).toHaveLength(1);

    expect(sb.engram(['forget', id]).stdout).toMatch(/forgot/);
    expect(JSON.parse(sb.engram(['search', 'webhook', '--json', '--cwd', cwd]).stdout).results).toEqual([]);
    expect(sb.engram(['context', '--cwd', cwd]).stdout).not.toMatch(
      /obs_\w+ \[feature\] Webhook sends now retry/,
    );

    const missing = sb.engram(['show', 'obs_doesnotexist']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no memory with id obs_doesnotexist/);
    const unknown = sb.engram(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    expect(sb.engram(['search', '--bogus']).status).toBe(2);
  });

  it('pins and unpins memories: a pinned one stays in the SessionStart index as standing knowledge', () => {
    const cwd = sb.project('pin-me', 'git@github.com:example/pin-me.git');
    const p = payloads('sess-pin', cwd);
    for (const call of [
      p.start(),
      p.prompt('Add a cache to the product lookup'),
      p.tool('Write', { file_path: `${cwd}/src/cache.ts`, content: 'export const cache = new Map();\n' }, {}),
      p.stop('Product lookups now go through an in-memory cache in src/cache.ts.'),
      p.end(),
    ])
      expect(sb.hook(call).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    const found = JSON.parse(sb.engram(['search', 'product cache', '--json', '--cwd', cwd]).stdout) as {
      results: { id: string }[];
    };
    const id = found.results[0]?.id as string;
    const standing = () => {
      const text = sb.engram(['context', '--cwd', cwd]).stdout;
      return text.includes('Standing knowledge') && text.split('Recent memories')[0]?.includes(id) === true;
    };
    expect(standing()).toBe(false);
    expect(sb.engram(['pin', id]).stdout).toBe(`pinned ${id}\n`);
    expect(standing()).toBe(true);
    expect(JSON.parse(sb.engram(['pin', id, '--json']).stdout)).toEqual({
      pinned: [],
      unchanged: [id],
      missing: [],
    });
    expect(sb.engram(['unpin', id]).stdout).toBe(`unpinned ${id}\n`);
    expect(standing()).toBe(false);
    const missing = sb.engram(['pin', 'obs_00000000000000000000']);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/no memory with id obs_00000000000000000000/);
    expect(sb.engram(['history', id]).stdout).toMatch(
      /replaced by unpin \(cli\)[\s\S]*replaced by pin \(cli\)/,
    );
  });

  it('runs the demo without touching the real home', () => {
    const demo = sb.engram(['demo']);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/engram memory for project "acme-api"/);
    expect(demo.stdout).toMatch(/\[bugfix\] Return 401 for expired session tokens/);
    expect(demo.stdout).not.toContain('hunter2');
  });
});

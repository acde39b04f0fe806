/**
 * One fact said once per context: a rule engram read from the project's CLAUDE.md is not injected into
 * a Claude Code session (Claude Code loads CLAUDE.md itself) while the file still says it, but a Codex
 * session of the same repository — Codex loads AGENTS.md, not CLAUDE.md — is told it. Once the file no
 * longer says the rule, Claude Code is told it too.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, HOOK_BUNDLE, payloads, type Sandbox } from '../support/sandbox.ts';

const RULE = 'Always run `make verify-schema` before committing a migration';

describe('rules the host already loads are not said twice', () => {
  let sb: Sandbox;
  let dir: string;
  beforeAll(() => {
    sb = createSandbox();
    dir = sb.project('ledger', 'git@github.com:example/ledger.git');
    const claudeMd = join(dir, 'CLAUDE.md');
    const content = `# Ledger\n\n- ${RULE}\n- Keep migrations reversible\n`;
    writeFileSync(claudeMd, content);
    const p = payloads('sess-rules', dir);
    for (const c of [
      p.start(),
      p.prompt('Read the project rules, then add the invoices table'),
      p.tool(
        'Read',
        { file_path: claudeMd },
        { type: 'text', file: { filePath: claudeMd, content, numLines: 4, startLine: 1, totalLines: 4 } },
      ),
      p.stop('I read the rules in CLAUDE.md.'),
      p.end(),
    ])
      expect(sb.hook(c).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
  });
  afterAll(() => sb?.cleanup());

  const claudeStart = (session: string) => sb.hook(payloads(session, dir).start()).stdout;
  const codexStart = (session: string) => {
    const r = spawnSync(process.execPath, [HOOK_BUNDLE, '--host', 'codex'], {
      input: JSON.stringify({
        session_id: session,
        transcript_path: null,
        cwd: dir,
        hook_event_name: 'SessionStart',
        model: 'gpt-5.1-codex',
        permission_mode: 'bypassPermissions',
        source: 'startup',
      }),
      cwd: dir,
      env: sb.env,
    });
    expect(r.status).toBe(0);
    return r.stdout.toString();
  };

  it('the rule is stored, and a Codex session is told it', () => {
    const found = sb.engram(['search', 'verify-schema', '--json'], { cwd: dir });
    expect(found.stdout).toContain('make verify-schema');
    expect(codexStart('codex-1')).toContain('make verify-schema');
  });

  it('Claude Code, which loads CLAUDE.md itself, is not told it while the file says it', () => {
    const told = claudeStart('claude-1');
    expect(told).toContain('engram memory for project');
    expect(told).not.toContain('make verify-schema');
  });

  it('once the file no longer says the rule, Claude Code is told it', () => {
    writeFileSync(join(dir, 'CLAUDE.md'), '# Ledger\n\n- Keep migrations reversible\n');
    expect(claudeStart('claude-2')).toContain('make verify-schema');
  });
});

/**
 * `engram backfill` over every host's transcripts, on the real CLI: Codex rollouts under a temporary
 * CODEX_HOME (`sessions/YYYY/MM/DD/` and `archived_sessions/`), a Gemini CLI chat file under
 * `~/.gemini/tmp/<project>/chats/` and a Copilot CLI session log under `$COPILOT_HOME/session-state/`,
 * all recorded from the real CLIs; each session kept with its own times and its host, a second run adding
 * nothing; and `engram install --host codex --backfill`; an `opencode export` of a session read with
 * `--host opencode --from` (opencode's own store: test/e2e/opencode-backfill.test.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts');
const RESUMED = '01a21ef6-23a0-7243-82b0-0144b683a533';
const FIRST = '01a21e00-7f81-7130-90e7-41be03aaae11';

interface Report {
  files: number;
  sessions: number;
  created: number;
  hosts: Record<string, number>;
  roots: string[];
  errors: unknown[];
}
interface Status {
  hosts: { host: string; sessions: number }[];
}

/** A recorded fixture placed at `to`, its placeholders filled in. */
function place(from: string, to: string, project: string, home: string): void {
  mkdirSync(join(to, '..'), { recursive: true });
  writeFileSync(
    to,
    readFileSync(join(FIXTURES, from), 'utf8')
      .replaceAll('{{project}}', project)
      .replaceAll('{{home}}', home),
  );
}

describe('engram backfill of other hosts’ transcripts', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  const codexSessions = (project: string, codexHome: string) => {
    place(
      'codex/rollout-resumed.jsonl',
      join(codexHome, 'sessions', '2026', '11', '27', `rollout-2026-11-27T21-42-57-${RESUMED}.jsonl`),
      project,
      sb.home,
    );
    place(
      'codex/rollout.jsonl',
      join(codexHome, 'archived_sessions', `rollout-2026-11-27T17-14-38-${FIRST}.jsonl`),
      project,
      sb.home,
    );
  };

  it('finds Codex, Gemini and Copilot sessions in their own folders and keeps each one’s time and host', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const codexHome = join(sb.root, 'codex-home');
    const copilotHome = join(sb.root, 'copilot-home');
    const env = { CODEX_HOME: codexHome, COPILOT_HOME: copilotHome };
    codexSessions(project, codexHome);
    const geminiProject = join(sb.home, '.gemini', 'tmp', 'app');
    place(
      'gemini/chat.jsonl',
      join(geminiProject, 'chats', 'session-2026-11-27T17-14-a21ad2cc.jsonl'),
      project,
      sb.home,
    );
    writeFileSync(join(geminiProject, '.project_root'), `${project}\n`);
    place(
      'copilot/events.jsonl',
      join(copilotHome, 'session-state', '3fe14a49-7439-4580-8f4e-dfc7093dd8ac', 'events.jsonl'),
      project,
      sb.home,
    );

    const codexOnly = JSON.parse(
      sb.engram(['backfill', '--host', 'codex', '--dry-run', '--json'], { env }).stdout,
    ) as Report;
    expect(codexOnly).toMatchObject({ files: 2, sessions: 2, hosts: { codex: 2 }, errors: [] });
    expect(codexOnly.roots).toEqual([join(codexHome, 'sessions'), join(codexHome, 'archived_sessions')]);

    const r = sb.engram(['backfill', '--json'], { env });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report).toMatchObject({
      files: 4,
      sessions: 4,
      hosts: { codex: 2, gemini: 1, copilot: 1 },
      errors: [],
    });
    expect(report.created).toBeGreaterThan(0);
    const status = JSON.parse(sb.engram(['status', '--json'], { env }).stdout) as Status;
    expect(Object.fromEntries(status.hosts.map((h) => [h.host, h.sessions]))).toEqual({
      codex: 2,
      copilot: 1,
      gemini: 1,
    });

    // The Codex session's failing check (exit code 1 in the rollout) closed by its passing run: a gotcha
    // of this repository, at the session's own time.
    const found = JSON.parse(sb.engram(['search', 'check.mjs', '--cwd', project, '--json']).stdout) as {
      results: { id: string; type: string; title: string; sessionId: string; createdAt: number }[];
    };
    const gotcha = found.results.find((x) => x.type === 'gotcha');
    expect(gotcha?.title).toMatch(/^`node check\.mjs` fails: ENOENT/);
    expect(gotcha?.sessionId).toBe(RESUMED);
    expect(new Date(gotcha?.createdAt ?? 0).toISOString().slice(0, 16)).toBe('2026-11-27T21:42');
    const shown = JSON.parse(sb.engram(['show', gotcha?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('codex');
    const again = JSON.parse(sb.engram(['backfill', '--json'], { env }).stdout) as Report;
    expect(again.created).toBe(0);
  });

  it('install --host codex --backfill reads Codex’s earlier sessions', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const codexHome = join(sb.home, '.codex');
    codexSessions(project, codexHome);
    const hint = sb.engram(['install', '--host', 'codex']);
    expect(hint.status, hint.stderr).toBe(0);
    expect(hint.stdout).toContain('you have 2 earlier Codex CLI sessions');
    expect(hint.stdout).toContain('engram backfill --host codex');
    expect(sb.engram(['uninstall', '--host', 'codex']).status).toBe(0);

    const r = sb.engram(['install', '--host', 'codex', '--backfill']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/read 2 transcript files \(2 sessions, \d+ records\) from /);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'codex', sessions: 2 })]);
  });

  it('reads a folder of `opencode export` files with --host opencode --from', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const exports = join(sb.root, 'opencode-exports');
    place('opencode/export.json', join(exports, 'release-notes.json'), project, sb.home);
    const r = sb.engram(['backfill', '--host', 'opencode', '--from', exports, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout) as Report).toMatchObject({
      files: 1,
      sessions: 1,
      hosts: { opencode: 1 },
      roots: [exports],
      errors: [],
    });
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 1 })]);
    const again = JSON.parse(
      sb.engram(['backfill', '--host', 'opencode', '--from', exports, '--json']).stdout,
    ) as Report & { records: number };
    expect(again).toMatchObject({ created: 0, records: 0 });
  });

  it('a dry run writes nothing of engram’s, and says what the real run then reads', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const exports = join(sb.root, 'opencode-exports');
    place('opencode/export.json', join(exports, 'release-notes.json'), project, sb.home);
    const scratch = join(sb.root, 'tmp');
    mkdirSync(scratch);
    const run = (...extra: string[]) => {
      const r = sb.engram(['backfill', '--host', 'opencode', '--from', exports, '--json', ...extra], {
        env: { TMPDIR: scratch },
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Report & { records: number };
    };
    const dry = run('--dry-run');
    expect(dry).toMatchObject({ files: 1, sessions: 1, errors: [] });
    expect(dry.records).toBeGreaterThan(0);
    // No session log in engram's home, no database made, no scratch folder left behind.
    expect(existsSync(join(sb.engramHome, 'host-sessions'))).toBe(false);
    expect(existsSync(join(sb.engramHome, 'engram.db'))).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);
    const real = run();
    expect(real).toMatchObject({ files: 1, sessions: 1, records: dry.records, created: dry.created });
    // A dry run after it reads the log engram already holds: nothing to add.
    expect(run('--dry-run')).toMatchObject({ files: 1, records: 0, created: 0 });
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('--from without --host reads what the folder holds, and refuses a folder with nothing to read', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const mixed = join(sb.root, 'old-sessions');
    place('opencode/export.json', join(mixed, 'release-notes.json'), project, sb.home);
    place(
      'codex/rollout.jsonl',
      join(mixed, 'codex', `rollout-2026-11-27T17-14-38-${FIRST}.jsonl`),
      project,
      sb.home,
    );
    const r = sb.engram(['backfill', '--from', mixed, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout) as Report).toMatchObject({
      files: 2,
      sessions: 2,
      hosts: { opencode: 1, codex: 1 },
      roots: [mixed],
      errors: [],
    });

    const nothing = join(sb.root, 'nothing-here');
    mkdirSync(nothing);
    writeFileSync(join(nothing, 'notes.txt'), 'not a transcript\n');
    writeFileSync(join(nothing, 'settings.json'), '{"theme": "dark"}\n');
    const refused = sb.engram(['backfill', '--from', nothing]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`--from: ${nothing} holds no sessions engram can read`);
    expect(refused.stderr).toMatch(/--host \(claude-code, codex, .*opencode.*\)/);
  });
});

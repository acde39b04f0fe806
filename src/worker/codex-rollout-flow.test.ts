/**
 * A Codex session through the worker as it happens live (real SQLite, the Codex adapter, the rollout
 * recorded from codex-cli 0.171.0): Codex's PostToolUse carries a command's output and never its exit
 * status, so a failing `node check.mjs` is only a failure because the turn's end reads the rollout's
 * exit code; the resumed turn's passing run closes it into a gotcha. Without the rollout, nothing
 * says it failed. The rollout's typed prompts are the user's words (not Codex's environment context).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexAdapter } from '../capture/hosts/codex/adapter.ts';
import { resolveProjectIdentity } from '../capture/project-identity.ts';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { drainOnce } from './drain.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'hosts', 'codex');
const SESSION = '01a21ef6-23a0-7243-82b0-0144b683a533';
const CHECK_FAILS =
  "node:fs:448\n    return binding.readFileUtf8(path, stringToFlags(options.flag));\n                   ^\n\nError: ENOENT: no such file or directory, open 'config.json'\n";

describe('a Codex session read with its rollout', () => {
  let dir: string;
  let project: string;
  let rollout: string;
  let store: Store;
  let lines: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-codex-flow-'));
    project = join(dir, 'project');
    mkdirSync(project);
    rollout = join(
      dir,
      '.codex',
      'sessions',
      '2026',
      '11',
      '27',
      `rollout-2026-11-27T21-42-57-${SESSION}.jsonl`,
    );
    mkdirSync(join(rollout, '..'), { recursive: true });
    lines = readFileSync(join(FIXTURES, 'rollout-resumed.jsonl'), 'utf8')
      .replaceAll('{{project}}', project)
      .replaceAll('{{home}}', dir)
      .trim()
      .split('\n');
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** When the rollout line of this ordinal was written. */
  const timeOf = (ordinal: number) =>
    Date.parse((JSON.parse(lines[ordinal] ?? '{}') as { timestamp: string }).timestamp);

  /** One Codex hook payload, captured as the hook captures it (the recorded payloads' fields). */
  const capture = (hook: string, at: number, fields: Record<string, unknown>) => {
    const n = codexAdapter.normalise(
      {
        session_id: SESSION,
        transcript_path: rollout,
        cwd: project,
        hook_event_name: hook,
        model: 'gpt-5.1-codex',
        permission_mode: 'bypassPermissions',
        ...fields,
      },
      { skipTools: [], maxFieldChars: 8000, maxEventBytes: 65_536, fallbackCwd: '/' },
    );
    if (!n.ok) throw new Error(n.reason);
    const identity = resolveProjectIdentity(n.value.cwd);
    const p = { ...identity, id: projectIdFromKey(identity.key) };
    store.transaction(() => {
      store.events.append({ ...n.value, projectId: p.id, at });
      store.sessions.touch(
        p,
        { id: SESSION, cwd: project, transcriptPath: n.value.transcriptPath, host: 'codex' },
        hook,
        at,
      );
    });
  };
  const tool = (at: number, id: string, command: string, output: string) =>
    capture('PostToolUse', at, {
      tool_name: 'Bash',
      tool_input: { command },
      tool_response: output,
      tool_use_id: id,
    });
  const drain = (now: number, readTranscripts: boolean) =>
    drainOnce(
      { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger(), readTranscripts },
      { force: false, now, staleTurnMs: 15 * 60_000, maxAttempts: 3 },
    );
  const memories = () =>
    store.observations.recent(projectIdFromKey(resolveProjectIdentity(project).key) as ProjectId, 100);

  /** Both turns, the rollout written up to each turn's end before the worker reads it. */
  const session = (readTranscripts: boolean) => {
    writeFileSync(rollout, `${lines.slice(0, 19).join('\n')}\n`);
    capture('SessionStart', timeOf(0), { source: 'startup' });
    capture('UserPromptSubmit', timeOf(7), { prompt: 'Run the project check' });
    tool(timeOf(12) + 1, 'call_mock_s0_1', 'node check.mjs', CHECK_FAILS);
    capture('Stop', timeOf(18), {
      stop_hook_active: false,
      last_assistant_message: 'The check fails: config.json is missing.',
    });
    capture('SessionEnd', timeOf(18) + 5, { reason: 'other' });
    drain(timeOf(18) + 10, readTranscripts);
    const afterFirst = memories();
    appendFileSync(rollout, `${lines.slice(19).join('\n')}\n`);
    capture('SessionStart', timeOf(19), { source: 'resume' });
    capture('UserPromptSubmit', timeOf(22), {
      prompt: 'Create config.json from the example and run the check again',
    });
    tool(timeOf(27) + 1, 'call_mock_s0_1', 'cp config.example.json config.json', '');
    tool(timeOf(32) + 1, 'call_mock_s1_2', 'node check.mjs', 'config ok\n');
    capture('Stop', timeOf(38), {
      stop_hook_active: false,
      last_assistant_message: 'Copied the example config; the check passes now.',
    });
    drain(timeOf(38) + 10, readTranscripts);
    return afterFirst;
  };

  it('a failure from the rollout’s exit code, closed by the resumed turn’s passing run', () => {
    const afterFirst = session(true);
    expect(afterFirst.filter((o) => o.subject?.startsWith('fail:')).map((o) => [o.type, o.title])).toEqual([
      ['failed_attempt', expect.stringMatching(/^`node check\.mjs` fails: .*ENOENT/)],
    ]);
    const now = memories();
    expect(now.filter((o) => o.type === 'failed_attempt')).toEqual([]);
    // Closed across turns: a gotcha (what fixed it is named only within one turn, by the distiller's rule).
    expect(now.find((o) => o.type === 'gotcha')?.title).toMatch(
      /^`node check\.mjs` fails: ENOENT: no such file or directory, open 'config\.json' → /,
    );
    // The rollout was read after each turn; the session's prompts are the typed ones.
    expect(store.transcripts.progress(rollout)?.records).toBe(lines.length);
    expect(store.sessions.get(SESSION)?.host).toBe('codex');
  });

  it('without the rollout, the command’s output alone does not say it failed', () => {
    session(false);
    expect(memories().filter((o) => o.subject?.startsWith('fail:') || o.type === 'gotcha')).toEqual([]);
  });
});

/**
 * OpenAI Codex CLI (pinned, from npm) against the loopback Responses API mock: `codex exec` runs a real
 * shell command the mock asks for, and every hook in `$CODEX_HOME/hooks.json` reaches the recorder —
 * SessionStart's additional context reaches the model, and the rollout transcript is where the hook
 * payloads say. With ENGRAM_RECORD_HOST_FIXTURES=1 it also rewrites test/fixtures/hosts/codex/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { codexInvocation } from './support/hosts/host-configs.ts';
import {
  CONTEXT_MARKER,
  FAILING_COMMAND,
  FINAL_TEXT,
  GREETING_COMMAND,
  recordingFixtures,
  SESSION_PROMPT,
  sessionScript,
  writeHostFixtures,
} from './support/hosts/host-fixtures.ts';
import {
  createHostWorld,
  runHostCli,
  sanitise,
  shellCall,
  type HostRun,
  type HostWorld,
} from './support/hosts/host-session.ts';
import { CODEX, ensurePinnedCli } from './support/hosts/pinned-cli.ts';

describe('OpenAI Codex CLI against a loopback Responses API', () => {
  let world: HostWorld;
  let mock: MockModel;
  let cliDir: string;
  let run: HostRun;

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(CODEX);
    world = createHostWorld('codex');
    mock = await startMockModel(sessionScript('codex'));
    world.recorder.respond({
      SessionStart: {
        hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: CONTEXT_MARKER },
      },
    });
    const inv = codexInvocation(world, { cliDir, apiUrl: mock.url, prompt: SESSION_PROMPT });
    run = await runHostCli(inv.bin, inv.args, { cwd: world.project, env: inv.env, timeoutMs: 120_000 });
  });

  afterAll(async () => {
    await mock?.close();
    world?.cleanup();
  });

  it('runs the session against the mock and the shell commands for real', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    expect(mock.mainTurns().length).toBe(3);
    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('Hello, release team!\n');
    expect(run.stdout).toContain(FINAL_TEXT);
  });

  it('fires the hooks in order with the session, prompt and tool calls', () => {
    const events = world.recorder.events();
    expect(events.slice(0, 2)).toEqual(['SessionStart', 'UserPromptSubmit']);
    expect(events.filter((e) => e === 'PostToolUse')).toHaveLength(2);
    expect(events.slice(-2)).toEqual(['Stop', 'SessionEnd']);
    const [start] = world.recorder.payloads('SessionStart');
    expect(start).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', cwd: world.project });
    const sessionId = start?.['session_id'];
    for (const r of world.recorder.records()) expect(r.payload['session_id']).toBe(sessionId);
    expect(world.recorder.payloads('UserPromptSubmit')[0]).toMatchObject({ prompt: SESSION_PROMPT });
    const tools = world.recorder.payloads('PostToolUse');
    expect(tools.map((p) => (p['tool_input'] as { command?: string }).command)).toEqual([
      GREETING_COMMAND,
      FAILING_COMMAND,
    ]);
    expect(tools[0]).toMatchObject({ tool_name: 'Bash' });
    expect(world.recorder.payloads('Stop')[0]).toMatchObject({ last_assistant_message: FINAL_TEXT });
  });

  it('hands SessionStart context to the model and writes the rollout the payloads name', () => {
    expect(mock.mainTurns()[0]?.text).toContain(CONTEXT_MARKER);
    const transcript = String(world.recorder.payloads('SessionStart')[0]?.['transcript_path']);
    expect(transcript.startsWith(join(world.home, '.codex', 'sessions'))).toBe(true);
    expect(existsSync(transcript)).toBe(true);
    const records = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(records[0]?.type).toBe('session_meta');
    expect(readFileSync(transcript, 'utf8')).toContain(SESSION_PROMPT);
    if (recordingFixtures())
      writeHostFixtures('codex', world, {
        transcripts: { 'rollout.jsonl': transcript },
        placeholders: { [cliDir]: '{{cli}}', [`127.0.0.1:${mock.port}`]: '127.0.0.1:{{port}}' },
      });
  });
});

/** The check the resumed-session test runs: it fails until config.json exists. */
const CHECK_COMMAND = 'node check.mjs';
const FIX_COMMAND = 'cp config.example.json config.json';

describe('Codex CLI: a failure fixed in a resumed session', () => {
  let world: HostWorld;
  let cliDir: string;
  let first: HostRun;
  let second: HostRun;
  const mocks: MockModel[] = [];

  const exec = async (steps: Parameters<typeof sequence>[0], prompt: string, resume: boolean) => {
    const mock = await startMockModel(sequence(steps));
    mocks.push(mock);
    const inv = codexInvocation(world, { cliDir, apiUrl: mock.url, prompt });
    // `codex exec … resume --last PROMPT`: the same session, its rollout appended to.
    const args = resume ? [...inv.args.slice(0, -1), 'resume', '--last', prompt] : inv.args;
    return runHostCli(inv.bin, args, { cwd: world.project, env: inv.env, timeoutMs: 120_000 });
  };

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(CODEX);
    world = createHostWorld('codex');
    writeFileSync(
      join(world.project, 'check.mjs'),
      "import { readFileSync } from 'node:fs';\nJSON.parse(readFileSync('config.json', 'utf8'));\nconsole.log('config ok');\n",
    );
    writeFileSync(join(world.project, 'config.example.json'), '{"port": 8080}\n');
    first = await exec(
      [
        { toolCalls: [shellCall('codex', CHECK_COMMAND)] },
        { text: 'The check fails: config.json is missing.' },
      ],
      'Run the project check',
      false,
    );
    second = await exec(
      [
        { toolCalls: [shellCall('codex', FIX_COMMAND)] },
        { toolCalls: [shellCall('codex', CHECK_COMMAND)] },
        { text: 'Copied the example config; the check passes now.' },
      ],
      'Create config.json from the example and run the check again',
      true,
    );
  });

  afterAll(async () => {
    for (const m of mocks) await m.close();
    world?.cleanup();
  });

  it('appends the resumed turn to the same rollout, each command with its exit code', () => {
    for (const run of [first, second]) {
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
    }
    for (const m of mocks) expect(m.errors).toEqual([]);
    const starts = world.recorder.payloads('SessionStart');
    expect(starts.map((p) => p['source'])).toEqual(['startup', 'resume']);
    expect(starts[1]?.['session_id']).toBe(starts[0]?.['session_id']);
    const path = String(starts[0]?.['transcript_path']);
    expect(starts[1]?.['transcript_path']).toBe(path);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('Process exited with code 1');
    expect(text).toContain('Process exited with code 0');
    if (recordingFixtures()) {
      const ports = Object.fromEntries(mocks.map((m) => [`127.0.0.1:${m.port}`, '127.0.0.1:{{port}}']));
      writeFileSync(
        fileURLToPath(new URL('../fixtures/hosts/codex/rollout-resumed.jsonl', import.meta.url)),
        sanitise(text, world, { [cliDir]: '{{cli}}', ...ports }),
      );
    }
  });
});

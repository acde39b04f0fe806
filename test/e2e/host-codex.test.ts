/**
 * OpenAI Codex CLI (pinned, from npm) against the loopback Responses API mock: `codex exec` runs a real
 * shell command the mock asks for, and every hook in `$CODEX_HOME/hooks.json` reaches the recorder —
 * SessionStart's additional context reaches the model, and the rollout transcript is where the hook
 * payloads say. With ENGRAM_RECORD_HOST_FIXTURES=1 it also rewrites test/fixtures/hosts/codex/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel, type MockModel } from '../support/mock-models/server.ts';
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
import { createHostWorld, runHostCli, type HostRun, type HostWorld } from './support/hosts/host-session.ts';
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

/**
 * Gemini CLI (pinned, from npm) against the loopback Gemini API mock: `gemini -p … --yolo` runs a real
 * shell command the mock asks for, and the settings.json hooks reach the recorder — SessionStart's
 * additional context reaches the model, and the chat file is where the hook payloads say.
 * With ENGRAM_RECORD_HOST_FIXTURES=1 it also rewrites test/fixtures/hosts/gemini/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { geminiInvocation } from './support/hosts/host-configs.ts';
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
import { ensurePinnedCli, GEMINI } from './support/hosts/pinned-cli.ts';

describe('Gemini CLI against a loopback Gemini API', () => {
  let world: HostWorld;
  let mock: MockModel;
  let cliDir: string;
  let run: HostRun;

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(GEMINI);
    world = createHostWorld('gemini');
    mock = await startMockModel(sessionScript('gemini'));
    world.recorder.respond({
      SessionStart: {
        hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: CONTEXT_MARKER },
      },
    });
    const inv = geminiInvocation(world, { cliDir, apiUrl: mock.url, prompt: SESSION_PROMPT });
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
    expect(mock.log.every((e) => e.url.startsWith('/v1beta/models/gemini-2.5-flash:'))).toBe(true);
    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('Hello, release team!\n');
    expect(run.stdout).toContain(FINAL_TEXT);
  });

  it('fires the hooks in order with the session, prompt and tool calls', () => {
    const events = world.recorder.events().filter((e) => e !== 'PreCompress');
    expect(events.slice(0, 2)).toEqual(['SessionStart', 'BeforeAgent']);
    expect(events.filter((e) => e === 'AfterTool')).toHaveLength(2);
    expect(events.slice(-2)).toEqual(['AfterAgent', 'SessionEnd']);
    const [start] = world.recorder.payloads('SessionStart');
    expect(start).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', cwd: world.project });
    const sessionId = start?.['session_id'];
    for (const r of world.recorder.records()) {
      expect(r.payload['session_id']).toBe(sessionId);
      expect(r.env['GEMINI_PROJECT_DIR']).toBe(world.project);
    }
    // In -p mode SessionStart context is prepended to the prompt, and BeforeAgent sees it there.
    expect(world.recorder.payloads('BeforeAgent')[0]?.['prompt']).toBe(
      `<hook_context>${CONTEXT_MARKER}</hook_context>\n\n${SESSION_PROMPT}`,
    );
    const tools = world.recorder.payloads('AfterTool');
    expect(tools.map((p) => (p['tool_input'] as { command?: string }).command)).toEqual([
      GREETING_COMMAND,
      FAILING_COMMAND,
    ]);
    expect(tools[0]).toMatchObject({ tool_name: 'run_shell_command' });
    // prompt_response holds the answer, but a streamed answer comes with pieces of its chunks appended
    // (0.61.0): the chat file, not this field, is where the answer is read exactly.
    expect(String(world.recorder.payloads('AfterAgent')[0]?.['prompt_response']).startsWith(FINAL_TEXT)).toBe(
      true,
    );
  });

  it('hands SessionStart context to the model and writes the chat file the payloads name', () => {
    expect(mock.mainTurns()[0]?.text).toContain(CONTEXT_MARKER);
    const transcript = String(world.recorder.payloads('SessionStart')[0]?.['transcript_path']);
    expect(transcript.startsWith(join(world.home, '.gemini', 'tmp'))).toBe(true);
    expect(existsSync(transcript)).toBe(true);
    const first = JSON.parse(readFileSync(transcript, 'utf8').split('\n')[0] ?? '{}') as {
      sessionId?: string;
    };
    expect(first.sessionId).toBe(world.recorder.payloads('SessionStart')[0]?.['session_id']);
    expect(readFileSync(transcript, 'utf8')).toContain(SESSION_PROMPT);
    if (recordingFixtures())
      writeHostFixtures('gemini', world, {
        transcripts: { 'chat.jsonl': transcript },
        placeholders: { [cliDir]: '{{cli}}', [`127.0.0.1:${mock.port}`]: '127.0.0.1:{{port}}' },
      });
  });
});

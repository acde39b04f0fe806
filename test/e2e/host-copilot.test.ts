/**
 * GitHub Copilot CLI (pinned, from npm) in its offline BYOK mode against the loopback chat completions
 * mock: `copilot -p … --allow-all-tools` runs a real shell command the mock asks for, and the user-level
 * hooks of `$COPILOT_HOME/settings.json` reach the recorder in both payload formats — sessionStart's
 * additionalContext reaches the model, and events.jsonl is where the payloads say.
 * With ENGRAM_RECORD_HOST_FIXTURES=1 it also rewrites test/fixtures/hosts/copilot/.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { copilotInvocation } from './support/hosts/host-configs.ts';
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
import { COPILOT, ensurePinnedCli } from './support/hosts/pinned-cli.ts';

describe('GitHub Copilot CLI (BYOK, offline) against a loopback chat completions API', () => {
  let world: HostWorld;
  let mock: MockModel;
  let cliDir: string;
  let run: HostRun;
  const sessionId = randomUUID();

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(COPILOT);
    world = createHostWorld('copilot');
    mock = await startMockModel(sessionScript('copilot'));
    world.recorder.respond({ sessionStart: { additionalContext: CONTEXT_MARKER } });
    const inv = copilotInvocation(world, { cliDir, apiUrl: mock.url, prompt: SESSION_PROMPT, sessionId });
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
    expect(mock.log.every((e) => e.url === '/v1/chat/completions')).toBe(true);
    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('Hello, release team!\n');
    expect(run.stdout).toContain(FINAL_TEXT);
  });

  it('fires the hooks in both formats with the session, prompt and tool calls', () => {
    const camel = world.recorder.events().filter((e) => /^[a-z]/.test(e));
    // In -p mode the sessionStart and userPromptSubmitted hooks start together: either may record first.
    expect(camel.slice(0, 2).sort()).toEqual(['sessionStart', 'userPromptSubmitted']);
    expect(camel.slice(-2)).toEqual(['agentStop', 'sessionEnd']);
    expect(world.recorder.payloads('sessionStart')[0]).toMatchObject({
      sessionId,
      source: 'new',
      cwd: world.project,
    });
    expect(world.recorder.payloads('SessionStart')[0]).toMatchObject({
      hook_event_name: 'SessionStart',
      session_id: sessionId,
    });
    expect(world.recorder.payloads('userPromptSubmitted')[0]).toMatchObject({ prompt: SESSION_PROMPT });
    const ran = [...world.recorder.payloads('postToolUse'), ...world.recorder.payloads('postToolUseFailure')];
    expect(ran.map((p) => (p['toolArgs'] as { command?: string }).command).sort()).toEqual(
      [GREETING_COMMAND, FAILING_COMMAND].sort(),
    );
    expect(world.recorder.payloads('PostToolUse')[0]).toMatchObject({ tool_name: 'Bash' });
    for (const r of world.recorder.records()) expect(r.env['COPILOT_PROJECT_DIR']).toBe(world.project);
  });

  it('hands sessionStart context to the model and writes the events.jsonl the payloads name', () => {
    expect(mock.mainTurns()[0]?.text).toContain(CONTEXT_MARKER);
    const transcript = String(world.recorder.payloads('agentStop')[0]?.['transcriptPath']);
    expect(transcript).toBe(join(world.home, '.copilot', 'session-state', sessionId, 'events.jsonl'));
    expect(existsSync(transcript)).toBe(true);
    const first = JSON.parse(readFileSync(transcript, 'utf8').split('\n')[0] ?? '{}') as { type?: string };
    expect(first.type).toBe('session.start');
    expect(readFileSync(transcript, 'utf8')).toContain(SESSION_PROMPT);
    if (recordingFixtures())
      writeHostFixtures('copilot', world, {
        transcripts: {
          'events.jsonl': transcript,
          'workspace.yaml': join(dirname(transcript), 'workspace.yaml'),
        },
        placeholders: { [cliDir]: '{{cli}}', [`127.0.0.1:${mock.port}`]: '127.0.0.1:{{port}}' },
      });
  });
});

/** Copilot's own file tools (create, view, edit, glob, grep), as the adapter maps them. */
const FILE_TOOLS_PROMPT = 'Write the release checklist into CHECKLIST.md, then fix its first step';

describe('GitHub Copilot CLI file tools against the mock', () => {
  let world: HostWorld;
  let mock: MockModel;
  let cliDir: string;
  let run: HostRun;
  const sessionId = randomUUID();

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(COPILOT);
    world = createHostWorld('copilot');
    const file = (name: string) => join(world.project, name);
    mock = await startMockModel(
      sequence([
        {
          toolCalls: [
            { name: 'create', args: { path: file('CHECKLIST.md'), file_text: '1. tag\n2. publish\n' } },
          ],
        },
        { toolCalls: [{ name: 'view', args: { path: file('CHECKLIST.md') } }] },
        {
          toolCalls: [
            {
              name: 'edit',
              args: { path: file('CHECKLIST.md'), old_str: '1. tag', new_str: '1. bump and tag' },
            },
          ],
        },
        { toolCalls: [{ name: 'glob', args: { pattern: '*.md' } }] },
        { toolCalls: [{ name: 'grep', args: { pattern: 'publish', paths: world.project } }] },
        { toolCalls: [{ name: 'view', args: { path: file('missing.md') } }] },
        { text: 'The checklist starts with bump and tag.' },
      ]),
    );
    const inv = copilotInvocation(world, { cliDir, apiUrl: mock.url, prompt: FILE_TOOLS_PROMPT, sessionId });
    run = await runHostCli(inv.bin, inv.args, { cwd: world.project, env: inv.env, timeoutMs: 120_000 });
  });

  afterAll(async () => {
    await mock?.close();
    world?.cleanup();
  });

  it('creates, reads and edits the file for real; the hooks and events.jsonl name each tool', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    expect(readFileSync(join(world.project, 'CHECKLIST.md'), 'utf8')).toBe('1. bump and tag\n2. publish\n');
    const tools = [
      ...world.recorder.payloads('PostToolUse'),
      ...world.recorder.payloads('PostToolUseFailure'),
    ].map((p) => p['tool_name']);
    expect(tools.length).toBe(6);
    const transcript = String(world.recorder.payloads('agentStop')[0]?.['transcriptPath']);
    expect(readFileSync(transcript, 'utf8')).toContain('"name":"edit"');
    if (recordingFixtures())
      writeHostFixtures('copilot', world, {
        transcripts: { 'events.jsonl': transcript },
        placeholders: { [cliDir]: '{{cli}}', [`127.0.0.1:${mock.port}`]: '127.0.0.1:{{port}}' },
        subdir: 'file-tools',
      });
  });
});

/**
 * opencode (pinned, from npm) against the loopback chat completions mock through a custom
 * `@ai-sdk/openai-compatible` provider: `opencode run` runs a real shell command the mock asks for, and a
 * plugin in `~/.config/opencode/plugins/` sees the session's bus events and tool hooks — its system
 * prompt addition reaches the model, and `opencode export` reads the session back from the SQLite store.
 * With ENGRAM_RECORD_HOST_FIXTURES=1 it also rewrites test/fixtures/hosts/opencode/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { opencodeEnv, opencodeInvocation } from './support/hosts/host-configs.ts';
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
import { binOf, ensurePinnedCli, OPENCODE } from './support/hosts/pinned-cli.ts';

describe('opencode against a loopback chat completions API', () => {
  let world: HostWorld;
  let mock: MockModel;
  let cliDir: string;
  let run: HostRun;

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(OPENCODE);
    world = createHostWorld('opencode');
    mock = await startMockModel(sessionScript('opencode'));
    const inv = opencodeInvocation(world, {
      cliDir,
      apiUrl: mock.url,
      prompt: SESSION_PROMPT,
      systemContext: CONTEXT_MARKER,
    });
    run = await runHostCli(inv.bin, inv.args, { cwd: world.project, env: inv.env, timeoutMs: 120_000 });
  });

  afterAll(async () => {
    await mock?.close();
    world?.cleanup();
  });

  const sessionId = () =>
    (world.recorder.payloads('session.created')[0]?.['info'] as { id?: string } | undefined)?.id ?? '';

  it('runs the session against the mock and the shell commands for real', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    expect(mock.mainTurns().length).toBe(3);
    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('Hello, release team!\n');
    // No start-up `npm install` of @opencode-ai/plugin: the seeded config directory was enough.
    const log = readFileSync(join(world.home, '.local', 'share', 'opencode', 'log', 'opencode.log'), 'utf8');
    expect(log).not.toContain('dependency install failed');
  });

  it('hands the plugin the session, prompt and tool calls', () => {
    const events = world.recorder.events();
    expect(events[0]).toBe('plugin.init');
    expect(world.recorder.payloads('plugin.init')[0]).toMatchObject({ directory: world.project });
    expect(world.recorder.payloads('session.created')[0]).toMatchObject({
      info: { directory: world.project },
    });
    expect(sessionId()).toMatch(/^ses_/);
    const prompt = world.recorder.payloads('chat.message')[0] as { output?: { parts?: { text?: string }[] } };
    expect(prompt.output?.parts?.map((p) => p.text ?? '').join('')).toContain(SESSION_PROMPT);
    const tools = world.recorder.payloads('tool.execute.after') as {
      input?: { tool?: string; sessionID?: string; args?: { command?: string } };
    }[];
    expect(tools.map((t) => t.input?.args?.command)).toEqual([GREETING_COMMAND, FAILING_COMMAND]);
    expect(tools.every((t) => t.input?.tool === 'bash' && t.input.sessionID === sessionId())).toBe(true);
    expect(events).toContain('session.idle');
  });

  it('puts the plugin context in the system prompt and exports the stored session', async () => {
    expect(mock.mainTurns()[0]?.text).toContain(CONTEXT_MARKER);
    expect(existsSync(join(world.home, '.local', 'share', 'opencode', 'opencode.db'))).toBe(true);
    const exported = await runHostCli(binOf(OPENCODE, cliDir), ['export', sessionId()], {
      cwd: world.project,
      env: opencodeEnv(world),
      timeoutMs: 60_000,
    });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const session = JSON.parse(exported.stdout) as {
      info: { id: string; directory: string };
      messages: { info: { role: string }; parts: { type: string; text?: string }[] }[];
    };
    expect(session.info).toMatchObject({ id: sessionId(), directory: world.project });
    const texts = session.messages.flatMap((m) => m.parts.map((p) => p.text ?? ''));
    expect(texts.join('\n')).toContain(FINAL_TEXT);
    if (recordingFixtures()) {
      const file = join(world.root, 'export.json');
      writeFileSync(file, exported.stdout);
      const stream = join(world.root, 'run-format-json.jsonl');
      writeFileSync(stream, run.stdout);
      writeHostFixtures('opencode', world, {
        transcripts: { 'export.json': file, 'run-format-json.jsonl': stream },
        placeholders: { [cliDir]: '{{cli}}', [`127.0.0.1:${mock.port}`]: '127.0.0.1:{{port}}' },
      });
    }
  });
});

/**
 * Proves the e2e harness: the pinned real Claude Code CLI, run from a clean environment with a temporary
 * HOME against the loopback Anthropic mock, really runs the tools the mock asks for, sends the results
 * back, fires the hooks of settings.json in the documented order, and continues and compacts sessions.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_VERSION,
  claudeCliDir,
  ensureClaudeCli,
  findTranscript,
  readTranscript,
  runClaude,
  type ClaudeRun,
  type RunClaudeOptions,
} from './support/claude-cli.ts';
import { installHookRecorder, type HookRecorder } from './support/hook-recorder.ts';
import {
  byPrompt,
  startMockAnthropic,
  type MockAnthropic,
  type MockOptions,
  type Script,
} from './support/mock-anthropic.ts';

const RUN_TIMEOUT_MS = 30_000;
const LEAK = 'ENGRAM_HARNESS_LEAK_CHECK';
const MARKER = 'Harness marker: the build server is called falcon.';

interface World {
  home: string;
  tmp: string;
  project: string;
  mock: MockAnthropic;
  hooks: HookRecorder;
  run(opts: Partial<RunClaudeOptions> & { prompt: string }): Promise<ClaudeRun>;
}

const cleanups: (() => Promise<void> | void)[] = [];
let bin: string;

/**
 * Fresh temporary HOME, TMPDIR and project, a mock answering with `script(project)`, hooks recorded.
 * ENGRAM_E2E_KEEP=1 keeps the directories for a look afterwards.
 */
async function world(script: (project: string) => Script, mockOptions?: MockOptions): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'engram-e2e-home-'));
  const tmp = mkdtempSync(join(tmpdir(), 'engram-e2e-tmp-'));
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'engram-e2e-project-')));
  const mock = await startMockAnthropic(script(project), mockOptions);
  cleanups.push(async () => {
    await mock.close();
    if (process.env['ENGRAM_E2E_KEEP']) {
      process.stderr.write(`kept: HOME ${home} TMPDIR ${tmp} project ${project}\n`);
      return;
    }
    for (const dir of [home, tmp, project]) rmSync(dir, { recursive: true, force: true });
  });
  const hooks = installHookRecorder(home, {
    respond: {
      SessionStart: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: MARKER } },
    },
  });
  const run = (opts: Partial<RunClaudeOptions> & { prompt: string }) =>
    runClaude({ bin, cwd: project, home, tmpdir: tmp, apiUrl: mock.url, timeoutMs: RUN_TIMEOUT_MS, ...opts });
  return { home, tmp, project, mock, hooks, run };
}

function expectSuccess(r: ClaudeRun): void {
  const why = `exit ${r.exitCode}, timed out ${r.timedOut}\nstderr: ${r.stderr}\nstdout tail: ${r.stdout.slice(-2000)}`;
  expect(r.timedOut, why).toBe(false);
  expect(r.exitCode, why).toBe(0);
  expect(r.result?.subtype, why).toBe('success');
}

beforeAll(async () => {
  bin = await ensureClaudeCli();
  process.env[LEAK] = 'must not reach the CLI';
}, 20 * 60_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => {
  delete process.env[LEAK];
});

describe('e2e harness: the real Claude Code CLI against the mock', () => {
  it('is the pinned version, cached outside the repo', () => {
    expect(bin).toBe(join(claudeCliDir(), 'node_modules', '.bin', 'claude'));
    expect(bin.startsWith(fileURLToPath(new URL('../..', import.meta.url)))).toBe(false);
    expect(CLAUDE_CODE_VERSION).toBe('2.1.330');
  });

  it('runs Write then Bash for the mock, fires the hooks in order, and continues the session', async () => {
    const FIRST = 'Create hello.txt and show it';
    const SECOND = 'What does hello.txt say?';
    const w = await world((project) =>
      byPrompt([
        [
          FIRST,
          [
            [
              {
                name: 'Write',
                input: { file_path: join(project, 'hello.txt'), content: 'hello from the mock\n' },
              },
            ],
            [{ name: 'Bash', input: { command: 'cat hello.txt', description: 'Show hello.txt' } }],
            'Created hello.txt and printed it.',
          ],
        ],
        [SECOND, ['It says: hello from the mock.']],
      ]),
    );
    const r1 = await w.run({ prompt: FIRST });
    expectSuccess(r1);
    expect(r1.result?.['result']).toBe('Created hello.txt and printed it.');
    expect(r1.durationMs).toBeLessThan(RUN_TIMEOUT_MS);

    // The tools really ran in the project…
    expect(readFileSync(join(w.project, 'hello.txt'), 'utf8')).toBe('hello from the mock\n');
    // …and their results reached the model.
    const results = w.mock.toolResults();
    expect(results.map((t) => t.name)).toEqual(['Write', 'Bash']);
    const bash = results.find((t) => t.name === 'Bash');
    expect(bash?.content).toContain('hello from the mock');
    expect(bash?.isError).toBe(false);
    expect(w.mock.errors).toEqual([]);
    expect(w.mock.mainRequests()).toHaveLength(3);

    // The SessionStart hook's additional context reached the model as a role:"system" message.
    const firstRequest = w.mock.mainRequests()[0];
    expect(firstRequest).toBeDefined();
    expect(w.mock.systemMessages(firstRequest ?? {}).join('\n')).toContain(
      `SessionStart hook additional context: ${MARKER}`,
    );

    // Hooks fired in the documented order, with the documented payloads.
    expect(w.hooks.events()).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'Stop',
      'SessionEnd',
    ]);
    const records = w.hooks.records();
    for (const rec of records) {
      expect(rec.payload).toMatchObject({
        session_id: r1.sessionId,
        cwd: w.project,
        hook_event_name: rec.event,
      });
      expect(rec.cwd).toBe(w.project);
      expect(rec.env['HOME']).toBe(w.home);
      expect(rec.env['CLAUDE_PROJECT_DIR']).toBe(w.project);
      expect(rec.env['ANTHROPIC_BASE_URL']).toBe(w.mock.url);
      expect(rec.envKeys).not.toContain(LEAK); // the clean environment really is clean
    }
    expect(w.hooks.payloads('SessionStart')[0]).toMatchObject({ source: 'startup' });
    expect(w.hooks.payloads('UserPromptSubmit')[0]).toMatchObject({ prompt: FIRST });
    expect(w.hooks.payloads('PreToolUse').map((p) => p['tool_name'])).toEqual(['Write', 'Bash']);
    const [postWrite, postBash] = w.hooks.payloads('PostToolUse');
    expect(postWrite).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: join(w.project, 'hello.txt') },
    });
    expect(postBash).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'cat hello.txt' },
      tool_response: { stdout: 'hello from the mock' },
    });
    expect(w.hooks.payloads('Stop')[0]).toMatchObject({
      stop_hook_active: false,
      last_assistant_message: 'Created hello.txt and printed it.',
    });
    expect(w.hooks.payloads('SessionEnd')[0]).toMatchObject({ reason: 'other' });

    // The transcript went to the temporary HOME.
    const transcript = findTranscript(w.home, r1.sessionId ?? '');
    expect(transcript).not.toBeNull();
    expect(w.hooks.payloads('SessionStart')[0]?.['transcript_path']).toBe(transcript);
    expect(readTranscript(transcript ?? '').some((rec) => rec['type'] === 'assistant')).toBe(true);

    // Second run, same project, --continue: same session, history replayed, SessionStart(resume).
    const mark = w.hooks.mark();
    const r2 = await w.run({ prompt: SECOND, continue: true });
    expectSuccess(r2);
    expect(r2.sessionId).toBe(r1.sessionId);
    expect(r2.result?.['result']).toBe('It says: hello from the mock.');
    expect(w.hooks.events(mark)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    expect(w.hooks.payloads('SessionStart', mark)[0]).toMatchObject({
      source: 'resume',
      session_id: r1.sessionId,
    });
    expect(w.hooks.payloads('UserPromptSubmit', mark)[0]).toMatchObject({ prompt: SECOND });
    const last = w.mock.mainRequests().at(-1) ?? {};
    expect(w.mock.textOf(last)).toContain('hello from the mock'); // the first run's tool result
    expect(w.mock.textOf(last)).toContain(SECOND);
  });

  it('fires PostToolUseFailure for a failing Bash command and sends the error to the model', async () => {
    const w = await world(() =>
      byPrompt([
        [
          'Run the failing check',
          [
            [{ name: 'Bash', input: { command: 'echo failing >&2; exit 3', description: 'Run the check' } }],
            'The check failed with exit code 3.',
          ],
        ],
      ]),
    );
    const r = await w.run({ prompt: 'Run the failing check' });
    expectSuccess(r);
    const [result] = w.mock.toolResults();
    expect(result).toMatchObject({ name: 'Bash', isError: true });
    expect(result?.content).toContain('Exit code 3');
    expect(w.hooks.events()).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'Stop',
      'SessionEnd',
    ]);
    expect(w.hooks.payloads('PostToolUseFailure')[0]).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'echo failing >&2; exit 3' },
      is_interrupt: false,
    });
    expect(String(w.hooks.payloads('PostToolUseFailure')[0]?.['error'])).toContain('Exit code 3');
  });

  it('compacts a session: the mock answers the summary request, PreCompact and PostCompact fire', async () => {
    const SUMMARY = 'The user asked for a greeting; hello.txt was discussed.';
    const w = await world(() => byPrompt([['Say hello', ['Hello!']]]), { compactSummary: SUMMARY });
    expectSuccess(await w.run({ prompt: 'Say hello' }));
    const mark = w.hooks.mark();
    const r = await w.run({ prompt: '/compact', continue: true });
    expectSuccess(r);
    expect(w.mock.compactRequests()).toHaveLength(1);
    const events = w.hooks.events(mark);
    expect(events.filter((e) => e !== 'SubagentStop')).toEqual([
      'SessionStart',
      'PreCompact',
      'SessionStart',
      'PostCompact',
      'SessionEnd',
    ]);
    expect(w.hooks.payloads('PreCompact', mark)[0]).toMatchObject({ trigger: 'manual' });
    expect(w.hooks.payloads('SessionStart', mark).map((p) => p['source'])).toEqual(['resume', 'compact']);
    expect(String(w.hooks.payloads('PostCompact', mark)[0]?.['compact_summary'])).toContain(SUMMARY);
    expect(w.hooks.payloads('SubagentStop', mark)[0]).toMatchObject({ agent_type: '' }); // the compaction agent
  });

  it('kills a run that exceeds its timeout, with the processes it started', async () => {
    const command = "sh -c 'echo $$ > sleeper.pid; exec sleep 60'";
    const w = await world(() =>
      byPrompt([['Wait for it', [[{ name: 'Bash', input: { command, description: 'Wait' } }]]]]),
    );
    const r = await w.run({ prompt: 'Wait for it', timeoutMs: 3_000 });
    expect(r.timedOut, r.stdout).toBe(true);
    expect(r.durationMs).toBeLessThan(10_000);
    const sleeper = Number(readFileSync(join(w.project, 'sleeper.pid'), 'utf8'));
    expect(sleeper).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(() => process.kill(sleeper, 0)).toThrow(); // the tool's process is gone too
  });
});

/**
 * The install path of a fresh machine (downloads ~364 MB): opt in with ENGRAM_E2E_FRESH_INSTALL=1.
 * Three concurrent callers (two other processes and this one) share one cache directory.
 */
describe.skipIf(!process.env['ENGRAM_E2E_FRESH_INSTALL'])('ensureClaudeCli on an empty cache', () => {
  it(
    'installs once for concurrent callers',
    async () => {
      const cache = mkdtempSync(join(tmpdir(), 'engram-e2e-cache-'));
      const saved = process.env['ENGRAM_TEST_CACHE'];
      try {
        // Bundle the support module so plain node processes can call it too.
        const { build } = await import('esbuild');
        const entry = join(cache, 'entry.mjs');
        await build({
          entryPoints: [fileURLToPath(new URL('./support/claude-cli.ts', import.meta.url))],
          bundle: true,
          platform: 'node',
          format: 'esm',
          outfile: entry,
        });
        const driver = join(cache, 'driver.mjs');
        writeFileSync(
          driver,
          `import { ensureClaudeCli } from ${JSON.stringify(entry)};\nconsole.log(await ensureClaudeCli());\n`,
        );
        const other = () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, [driver], {
              env: { ...process.env, ENGRAM_TEST_CACHE: cache },
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            let out = '';
            child.stdout.on('data', (d: Buffer) => (out += d.toString()));
            child.on('error', reject);
            child.on('close', (code) =>
              code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`)),
            );
          });
        process.env['ENGRAM_TEST_CACHE'] = cache;
        const paths = await Promise.all([other(), other(), ensureClaudeCli()]);
        const expected = join(cache, `claude-code-${CLAUDE_CODE_VERSION}`, 'node_modules', '.bin', 'claude');
        expect(paths).toEqual([expected, expected, expected]);
        expect(existsSync(`${claudeCliDir(cache)}.lock`)).toBe(false);
      } finally {
        if (saved === undefined) delete process.env['ENGRAM_TEST_CACHE'];
        else process.env['ENGRAM_TEST_CACHE'] = saved;
        rmSync(cache, { recursive: true, force: true });
      }
    },
    20 * 60_000,
  );
});

/**
 * End to end with the real host: `engram install` into a temporary HOME, real `claude -p` sessions
 * against a loopback mock of the Anthropic API that drives real tool calls, and the next session's
 * request checked for the memory engram injected.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import { ensureClaudeCli, findTranscript, runClaude } from './support/claude-cli.ts';
import { startMockAnthropic, type MockAnthropic, type Reply } from './support/mock-anthropic.ts';

const FIRST = 'Create notes.md with a greeting for the release team, then show it';
/** The greeting request for any team (the MCP test seeds its own project with it). */
const GREETING = /Create notes\.md with a greeting for the (\w+) team, then show it/;
const FAILING = 'Check that the migration script runs';
const CACHE = 'Set up caching for the user lookup';
const CORRECTION = "No, don't use Redis; use an in-memory LRU map instead.";

function script({
  prompt,
  step,
  lastPrompt,
  stepInTurn,
}: {
  prompt: string;
  step: number;
  lastPrompt: string;
  stepInTurn: number;
}): Reply {
  if (lastPrompt.includes('What do you remember about the notes greeting?')) {
    return stepInTurn === 0
      ? { toolUses: [{ name: 'mcp__engram__search', input: { query: 'notes greeting' } }] }
      : { text: 'engram remembers creating notes.md with a greeting.' };
  }
  if (lastPrompt.includes(CORRECTION)) {
    return { text: 'Understood: no Redis. I will use an in-memory LRU map for the user lookup cache.' };
  }
  if (lastPrompt.includes(CACHE)) {
    const steps: Reply[] = [
      {
        toolUses: [
          { name: 'Bash', input: { command: 'redis-cli ping', description: 'Check for a local Redis' } },
        ],
      },
      { text: 'I will add Redis as a cache in front of the database, but redis-cli is not installed here.' },
    ];
    return steps[stepInTurn] ?? { text: 'Done.' };
  }
  const greeting = GREETING.exec(prompt);
  if (greeting) {
    const team = greeting[1] ?? '';
    const steps: Reply[] = [
      {
        toolUses: [
          {
            name: 'Write',
            input: { file_path: 'PROJECT/notes.md', content: `# Release notes\n\nHello, ${team} team!\n` },
          },
        ],
      },
      {
        toolUses: [
          {
            name: 'Edit',
            input: {
              file_path: 'PROJECT/notes.md',
              old_string: `Hello, ${team} team!`,
              new_string: `Hello, ${team} team! Ship it on Friday.`,
            },
          },
        ],
      },
      { toolUses: [{ name: 'Bash', input: { command: 'cat notes.md', description: 'Show the notes' } }] },
      { text: `Created notes.md with a greeting for the ${team} team and printed it.` },
    ];
    return steps[step] ?? { text: 'Done.' };
  }
  if (prompt.includes(FAILING)) {
    const steps: Reply[] = [
      {
        toolUses: [{ name: 'Bash', input: { command: 'node migrate.js', description: 'Run the migration' } }],
      },
      { text: 'The migration script is missing: node cannot find migrate.js.' },
    ];
    return steps[step] ?? { text: 'Done.' };
  }
  return { text: 'Noted.' };
}

describe('engram inside the real Claude Code', () => {
  let claude: string;
  let mock: MockAnthropic;
  let sb: Sandbox;
  let projectA: string;
  let projectB: string;
  /** Where the scripted Write/Edit calls point: the project of the session being run. */
  let current = '';

  beforeAll(async () => {
    claude = await ensureClaudeCli();
    sb = createSandbox({ ENGRAM_WORKER_AUTOSTART: 'true', ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30' });
    projectA = sb.project('release-app', 'git@github.com:example/release-app.git');
    projectB = sb.project('other-app', 'https://github.com/example/other-app.git');
    mock = await startMockAnthropic((ctx) => {
      const reply = script(ctx);
      if ('toolUses' in reply) {
        for (const t of reply.toolUses) {
          if (typeof t.input['file_path'] === 'string')
            t.input['file_path'] = t.input['file_path'].replace('PROJECT', current || projectA);
        }
      }
      return reply;
    });
    const install = sb.engram(['install']);
    expect(install.status, install.stderr).toBe(0);
  }, 20 * 60_000);

  afterAll(async () => {
    // Stop the worker the hooks started (only that pid), then clean up.
    sb?.engram(['worker', 'stop']);
    await mock?.close();
    sb?.cleanup();
  });

  const run = (prompt: string, cwd: string, sessionId: string) => {
    current = cwd;
    return runClaude({
      bin: claude,
      prompt,
      cwd,
      home: sb.home,
      apiUrl: mock.url,
      sessionId,
      env: {
        ENGRAM_HOME: sb.engramHome,
        ENGRAM_WORKER_AUTOSTART: 'true',
        ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30',
      },
    });
  };

  it('remembers session 1 in session 2 of the same project, and not in another project', async () => {
    const s1 = randomUUID();
    const r1 = await run(FIRST, projectA, s1);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(readFileSync(join(projectA, 'notes.md'), 'utf8')).toContain(
      'Hello, release team! Ship it on Friday.',
    );
    const toolResults = mock.textOf(mock.requestsFor(FIRST).at(-1) ?? {});
    expect(toolResults).toContain('Ship it on Friday.'); // the Edit and the Bash command really ran

    const flush = sb.engram(['flush', '--json']);
    expect(flush.status, flush.stderr).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hooks: { hook: string; count: number }[];
      queue: { pending: number; parked: number };
    };
    const seen = Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]));
    expect(seen).toMatchObject({ SessionStart: 1, UserPromptSubmit: 1, Stop: 1 });
    expect(seen['PostToolUse']).toBeGreaterThanOrEqual(2);
    expect(status.queue).toMatchObject({ pending: 0, parked: 0 });

    // Session 2, same project: the request the model receives carries session 1's memory.
    const s2 = randomUUID();
    const second = 'What should I do next with the release?';
    const r2 = await run(second, projectA, s2);
    expect(r2.exitCode, r2.stderr).toBe(0);
    const sent = mock
      .requestsFor(second)
      .map((r) => mock.textOf(r))
      .join('\n');
    if (process.env['ENGRAM_E2E_VERBOSE'])
      process.stderr.write(`--- sent to the model in session 2 ---\n${sent}\n`);
    expect(sent).toContain('SessionStart hook additional context');
    expect(sent).toContain('engram memory for project "release-app"');
    expect(sent).toContain('notes.md');
    expect(sent).toMatch(/Create notes\.md with a greeting/);
    // …and the transcript records it as hook context.
    const transcript = findTranscript(sb.home, s2);
    expect(transcript && existsSync(transcript)).toBe(true);
    const records = readFileSync(transcript as string, 'utf8')
      .split('\n')
      .filter((l) => l.includes('hook_additional_context'));
    expect(records.join('\n')).toContain('notes.md');

    // Session 3, another project: none of it.
    const s3 = randomUUID();
    const third = 'Summarise this repository';
    const r3 = await run(third, projectB, s3);
    expect(r3.exitCode, r3.stderr).toBe(0);
    const sent3 = mock
      .requestsFor(third)
      .map((r) => mock.textOf(r))
      .join('\n');
    expect(sent3.length).toBeGreaterThan(0);
    expect(sent3).not.toContain('notes.md');
    expect(sent3).not.toContain('release-app');
  });

  it('captures a failing command and tells the next session about it', async () => {
    const s = randomUUID();
    const r = await run(FAILING, projectA, s);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    const search = JSON.parse(sb.engram(['search', 'migrate', '--json', '--cwd', projectA]).stdout) as {
      results: { type: string; title: string }[];
    };
    expect(
      search.results.some((x) => x.type === 'failed_attempt' && /^`node migrate\.js` fails: /.test(x.title)),
    ).toBe(true);
    const ctx = sb.engram(['context', '--cwd', projectA]);
    expect(ctx.stdout).toContain('migrate');
  });

  it('learns a correction from a real transcript and mentions it next time; a probe that found no Redis is no failure', async () => {
    const projectC = sb.project('users-service', 'git@github.com:example/users-service.git');
    const s = randomUUID();
    const first = await run(CACHE, projectC, s);
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await runClaude({
      bin: claude,
      prompt: CORRECTION,
      cwd: projectC,
      home: sb.home,
      apiUrl: mock.url,
      extraArgs: ['--resume', s],
      env: {
        ENGRAM_HOME: sb.engramHome,
        ENGRAM_WORKER_AUTOSTART: 'true',
        ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30',
      },
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);

    const found = JSON.parse(
      sb.engram(['search', 'redis LRU cache', '--json', '--cwd', projectC, '--limit', '20']).stdout,
    ) as {
      results: { type: string; title: string }[];
    };
    const types = found.results.map((r) => `${r.type}: ${r.title}`);
    expect(types).toEqual(
      expect.arrayContaining([
        "correction: Correction: No, don't use Redis; use an in-memory LRU map instead.",
      ]),
    );
    // `redis-cli ping` asked whether a Redis runs here; its non-zero exit is the answer, not a failure
    // of the project's to fix.
    expect(types.filter((t) => t.startsWith('failed_attempt:'))).toEqual([]);
    // The next session in this project is told about both.
    const next = randomUUID();
    const ask = 'Continue with the user lookup cache';
    const r = await run(ask, projectC, next);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = mock
      .requestsFor(ask)
      .map((q) => mock.textOf(q))
      .join('\n');
    expect(sent).toContain("Correction: No, don't use Redis");
    expect(sent).not.toMatch(/`redis-cli ping` fails: /);
  });

  it('lets the model call an engram MCP tool and get memories back', async () => {
    const projectD = sb.project('mcp-project', 'git@github.com:example/mcp-project.git');
    const seed = await run(FIRST.replace('release team', 'MCP team'), projectD, randomUUID());
    expect(seed.exitCode, seed.stderr).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    const ask = 'What do you remember about the notes greeting?';
    const r = await runClaude({
      bin: claude,
      prompt: ask,
      cwd: projectD,
      home: sb.home,
      apiUrl: mock.url,
      allowedTools: ['Bash', 'Write', 'Edit', 'Read', 'mcp__engram__search'],
      env: {
        ENGRAM_HOME: sb.engramHome,
        ENABLE_TOOL_SEARCH: 'false',
        ENGRAM_WORKER_AUTOSTART: 'true',
        ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30',
      },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const requests = mock.requestsFor(ask);
    const offered = (requests[0]?.tools ?? []) as { name?: string }[];
    expect(offered.map((t) => t.name)).toContain('mcp__engram__search');
    const results = mock.textOf(requests.at(-1) ?? {});
    // Titled by what is now true (the assistant's statement), not by the prompt.
    expect(results).toMatch(
      /obs_[0-9a-z]{20} \[feature\] Created notes\.md with a greeting for the MCP team/,
    );
  });
});

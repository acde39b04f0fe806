/**
 * Why engram's capture hooks stay synchronous. Claude Code can run a command hook in the background
 * (`"async": true`); measured with the real CLI, the same scripted session (tool calls that pass and
 * one that fails, a compaction, a correction in the next turn) run with engram's capture-only hooks
 * async lost what the transcript read at the turn's end does not bring back: PostCompact (the host's
 * compaction summary) is killed at the `-p` teardown, and a turn's last tool event can land after the
 * turn's Stop, so the turn is distilled without it (its outcome titled from the prompt instead of the
 * end-of-turn report, a failure's fix not found). This test pins down what the synchronous hooks that
 * `engram install` writes keep: every event in the order the host sent it, and what was distilled from
 * it. ENGRAM_E2E_ASYNC_SIDE=1 also runs the session with the capture-only hooks made async and prints
 * both sides and the time the agent waited between model requests (a measurement, not asserted: the
 * losses are races).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import { ensureClaudeCli, runClaude } from './support/claude-cli.ts';
import { startMockAnthropic, type MockAnthropic, type Reply } from './support/mock-anthropic.ts';

const TASK = 'Add a release checklist and check the build';
const CORRECTION = 'No, keep the checklist in docs/ instead of the project root.';
const CAPTURE_ONLY = ['PostToolUse', 'PostToolUseFailure', 'SubagentStop', 'PreCompact', 'PostCompact'];

function script(lastPrompt: string, stepInTurn: number, project: string): Reply {
  if (lastPrompt.includes(CORRECTION)) {
    const steps: Reply[] = [
      {
        toolUses: [
          {
            name: 'Bash',
            input: { command: 'mkdir -p docs && git mv -k CHECKLIST.md docs/ || mv CHECKLIST.md docs/' },
          },
        ],
      },
      { text: 'Moved the checklist to docs/CHECKLIST.md.' },
    ];
    return steps[stepInTurn] ?? { text: 'Done.' };
  }
  if (!lastPrompt.includes(TASK)) return { text: 'Noted.' };
  const steps: Reply[] = [
    {
      toolUses: [
        {
          name: 'Write',
          input: { file_path: join(project, 'CHECKLIST.md'), content: '# Release\n\n- [ ] tag\n' },
        },
      ],
    },
    {
      toolUses: [
        {
          name: 'Edit',
          input: {
            file_path: join(project, 'CHECKLIST.md'),
            old_string: '- [ ] tag\n',
            new_string: '- [ ] tag\n- [ ] changelog\n',
          },
        },
      ],
    },
    { toolUses: [{ name: 'Bash', input: { command: 'node build.js', description: 'Build' } }] },
    {
      toolUses: [
        {
          name: 'Bash',
          input: { command: 'printf "console.log(1)\\n" > build.js', description: 'Add the build' },
        },
      ],
    },
    { toolUses: [{ name: 'Bash', input: { command: 'node build.js', description: 'Build again' } }] },
    { text: 'Added CHECKLIST.md (tag, changelog) and a build script; `node build.js` passes now.' },
  ];
  return steps[stepInTurn] ?? { text: 'Done.' };
}

/** engram's capture-only hook entries in a Claude Code settings file, made async or synchronous. */
function setCaptureAsync(settingsPath: string, on: boolean): void {
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
    hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
  };
  for (const event of CAPTURE_ONLY)
    for (const group of settings.hooks[event] ?? [])
      for (const entry of group.hooks) {
        if (!String(entry['command']).includes('engram')) continue;
        if (on) entry['async'] = true;
        else delete entry['async'];
      }
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
}

interface Stored {
  /** Every captured event of the session, in capture order: hook and tool. */
  events: string[];
  memories: string[];
  summary: string;
}

/** What one sandbox's store holds for a session, with the project's path made neutral. */
function stored(sb: Sandbox, sessionId: string, project: string): Stored {
  const db = new Database(join(sb.engramHome, 'engram.db'), { readonly: true });
  try {
    const neutral = (s: string) => s.split(project).join('PROJECT');
    const events = (
      db.prepare('SELECT hook, payload FROM events WHERE session_id = ? ORDER BY at, seq').all(sessionId) as {
        hook: string;
        payload: string;
      }[]
    ).map((e) => {
      const tool = (JSON.parse(e.payload) as { tool?: string }).tool;
      return tool ? `${e.hook} ${tool}` : e.hook;
    });
    const memories = (
      db
        .prepare("SELECT type, title FROM observations WHERE status = 'active' ORDER BY type, title")
        .all() as { type: string; title: string }[]
    ).map((m) => neutral(`${m.type}: ${m.title}`));
    const summaryRow = db
      .prepare('SELECT * FROM summaries WHERE session_id = ? ORDER BY rowid DESC LIMIT 1')
      .get(sessionId) as Record<string, unknown> | undefined;
    const summary = neutral(
      JSON.stringify(
        Object.fromEntries(
          Object.entries(summaryRow ?? {}).filter(([k]) =>
            ['request', 'investigated', 'learned', 'completed', 'next_steps', 'files_edited'].includes(k),
          ),
        ),
      ),
    );
    return { events, memories, summary };
  } finally {
    db.close();
  }
}

const WITH_ASYNC_SIDE = process.env['ENGRAM_E2E_ASYNC_SIDE'] === '1';

describe('capture hooks as engram install writes them (synchronous) keep every event and its turn', () => {
  let claude: string;
  const sides: Record<'sync' | 'async', { sb: Sandbox; mock: MockAnthropic; project: string }> = {} as never;

  beforeAll(async () => {
    claude = await ensureClaudeCli();
    for (const side of WITH_ASYNC_SIDE ? (['sync', 'async'] as const) : (['sync'] as const)) {
      const sb = createSandbox({ ENGRAM_WORKER_AUTOSTART: 'true', ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30' });
      const project = sb.project('release-app', 'git@github.com:example/release-app.git');
      const mock = await startMockAnthropic((ctx) => script(ctx.lastPrompt, ctx.stepInTurn, project), {
        compactSummary: 'The user asked for a release checklist; CHECKLIST.md and build.js were added.',
      });
      const install = sb.engram(['install']);
      expect(install.status, install.stderr).toBe(0);
      if (side === 'async') setCaptureAsync(join(sb.home, '.claude', 'settings.json'), true);
      sides[side] = { sb, mock, project };
    }
  }, 20 * 60_000);

  afterAll(async () => {
    for (const side of Object.values(sides)) {
      side.sb.engram(['worker', 'stop']);
      await side.mock.close();
      side.sb.cleanup();
    }
  });

  async function session(side: 'sync' | 'async'): Promise<{ id: string; waits: number[] }> {
    const { sb, mock, project } = sides[side];
    const id = randomUUID();
    const env = {
      ENGRAM_HOME: sb.engramHome,
      ENGRAM_WORKER_AUTOSTART: 'true',
      ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30',
    };
    const base = { bin: claude, cwd: project, home: sb.home, apiUrl: mock.url, env, timeoutMs: 60_000 };
    const first = await runClaude({ ...base, prompt: TASK, sessionId: id });
    expect(first.exitCode, first.stderr).toBe(0);
    const compact = await runClaude({ ...base, prompt: '/compact', continue: true });
    expect(compact.exitCode, compact.stderr).toBe(0);
    const second = await runClaude({ ...base, prompt: CORRECTION, continue: true });
    expect(second.exitCode, second.stderr).toBe(0);
    // What the agent waited between one model request and the next: the tool, then its hooks.
    const times = mock.log.filter((r) => r.kind === 'main').map((r) => r.at);
    const waits = times.slice(1).map((t, i) => t - (times[i] as number));
    return { id, waits };
  }

  it('installs no hook to run in the background', () => {
    const settings = JSON.parse(
      readFileSync(join(sides.sync.sb.home, '.claude', 'settings.json'), 'utf8'),
    ) as {
      hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
    };
    const entries = Object.values(settings.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks));
    expect(entries.length).toBeGreaterThanOrEqual(CAPTURE_ONLY.length);
    expect(entries.filter((e) => 'async' in e)).toEqual([]);
  });

  it('stores every event in the order sent, PostCompact and the last tool call before Stop included, and distils each turn whole', async () => {
    const sync = await session('sync');
    expect(sides.sync.sb.engram(['flush']).status).toBe(0);
    const a = stored(sides.sync.sb, sync.id, sides.sync.project);
    expect(a.events).toEqual([
      ...['SessionStart', 'UserPromptSubmit', 'PostToolUse Write', 'PostToolUse Edit'],
      ...['PostToolUseFailure Bash', 'PostToolUse Bash', 'PostToolUse Bash', 'Stop', 'SessionEnd'],
      ...['SessionStart', 'PreCompact', 'SubagentStop', 'SessionStart', 'PostCompact', 'SessionEnd'],
      ...['SessionStart', 'UserPromptSubmit', 'PostToolUse Bash', 'Stop', 'SessionEnd'],
    ]);
    // The turn's outcome is titled by its end-of-turn report, and the failure's fix is the command
    // run between it and the passing run: both need the turn's last tool event before its Stop.
    expect(a.memories).toEqual(
      expect.arrayContaining([
        'feature: Added CHECKLIST.md (tag, changelog) and a build script; `node build.js` passes now.',
        expect.stringMatching(/^gotcha: `node build\.js` fails: .*→ run `printf` first$/),
      ]),
    );
    expect(JSON.parse(a.summary)).toMatchObject({ learned: expect.stringContaining('run `printf` first') });
    if (!WITH_ASYNC_SIDE) return;
    const bg = await session('async');
    expect(sides.async.sb.engram(['flush']).status).toBe(0);
    const b = stored(sides.async.sb, bg.id, sides.async.project);
    process.stderr.write(
      `${JSON.stringify({ sync: a, async: b, waitsMs: { sync: sync.waits, async: bg.waits } }, null, 2)}\n`,
    );
  });
});

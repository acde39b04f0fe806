/**
 * A subagent's work is the session's work: what it ran, what failed and what it changed count as if
 * the main agent had done it — read from the transcript (records inline, as older hosts wrote them, or
 * in a file of the subagent's own beside it) the same as the hooks report it live. Its own task list
 * is not the session's, and the main agent's report that all went well does not survive a failure a
 * subagent left open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { replayLive, transcriptPathOf } from '../../test/support/replay.ts';
import { resolveProject } from '../capture/project-identity.ts';
import type { ProjectId } from '../core/ids.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { drainStore, useFlowStore } from './flow.test-support.ts';
import { ingestTranscript } from './ingest-transcript.ts';

const CWD = '/home/dev/todo';
const project = resolveProject(CWD).id as ProjectId;
const BUILD_ERROR =
  '> todo@0.1.0 build\n> next build\n\n   ▲ Next.js 15.5.2\n\n   Creating an optimized production build ...\n> Build error occurred\n[TypeError: generate is not a function]';

/** The orchestrating agent hands the app to a subagent, which writes it, builds it and fails. */
function session(inline: boolean) {
  const s = createClaudeSession({
    sessionId: inline ? 'c3000000-0000-4000-8000-000000000001' : 'c3000000-0000-4000-8000-000000000002',
    cwd: CWD,
    start: '2026-05-02T09:00:00Z',
  }).start();
  s.prompt('create a TODO app with Next.js')
    .say('I will hand the app to a subagent.')
    .subagent(
      {
        description: 'Build TODO components',
        type: 'general-purpose',
        prompt: 'Write the TODO list component and check that the app builds.',
        finding: 'I created the TodoList component and the page that renders it.',
        inline,
      },
      () => {
        s.todo([
          { content: 'Write TodoList', status: 'completed' },
          { content: 'Polish styling later', status: 'pending' },
        ])
          .write(`${CWD}/src/components/TodoList.tsx`, 'export function TodoList() {\n  return null;\n}\n')
          .bash('npm run build', { exit: 1, stdout: BUILD_ERROR });
      },
    )
    .say("I've successfully created a fully functional TODO app using Next.js.")
    .stop()
    .end();
  return s;
}

describe('a subagent’s work', () => {
  const flow = useFlowStore('subagent');

  const write = (s: ReturnType<typeof session>) => {
    const path = transcriptPathOf(join(flow.dir, 'projects'), s);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, s.jsonl());
    for (const [file, text] of Object.entries(s.subagentFiles())) {
      const full = join(path.slice(0, -'.jsonl'.length), file);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
    return path;
  };
  const active = () => flow.store.observations.recent(project, 50).filter((o) => o.status === 'active');

  /** What every way of reading the session must agree on. */
  const expectTheSubagentsWork = (sessionId: string) => {
    const memories = active();
    const failed = memories.filter((o) => o.type === 'failed_attempt');
    expect(failed.map((o) => o.title)).toEqual([
      '`npm run build` fails: [TypeError: generate is not a function]',
    ]);
    // The main agent's verdict is refuted by the build the subagent left failing.
    expect(failed[0]?.narrative).not.toMatch(/fully functional/);
    expect(memories.flatMap((o) => o.filesModified)).toContain('src/components/TodoList.tsx');
    const summary = flow.store.summaries.get(sessionId);
    expect(summary?.completed).toMatch(/build failed/);
    expect(summary?.nextSteps).toMatch(/npm run build/);
    // The subagent's own plan ("polish styling later") is not the session's open task.
    const text = JSON.stringify([memories, summary]);
    expect(text).not.toMatch(/Polish styling later/);
  };

  it('is read from a subagent file beside the transcript (backfill)', () => {
    const s = session(false);
    const path = write(s);
    expect(Object.keys(s.subagentFiles())).toHaveLength(1);
    ingestTranscript(flow.store, path, {
      mode: 'backfill',
      distiller: createHeuristicDistiller(),
      now: Date.parse('2026-05-03T00:00:00Z'),
    });
    expectTheSubagentsWork(s.sessionId);
  });

  it('is read from inline sidechain records (older hosts; backfill)', () => {
    const s = session(true);
    const path = write(s);
    expect(s.subagentFiles()).toEqual({});
    expect(s.jsonl()).toContain('"isSidechain":true');
    ingestTranscript(flow.store, path, {
      mode: 'backfill',
      distiller: createHeuristicDistiller(),
      now: Date.parse('2026-05-03T00:00:00Z'),
    });
    expectTheSubagentsWork(s.sessionId);
  });

  it('reading the web leaves the conventions the turn’s own commits show at the runs’ trust', () => {
    const s = createClaudeSession({
      sessionId: 'c3000000-0000-4000-8000-000000000003',
      cwd: CWD,
      start: '2026-05-04T09:00:00Z',
    }).start();
    s.prompt('finish the two tickets').subagent(
      {
        description: 'Look up the hook contract',
        type: 'general-purpose',
        prompt: 'What may a SessionStart hook print?',
        finding: 'A SessionStart hook may print JSON with hookSpecificOutput.additionalContext.',
      },
      () => {
        s.webFetch('https://docs.example.com/hooks', 'SessionStart output', 'additionalContext is injected.');
      },
    );
    for (const [n, subject] of [
      [1, 'feat: list todos (todo-1)'],
      [2, 'fix: keep the filter on reload (todo-2)'],
    ] as const) {
      s.write(`${CWD}/src/t${n}.ts`, `export const t${n} = ${n};\n`)
        .bash('npm run lint', { stdout: '> todo@0.1.0 lint\n> eslint .\n' })
        .bash('npm test', { stdout: 'Test Files  3 passed (3)\n     Tests  12 passed (12)' })
        .bash(`git add -A && git commit -m "${subject}"`, {
          stdout: `[main ${n}a2b3c4] ${subject}\n 1 file changed, 1 insertion(+)`,
        });
    }
    s.say('Both tickets are committed.').stop().end();
    const path = write(s);
    ingestTranscript(flow.store, path, {
      mode: 'backfill',
      distiller: createHeuristicDistiller(),
      now: s.time(),
    });
    // Listed at all means not held for review (held memories are left out of the listing).
    const conventions = active().filter((o) => o.type === 'convention');
    expect(conventions.map((o) => [o.title.split(' pass')[0], o.trust])).toEqual([
      ['Before each commit, `npm run lint` and `npm test`', 'tool'],
      [
        'Commit messages follow Conventional Commits (`fix: keep the filter on reload (todo-2)`), ending with the task id',
        'tool',
      ],
    ]);
  });

  it('is the same when the hooks reported it live', async () => {
    const s = session(false);
    await replayLive(flow.store, s, join(flow.dir, 'projects'), (now) => drainStore(flow.store, now, true));
    expectTheSubagentsWork(s.sessionId);
  });
});

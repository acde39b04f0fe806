/**
 * Shell commands the host sent to the background: the launch says nothing of how they went; the task's
 * report (`TaskOutput`), or its output file read back, does.
 */
import { describe, expect, it } from 'vitest';
import { analyseTurn } from './analyse-turn.ts';
import { launchOf, taskNotification, taskReport } from './background-runs.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { bash, edit, prompt, ROOT, stop, tool, turn, write } from './queued-events.test-support.ts';

const TEST_FILE = 'test/reviews_channel_test.exs';
const COMPILE_ERROR =
  '==> spotter\nCompiling 3 files (.ex)\n     error: undefined function assert_broadcast/2 (expected ReviewsChannelTest to define such a function or for it to be imported, but none are available)\n     │\n 104 │       assert_broadcast("counts_updated", %{})\n     │       ^^^^^^^^^^^^^^^^\n     │\n     └─ test/reviews_channel_test.exs:104:7\n\n== Compilation error in file test/reviews_channel_test.exs ==';

/** Claude Code's result for a command it moved to the background (what the transcript keeps). */
const launched = (command: string, id: string) =>
  tool(
    'Bash',
    { command, description: 'Run the tests', run_in_background: true },
    { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: id },
  );
/** The host's `TaskOutput` result for a finished background command. */
const taskOutput = (
  id: string,
  status: 'completed' | 'failed' | 'running',
  exitCode: number | null,
  output: string,
) =>
  tool(
    'TaskOutput',
    { task_id: id, block: true, timeout: 300000 },
    {
      retrieval_status: 'success',
      task: { task_id: id, task_type: 'local_bash', status, description: 'Run the tests', output, exitCode },
    },
  );

const commandsOf = (events: ReturnType<typeof turn>) =>
  analyseTurn(events, ROOT).commands.map((c) => [c.canonical, c.outcome]);

describe('a command sent to the background', () => {
  it('reads the launch notice, in the structured result and in the text a transcript keeps', () => {
    expect(launchOf({ stdout: '', backgroundTaskId: 'b57276d' }, '')).toEqual({
      id: 'b57276d',
      outputFile: '',
    });
    expect(
      launchOf(
        'x',
        'Command running in background with ID: b563ccf. Output is being written to: /tmp/claude-1000/p/tasks/b563ccf.output',
      ),
    ).toEqual({ id: 'b563ccf', outputFile: '/tmp/claude-1000/p/tasks/b563ccf.output' });
    expect(launchOf({ stdout: '5 tests, 0 failures' }, '5 tests, 0 failures')).toBeNull();
    // A task still running has no verdict yet; a finished one does, from its status and exit code.
    expect(
      taskReport('TaskOutput', {}, { task: { task_id: 'b1', status: 'running', exitCode: null } }),
    ).toBeNull();
    expect(
      taskReport(
        'TaskOutput',
        {},
        { task: { task_id: 'b1', status: 'completed', exitCode: 0, output: 'ok' } },
      ),
    ).toEqual({ id: 'b1', exit: 'ok', output: 'ok' });
    expect(
      taskReport(
        'BashOutput',
        { bash_id: 'b2' },
        { status: 'completed', exitCode: 1, stdout: 'a', stderr: 'b' },
      ),
    ).toEqual({ id: 'b2', exit: 'failed', output: 'a\nb' });
  });

  it('is not a passing run until its report says so: unknown while unread, failed when the task failed', () => {
    const unread = turn(prompt('Add the channel test'), launched('mix test 2>&1', 'b1'));
    expect(commandsOf(unread)).toEqual([['mix test', 'unknown']]);
    const reported = turn(
      prompt('Add the channel test'),
      launched('mix test 2>&1', 'b1'),
      taskOutput('b1', 'running', null, '==> spotter\nCompiling 3 files (.ex)'),
      taskOutput('b1', 'failed', 1, COMPILE_ERROR),
    );
    const a = analyseTurn(reported, ROOT);
    expect(a.commands.map((c) => [c.canonical, c.outcome])).toEqual([['mix test', 'failed']]);
    expect(a.errors.map((e) => [e.index, e.message])).toEqual([
      [
        1,
        'undefined function assert_broadcast/2 (expected ReviewsChannelTest to define such a function or for it to be imported, but none are available)',
      ],
    ]);
  });

  it('takes the suite summary read back from its output file as the verdict, and nothing else', () => {
    const file = '/tmp/claude-1000/-home-dev-shop/tasks/b9.output';
    const notice = tool(
      'Bash',
      { command: 'mix test 2>&1', description: 'Run the suite', run_in_background: true },
      `Command running in background with ID: b9. Output is being written to: ${file}`,
    );
    const progress = turn(
      prompt('Run the suite'),
      notice,
      bash(`tail -5 ${file}`, 'Compiling 88 files (.ex)'),
    );
    expect(commandsOf(progress)[0]).toEqual(['mix test', 'unknown']);
    const finished = turn(
      prompt('Run the suite'),
      notice,
      bash(`tail -5 ${file}`, 'Finished in 4.1 seconds (0.5s async, 3.6s sync)\n354 tests, 0 failures'),
    );
    const a = analyseTurn(finished, ROOT);
    expect(a.commands[0]).toMatchObject({ canonical: 'mix test', outcome: 'passed', detail: '354 passed' });
  });

  it("takes the host's note that the task ended as its verdict, and the output file read after it as its error", () => {
    const note = (id: string, status: string, summary: string) =>
      prompt(
        `<task-notification>\n<task-id>${id}</task-id>\n<output-file>/tmp/claude-1000/-home-dev-shop/tasks/${id}.output</output-file>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/claude-1000/-home-dev-shop/tasks/${id}.output`,
      );
    expect(
      taskNotification('<task-notification><task-id>b2</task-id><status>killed</status></task-notification>'),
    ).toBeNull();
    expect(taskNotification('Please look at <task-notification>')).toBeNull();
    // Passed: the note alone says so (exit code 0); it is no prompt of the user's.
    const passed = analyseTurn(
      turn(
        prompt('Run the suite'),
        launched('mix test 2>&1', 'b7'),
        note('b7', 'completed', 'Background command "Run the suite" completed (exit code 0)'),
        stop('The suite passes.'),
      ),
      ROOT,
    );
    expect(passed.commands.map((c) => [c.canonical, c.outcome])).toEqual([['mix test', 'passed']]);
    expect(passed.prompts).toEqual(['Run the suite']);
    // A note after the output was read adds nothing to what the output said.
    const read = analyseTurn(
      turn(
        prompt('Run the suite'),
        launched('mix test 2>&1', 'b7'),
        bash(
          'tail -3 /tmp/claude-1000/-home-dev-shop/tasks/b7.output',
          'Finished in 4.1 seconds\n354 tests, 0 failures',
        ),
        note('b7', 'completed', 'Background command "Run the suite" completed (exit code 0)'),
      ),
      ROOT,
    );
    expect(read.commands[0]).toMatchObject({ outcome: 'passed', detail: '354 passed' });
    // Failed: the note says so; the output file read next says what failed.
    const failed = analyseTurn(
      turn(
        prompt('Add the channel test'),
        launched('mix test 2>&1', 'b8'),
        note('b8', 'failed', 'Background command "Run the tests" failed with exit code 1'),
        tool(
          'Read',
          { file_path: '/tmp/claude-1000/-home-dev-shop/tasks/b8.output' },
          {
            type: 'text',
            file: { filePath: '/tmp/claude-1000/-home-dev-shop/tasks/b8.output', content: COMPILE_ERROR },
          },
        ),
      ),
      ROOT,
    );
    expect(failed.commands.map((c) => [c.canonical, c.outcome])).toEqual([['mix test', 'failed']]);
    expect(failed.errors.map((e) => e.message)).toEqual([
      'undefined function assert_broadcast/2 (expected ReviewsChannelTest to define such a function or for it to be imported, but none are available)',
    ]);
  });

  it('keeps the gotcha of a background run that failed, fixed by an edit and passing after', () => {
    const events = turn(
      prompt('Add the reviews channel test'),
      write(TEST_FILE, 'defmodule ReviewsChannelTest do\n  use ExUnit.Case\nend\n'),
      launched(`mix test ${TEST_FILE} 2>&1`, 'b1'),
      taskOutput('b1', 'failed', 1, COMPILE_ERROR),
      edit(TEST_FILE, '  use ExUnit.Case\n', '  use ExUnit.Case\n\n  import Phoenix.ChannelTest\n'),
      bash(`mix test ${TEST_FILE} 2>&1`, 'Finished in 0.2 seconds\n6 tests, 0 failures'),
      stop('The reviews channel has its tests now.'),
    );
    const r = createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary: null });
    expect(r.observations.filter((o) => o.type === 'gotcha').map((o) => o.title)).toEqual([
      '`mix test` fails: undefined function assert_broadcast/2 → in reviews_channel_test.exs: `import Phoenix.ChannelTest`',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../core/transcript.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { distilTranscript } from './transcript-distiller.ts';
import { splitTranscriptTurns } from './transcript-turns.ts';

const AT = 1_758_342_899_561;
const bash = (id: string, command: string, text: string, isError: boolean): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `u-${id}`,
  at: AT,
  id,
  name: 'Bash',
  input: { command },
  result: { text, isError, structured: null, uuid: `r-${id}` },
  sidechain: false,
});
const say = (id: string, text: string): TranscriptEntry => ({
  kind: 'assistant_text',
  uuid: `u-${id}`,
  at: AT,
  messageId: id,
  text,
});

describe('a transcript whose records share one time', () => {
  it("keeps the assistant's words between the calls they were said between (a predicted failure stays predicted)", () => {
    const entries: TranscriptEntry[] = [
      { kind: 'prompt', uuid: 'p1', at: AT, text: 'Add a regression test for the ignore bug' },
      say('a1', 'Before the fix, this new test should fail on the current code.'),
      bash(
        't1',
        'go test ./... -run TestIgnored',
        'Exit code 1\n--- FAIL: TestIgnored (0.01s)\nFAIL\nFAIL\tgithub.com/acme/x\t0.02s',
        true,
      ),
      say('a2', 'It fails as expected; the fix comes next.'),
    ];
    const r = distilTranscript(entries, [], {
      distiller: createHeuristicDistiller(),
      projectRoot: '/home/dev/x',
      sessionId: 's1',
      previousSummary: null,
    });
    expect(r.memories.map((m) => m.draft.type)).not.toContain('failed_attempt');
    expect(r.summary?.nextSteps).toBe('');
  });
});

describe('a background task whose end is noted after the next prompt', () => {
  it('joins its note to the turn that launched it, so the run is judged there', () => {
    const ROOT = '/home/dev/shop';
    const entries: TranscriptEntry[] = [
      { kind: 'prompt', uuid: 'p1', at: AT, text: 'Fix the rounding in the cart total' },
      {
        kind: 'tool_call',
        uuid: 'u-e1',
        at: AT + 1000,
        id: 'e1',
        name: 'Edit',
        input: { file_path: `${ROOT}/src/cart.ts`, old_string: 'Math.floor(t)', new_string: 'Math.round(t)' },
        result: { text: 'The file has been updated.', isError: false, structured: null, uuid: 'r-e1' },
        sidechain: false,
      },
      {
        kind: 'tool_call',
        uuid: 'u-t1',
        at: AT + 2000,
        id: 't1',
        name: 'Bash',
        input: { command: 'npm test', run_in_background: true },
        result: {
          text: 'Command running in background with ID: b41. Output is being written to: /tmp/claude-1000/-home-dev-shop/tasks/b41.output',
          isError: false,
          structured: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'b41' },
          uuid: 'r-t1',
        },
        sidechain: false,
      },
      {
        kind: 'assistant_text',
        uuid: 'u-a1',
        at: AT + 3000,
        messageId: 'a1',
        text: 'The tests are running.',
      },
      { kind: 'prompt', uuid: 'p2', at: AT + 60_000, text: 'Also look at the README typo' },
      {
        kind: 'task_notification',
        uuid: 'n1',
        at: AT + 61_000,
        text: '<task-notification>\n<task-id>b41</task-id>\n<status>completed</status>\n<summary>Background command "npm test" completed (exit code 0)</summary>\n</task-notification>',
      },
      { kind: 'assistant_text', uuid: 'u-a2', at: AT + 62_000, messageId: 'a2', text: 'Fixed the typo.' },
    ];
    expect(splitTranscriptTurns(entries).map((t) => t.map((e) => e.uuid))).toEqual([
      ['p1', 'u-e1', 'u-t1', 'u-a1', 'n1'],
      ['p2', 'u-a2'],
    ]);
    const r = distilTranscript(entries, [], {
      distiller: createHeuristicDistiller(),
      projectRoot: ROOT,
      sessionId: 's1',
      previousSummary: null,
    });
    // The suite ran after the change and passed: not "tests not run".
    expect(r.summary?.notes ?? '').not.toMatch(/tests not run/);
    expect(JSON.stringify(r.summary)).toMatch(/tests passed/);
  });
});

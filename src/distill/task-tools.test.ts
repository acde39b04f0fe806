import { describe, expect, it } from 'vitest';
import type { ProjectId } from '../core/ids.ts';
import type { CapturedEvent, QueuedEvent } from '../core/model.ts';
import type { TranscriptEntry } from '../core/transcript.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { tasksSubject } from './task-state.ts';
import { openNumberedTasks } from './todo-list.ts';
import { distilTranscript } from './transcript-distiller.ts';

// Claude Code's task tools as its transcripts record them: TaskCreate answers with the task's number,
// a later TaskUpdate names only that number and the new status.
let n = 0;
const at = () => 1_770_000_000_000 + ++n * 1000;
const prompt = (text: string): TranscriptEntry => ({ kind: 'prompt', uuid: `p${++n}`, at: at(), text });
const call = (name: string, input: Record<string, string>, text: string): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `t${++n}`,
  at: at(),
  id: `id${n}`,
  name,
  input,
  result: { text, isError: false, structured: null, uuid: `r${n}` },
  sidechain: false,
});
const create = (id: string, subject: string) =>
  call('TaskCreate', { subject, description: subject }, `Task #${id} created successfully: ${subject}`);
const update = (id: string, status: string) =>
  call('TaskUpdate', { taskId: id, status }, `Updated task #${id} status`);

describe('the host’s numbered task tools across turns', () => {
  it('closes the tasks an earlier turn created as later turns finish them, by number', () => {
    const entries = [
      prompt('Solve the five questions, one at a time.'),
      create('1', 'Q1: total supply via RPC'),
      create('2', 'Q2: recent swaps screenshot'),
      create('3', 'Q3: decode the swap value'),
      update('1', 'in_progress'),
      update('1', 'completed'),
      prompt('q1 looks great, go on with q2.'),
      update('2', 'in_progress'),
      update('2', 'completed'),
      prompt('proceed to q3.'),
      update('3', 'completed'),
    ];
    const r = distilTranscript(entries, [], {
      distiller: createHeuristicDistiller(),
      projectRoot: '/home/dev/dex',
      sessionId: 's-tasks',
      previousSummary: null,
    });
    const lists = r.memories.filter((m) => m.draft.subject === tasksSubject('s-tasks'));
    // The first turn leaves two open; the second one; the third finishes the list.
    expect(lists.map((m) => m.draft.facts)).toEqual([
      ['[ ] #2 Q2: recent swaps screenshot', '[ ] #3 Q3: decode the swap value'],
      ['[ ] #3 Q3: decode the swap value'],
    ]);
    expect(r.finishedTasks.map((t) => t.subject)).toEqual([tasksSubject('s-tasks')]);
    // The last turn finished what was still open: the stored list's last item.
    expect(r.finishedTasks[0]?.done).toEqual(['#3 Q3: decode the swap value']);
  });

  it('finishes a stored list from a turn whose TaskUpdate names only a number (the hook events’ path)', () => {
    const stored = ['[ ] #2 Q2: recent swaps screenshot (in progress)', '[ ] #3 Q3: decode the swap value'];
    const earlierTasks = openNumberedTasks(stored);
    expect(earlierTasks).toEqual([
      { content: '#2 Q2: recent swaps screenshot', status: 'in_progress' },
      { content: '#3 Q3: decode the swap value', status: 'pending' },
    ]);
    const queued = (seq: number, event: CapturedEvent): QueuedEvent => ({
      seq,
      sessionId: 's-live',
      projectId: 'prj_1' as ProjectId,
      cwd: '/home/dev/dex',
      transcriptPath: null,
      at: at(),
      event,
      attempts: 0,
    });
    const update = (id: string): CapturedEvent => ({
      kind: 'tool',
      tool: 'TaskUpdate',
      input: { taskId: id, status: 'completed' },
      response: `Updated task #${id} status`,
    });
    const events: QueuedEvent[] = [
      queued(1, { kind: 'prompt', prompt: 'finish q2 and q3' }),
      queued(2, update('2')),
      queued(3, update('3')),
    ];
    const d = createHeuristicDistiller();
    const withList = d.distilTurn({
      projectRoot: '/home/dev/dex',
      events,
      previousSummary: null,
      earlierTasks,
    });
    expect(withList.finishedTasks).toEqual([tasksSubject('s-live')]);
    // Without the stored list, the numbers name nothing and nothing is finished.
    const without = d.distilTurn({ projectRoot: '/home/dev/dex', events, previousSummary: null });
    expect(without.finishedTasks).toEqual([]);
  });
});

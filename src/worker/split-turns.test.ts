import { describe, expect, it } from 'vitest';
import type { CapturedEvent, QueuedEvent } from '../core/model.ts';
import { splitTurns } from './split-turns.ts';

let seq = 0;
function ev(event: CapturedEvent): QueuedEvent {
  seq++;
  return {
    seq,
    sessionId: 's',
    projectId: 'p' as never,
    cwd: '/p',
    transcriptPath: null,
    at: seq,
    event,
    attempts: 0,
  };
}

describe('splitTurns', () => {
  it('ends turns at Stop and SessionEnd and starts one at each new prompt', () => {
    const events = [
      ev({ kind: 'session_start', source: 'startup' }),
      ev({ kind: 'prompt', prompt: 'a' }),
      ev({ kind: 'tool', tool: 'Read', input: {}, response: {} }),
      ev({ kind: 'stop', lastMessage: 'x' }),
      ev({ kind: 'prompt', prompt: 'b' }),
      ev({ kind: 'prompt', prompt: 'c' }),
      ev({ kind: 'tool', tool: 'Bash', input: {}, response: {} }),
    ];
    const turns = splitTurns(events);
    expect(turns.map((t) => [t.events.map((e) => e.event.kind), t.closed])).toEqual([
      [['session_start', 'prompt', 'tool', 'stop'], true],
      [['prompt'], true],
      [['prompt', 'tool'], false],
    ]);
    expect(splitTurns([ev({ kind: 'session_end', reason: 'other' })])).toEqual([
      {
        events: [expect.objectContaining({ event: { kind: 'session_end', reason: 'other' } })],
        closed: true,
      },
    ]);
    expect(splitTurns([])).toEqual([]);
  });
});

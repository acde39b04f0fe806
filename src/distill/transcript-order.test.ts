import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../core/transcript.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { distilTranscript } from './transcript-distiller.ts';

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

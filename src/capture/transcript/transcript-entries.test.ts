import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeSession, type ClaudeSession } from '../../../test/support/claude-session.ts';
import { rejectionReason } from '../../core/transcript.ts';
import type { ParsedTranscript } from './parsed-transcript.ts';
import { peekSkippedType } from './skipped-lines.ts';
import { createTranscriptParser } from './transcript-entries.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'transcripts');
const parseFile = (name: string) => {
  const parser = createTranscriptParser();
  for (const line of readFileSync(join(FIXTURES, name), 'utf8').split('\n')) {
    if (line.trim() !== '') parser.add(JSON.parse(line));
  }
  return parser.result();
};

describe('transcript records → entries', () => {
  it('merges an API message split over records, pairs tool calls with results, keeps usage once', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    const message = (content: unknown[]) => ({
      id: 'msg_1',
      model: 'claude-x',
      content,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 7,
      },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: 'Please fix the login bug' },
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      message: message([{ type: 'text', text: 'Looking at it.' }]),
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a2',
      message: message([{ type: 'text', text: 'I will run the tests.' }]),
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a3',
      message: message([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }]),
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u2',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Tests: 3 passed', is_error: false }],
      },
      toolUseResult: { stdout: 'Tests: 3 passed', stderr: '' },
    });
    p.add({ ...base, type: 'progress', uuid: 'x' });
    p.add({ ...base, type: 'something-new', uuid: 'y' });
    p.add({ ...base, type: 'system', subtype: 'compact_boundary', uuid: 'c1' });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u3',
      isCompactSummary: true,
      message: { role: 'user', content: 'Summary of earlier work' },
    });
    const r = p.result();
    expect(r.sessionId).toBe('s1');
    expect(r.entries.map((e) => e.kind)).toEqual([
      'prompt',
      'assistant_text',
      'tool_call',
      'compact_boundary',
      'compact_summary',
    ]);
    expect(r.entries[1]).toMatchObject({ text: 'Looking at it.\nI will run the tests.' });
    expect(r.entries[2]).toMatchObject({
      name: 'Bash',
      result: {
        text: 'Tests: 3 passed',
        isError: false,
        structured: { stdout: 'Tests: 3 passed', stderr: '' },
      },
    });
    expect(r.usage).toEqual([
      {
        messageId: 'msg_1',
        model: 'claude-x',
        at: Date.parse(base.timestamp),
        input: 10,
        output: 5,
        cacheRead: 100,
        cacheWrite: 7,
      },
    ]);
    expect(r.types.get('progress')).toEqual({ seen: 1, skipped: 1 });
    expect(r.types.get('something-new')).toEqual({ seen: 1, skipped: 1 });
  });

  it("leaves out what the host wrote in the assistant's place: a usage limit, an API error", () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    p.add({ ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'Add the French labels' } });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      message: {
        id: 'm1',
        model: 'claude-x',
        content: [{ type: 'text', text: 'The labels are in French now.' }],
      },
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a2',
      isApiErrorMessage: true,
      message: {
        id: 'm2',
        model: '<synthetic>',
        content: [{ type: 'text', text: "You've hit your limit · resets 1am (Europe/Paris)" }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
    const r = p.result();
    expect(r.entries.filter((e) => e.kind === 'assistant_text').map((e) => e.text)).toEqual([
      'The labels are in French now.',
    ]);
    expect(r.usage.map((u) => u.model)).toEqual([]);
  });

  it('reads what the user typed in VS Code without the extension’s note of the file they have open', () => {
    const p = createTranscriptParser();
    p.add({
      sessionId: 's1',
      cwd: '/Users/dev/Admin',
      timestamp: '2026-03-19T03:08:06.701Z',
      type: 'user',
      uuid: 'u1',
      entrypoint: 'claude-vscode',
      message: {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '<ide_opened_file>The user opened the file /Users/dev/Admin/build/top_300_contacts.csv in the IDE. This may or may not be related to the current task.</ide_opened_file>',
          },
          { type: 'text', text: 'Restart openwhisper' },
        ],
      },
    });
    p.add({
      sessionId: 's1',
      cwd: '/Users/dev/Admin',
      timestamp: '2026-03-19T03:09:00.000Z',
      type: 'user',
      uuid: 'u2',
      message: {
        role: 'user',
        content:
          '<ide_selection>The user selected lines 3-9 of src/app.swift:\nlet model = "base.en"</ide_selection>',
      },
    });
    expect(p.result().entries.map((e) => [e.kind, 'text' in e ? e.text : ''])).toEqual([
      ['prompt', 'Restart openwhisper'],
    ]);
  });

  it('keeps the start and the end of a very long prompt (the ask after a paste), the rest counted', () => {
    const p = createTranscriptParser();
    const paste = Array.from({ length: 900 }, (_, i) => `- step ${i}: installed the skills`).join('\n');
    const words = `${paste}\nContinue please`;
    p.add({
      sessionId: 's1',
      cwd: '/w',
      timestamp: '2026-01-01T10:00:00Z',
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: words },
    });
    const text = (p.result().entries[0] as { text: string }).text;
    expect(text.startsWith('- step 0: installed the skills')).toBe(true);
    expect(text.endsWith('\nContinue please')).toBe(true);
    expect(text).toContain(`…[${words.length - 7500} characters left out]…`);
    expect(text.length).toBeLessThan(7600);
  });

  it('keeps only the start of a file that was read, and the lines around a comment citing an upstream issue', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    const file = [
      ...Array.from({ length: 40 }, (_, i) => `const filler${i} = ${i};`),
      '// Uses the git CLI: go-git Checkout deletes untracked files (https://github.com/go-git/go-git/issues/970).',
      'export function checkout() {}',
      ...Array.from({ length: 40 }, (_, i) => `const tail${i} = ${i};`),
    ]
      .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
      .join('\n');
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      message: {
        id: 'm1',
        content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/git.ts' } }],
      },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: file }] },
    });
    const text = (p.result().entries[0] as { result: { text: string } }).result.text;
    expect(text.length).toBeLessThan(1500);
    expect(text).toContain('filler0');
    expect(text).toContain('issues/970');
    expect(text).toContain('export function checkout');
    expect(text).not.toContain('tail39');
  });

  it('keeps that a subagent was launched in the background (its launch notice is not its finding)', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      message: {
        id: 'm1',
        content: [{ type: 'tool_use', id: 't1', name: 'Task', input: { description: 'Poem' } }],
      },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u1',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: 'Async agent launched successfully.\nagentId: a9c',
          },
        ],
      },
      toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'a9c', prompt: 'Write a poem' },
    });
    const call = p.result().entries[0] as { result: { structured: unknown } };
    expect(call.result.structured).toEqual({ isAsync: true, status: 'async_launched' });
  });

  it('keeps a shell command’s background task id, and the end of the task’s report where its verdict is', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    const call = (uuid: string, id: string, name: string, input: Record<string, unknown>) =>
      p.add({
        ...base,
        type: 'assistant',
        uuid,
        message: { id: uuid, content: [{ type: 'tool_use', id, name, input }] },
      });
    const result = (uuid: string, id: string, text: string, toolUseResult: unknown) =>
      p.add({
        ...base,
        type: 'user',
        uuid,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
        toolUseResult,
      });
    call('a1', 't1', 'Bash', { command: 'mix test', run_in_background: true });
    result(
      'u1',
      't1',
      'Command running in background with ID: b57. Output is being written to: /tmp/t/b57.output',
      {
        stdout: '',
        stderr: '',
        interrupted: false,
        backgroundTaskId: 'b57',
      },
    );
    call('a2', 't2', 'TaskOutput', { task_id: 'b57', block: true });
    const output = `${'Compiling dependency …\n'.repeat(800)}Finished in 0.2 seconds\n6 tests, 1 failure`;
    result('u2', 't2', '<status>failed</status>', {
      retrieval_status: 'success',
      task: {
        task_id: 'b57',
        task_type: 'local_bash',
        status: 'failed',
        description: 'Run',
        output,
        exitCode: 1,
      },
    });
    const [launch, report] = p.result().entries as { result: { structured: Record<string, unknown> } }[];
    expect(launch?.result.structured).toMatchObject({ backgroundTaskId: 'b57' });
    const task = report?.result.structured['task'] as Record<string, unknown>;
    expect(task).toMatchObject({ task_id: 'b57', status: 'failed', exitCode: 1 });
    expect(String(task['output'])).toMatch(/6 tests, 1 failure$/);
    expect(String(task['output']).length).toBeLessThan(output.length);
  });

  it('treats a rejected tool call and an interrupt as interrupts, and skips system wrappers', () => {
    const p = createTranscriptParser();
    p.add({
      type: 'assistant',
      uuid: 'a',
      message: {
        id: 'm',
        content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'rm -rf build' } }],
      },
    });
    p.add({
      type: 'user',
      uuid: 'b',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't',
            content: "The user doesn't want to proceed with this tool use.",
            is_error: true,
          },
        ],
      },
    });
    p.add({
      type: 'user',
      uuid: 'c',
      message: { content: [{ type: 'text', text: '[Request interrupted by user]' }] },
    });
    p.add({ type: 'user', uuid: 'd', message: { content: '<task-notification>\n<task-id>1</task-id>' } });
    p.add({ type: 'user', uuid: 'e', message: { content: 'no, keep the build folder' } });
    // The task notification is the host's note (see below), not a prompt.
    expect(p.result().entries.map((e) => e.kind)).toEqual([
      'interrupt',
      'interrupt',
      'task_notification',
      'prompt',
    ]);
  });

  it('scrubs secrets out of every string it keeps', () => {
    const p = createTranscriptParser();
    const fake = 'ghp_' + 'FAKEfakeFAKEfakeFAKEfakeFAKEfake0000';
    p.add({ type: 'user', uuid: 'u', message: { content: `use token ${fake}` } });
    p.add({
      type: 'assistant',
      uuid: 'a',
      message: {
        id: 'm',
        content: [
          {
            type: 'tool_use',
            id: 't',
            name: 'Bash',
            input: { command: `curl -H "Authorization: Bearer ${fake}"` },
          },
        ],
      },
    });
    p.add({
      type: 'user',
      uuid: 'r',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: `echo ${fake}` }] },
    });
    expect(JSON.stringify(p.result().entries)).not.toContain(fake);
  });

  it('reads the real fixture transcripts without failing and reports what it skipped', () => {
    const big = parseFile('258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    expect(big.entries.filter((e) => e.kind === 'prompt').length).toBeGreaterThan(0);
    expect(big.entries.some((e) => e.kind === 'compact_boundary')).toBe(true);
    expect(big.entries.some((e) => e.kind === 'compact_summary')).toBe(true);
    const calls = big.entries.filter((e) => e.kind === 'tool_call');
    expect(calls.length).toBeGreaterThan(50);
    expect(
      calls.filter((c) => c.kind === 'tool_call' && c.result !== null).length / calls.length,
    ).toBeGreaterThan(0.9);
    expect(big.types.get('progress')?.skipped).toBeGreaterThan(1000);
    const sub = parseFile('258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl');
    expect(sub.usage.length).toBeGreaterThan(0);
  });
});

/** A session written as the host writes it, read as the worker reads it (progress lines peeked, not parsed). */
function readSession(s: ClaudeSession, upTo = s.steps.length, from = 0, before?: ParsedTranscript) {
  const p = createTranscriptParser(before?.entries.slice(-8) ?? [], before?.chain ?? []);
  for (const step of s.steps.slice(from, upTo))
    for (const r of step.records) {
      const line = JSON.stringify(r);
      const skipped = peekSkippedType(line);
      if (skipped) p.skip(skipped);
      else p.add(JSON.parse(line));
    }
  return p.result();
}
const prompts = (r: ParsedTranscript) =>
  r.entries.flatMap((e) => (e.kind === 'prompt' ? [[e.text, e.command ?? null]] : []));

describe('only the user’s words are the user’s', () => {
  it('reads a skill invocation as the command the user typed, never its expanded instructions', () => {
    const beads = parseFile('subagent.jsonl');
    expect(prompts(beads)).toEqual([
      [
        expect.stringMatching(/^\/handgemacht:create-beads websearch to learn how to fastest setup credo/),
        '/handgemacht:create-beads',
      ],
      ['create the beads', null],
    ]);
    expect(JSON.stringify(beads.entries)).not.toContain('see mockup');
  });

  it('skips local command output, caveats, notifications and reminders', () => {
    const s = createClaudeSession({ sessionId: 's-host', cwd: '/w', start: '2026-03-01T10:00:00Z' });
    s.prompt('fix the flaky test', { reminder: 'The user opened src/a.test.ts.' })
      .say('Looking.')
      .localCommand('/mcp', 'Reconnected to tidewave.')
      .notification('b1', 'Background command "npm test" completed (exit code 0)')
      .prompt('thanks, now run the linter');
    expect(prompts(readSession(s))).toEqual([
      ['fix the flaky test', null],
      ['/mcp', '/mcp'],
      ['thanks, now run the linter', null],
    ]);
  });

  it('keeps a subagent’s prompt and words out of the conversation (its finding comes back once, as the tool result)', () => {
    const big = parseFile('258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    const task = big.entries.find((e) => e.kind === 'tool_call' && e.name === 'Task');
    expect(task?.kind === 'tool_call' && task.result?.text).toMatch(
      /^Based on the official Claude Code hooks documentation/,
    );
    expect(prompts(big).map(([t]) => t)).toEqual([
      'Implement spotter-gqc',
      'check again',
      'new beads for the epic were added. tackle them',
      'did you push?',
    ]);
    const sub = parseFile('258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl');
    expect(sub.entries.filter((e) => e.kind === 'prompt' || e.kind === 'assistant_text')).toEqual([]);
    // Its tool calls are kept, marked as the subagent's, with the id the host gave it.
    const calls = sub.entries.filter((e) => e.kind === 'tool_call');
    expect(calls.map((e) => e.kind === 'tool_call' && [e.name, e.sidechain, e.agent])).toEqual([
      ['WebFetch', true, 'a881341'],
      ['WebFetch', true, 'a881341'],
    ]);
    // Each prompt carries the branch the host recorded with it.
    expect(big.entries.find((e) => e.kind === 'prompt')).toMatchObject({ branch: 'spotter-gqc' });
  });

  it('tells inline subagents apart by their record chains when the host wrote no id', () => {
    const s = createClaudeSession({ sessionId: 's-inline', cwd: '/w', start: '2026-03-12T16:00:00Z' });
    s.prompt('build it');
    for (const name of ['one', 'two'])
      s.subagent(
        {
          description: name,
          type: 'general-purpose',
          prompt: `do ${name}`,
          finding: `did ${name}`,
          inline: true,
        },
        () => {
          s.bash(`echo ${name}`, { stdout: name }).bash(`echo ${name} again`, { stdout: name });
        },
      );
    s.say('Both done.').stop();
    const p = createTranscriptParser();
    // Older hosts wrote no agentId: only the chain says which subagent made a call.
    for (const line of s.jsonl().trim().split('\n')) {
      const r = JSON.parse(line) as Record<string, unknown>;
      delete r['agentId'];
      p.add(r);
    }
    const calls = p.result().entries.filter((e) => e.kind === 'tool_call' && e.sidechain);
    const agents = calls.map((e) => (e.kind === 'tool_call' ? e.agent : undefined));
    expect(agents).toHaveLength(4);
    expect(agents[0]).toBe(agents[1]);
    expect(agents[2]).toBe(agents[3]);
    expect(agents[0]).not.toBe(agents[2]);
  });
});

describe('the parentUuid chain: a rewound branch is not what happened', () => {
  const rewound = () => {
    const s = createClaudeSession({ sessionId: 's-rewind', cwd: '/w', start: '2026-03-12T16:00:00Z' });
    s.prompt('Cache product lookups')
      .say('I will put a Redis cache in front of getProduct because it is shared across instances.')
      .write('src/redis-cache.ts', 'export const redis = 1;\n')
      .stop()
      .prompt('Also add metrics')
      .say('Added metrics.')
      .stop()
      .rewindTo(1)
      .prompt('Count cache hits in a Prometheus counter instead')
      .say('Done: a `cache_hits_total` counter.')
      .stop();
    return s;
  };

  it('drops the abandoned branch when the rewind is in the same read', () => {
    const r = readSession(rewound());
    expect(prompts(r).map(([t]) => t)).toEqual([
      'Cache product lookups',
      'Count cache hits in a Prometheus counter instead',
    ]);
    expect(r.entries.some((e) => e.kind === 'assistant_text' && e.text === 'Added metrics.')).toBe(false);
    expect(r.entries.some((e) => e.kind === 'tool_call' && e.name === 'Write')).toBe(true);
    expect(r.rewinds).toHaveLength(1);
  });

  it('recognises a rewind to a point read before, from the chain carried between reads', () => {
    const s = rewound();
    const cut = s.steps.findIndex(
      (st, i) =>
        i > 0 &&
        st.hook?.['hook_event_name'] === 'UserPromptSubmit' &&
        st.at > s.steps[0]!.at &&
        JSON.stringify(st.records).includes('Prometheus'),
    );
    const first = readSession(s, cut);
    const second = readSession(s, s.steps.length, cut, first);
    expect(second.rewinds).toHaveLength(1);
    const abandoned = new Set(second.rewinds[0]?.abandoned);
    const metrics = first.entries.find((e) => e.kind === 'assistant_text' && e.text === 'Added metrics.');
    expect(abandoned.has(metrics?.uuid ?? '')).toBe(true);
    const redis = first.entries.find(
      (e) => e.kind === 'assistant_text' && e.text.startsWith('I will put a Redis'),
    );
    expect(abandoned.has(redis?.uuid ?? '')).toBe(false);
  });

  it('is not fooled by the side branches of normal use: parallel tool results, hook progress, interrupts', () => {
    for (const name of [
      '258c7280-ae70-4798-800f-63464d01a85d.jsonl',
      'subagent.jsonl',
      'tool_heavy.jsonl',
      'short.jsonl',
    ]) {
      const p = createTranscriptParser();
      for (const line of readFileSync(join(FIXTURES, name), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const skipped = peekSkippedType(line);
        if (skipped) p.skip(skipped);
        else p.add(JSON.parse(line));
      }
      expect(p.result().rewinds, name).toEqual([]);
    }
  });
});

describe('what the user said outside a prompt', () => {
  const session = () =>
    createClaudeSession({ sessionId: 's-words', cwd: '/w', start: '2026-03-01T10:00:00Z' });

  it('keeps the reason typed when rejecting a tool call, without the host’s wrapping, with the call rejected', () => {
    const s = session()
      .prompt('silence the lint warning')
      .say('I will add a biome-ignore comment.')
      .reject(
        'Edit',
        {
          file_path: '/w/app/api.ts',
          old_string: 'const a = 1;',
          new_string: '// biome-ignore lint\nconst a = 1;',
        },
        'we import it twice, remove the unused one instead',
      )
      .say('Understood.')
      .reject('Bash', { command: 'mise run fmt' });
    const entries = readSession(s).entries;
    const interrupts = entries.filter((e) => e.kind === 'interrupt');
    expect(interrupts[0]).toMatchObject({
      rejected: { tool: 'Edit', input: { file_path: '/w/app/api.ts' } },
      reason: 'we import it twice, remove the unused one instead',
    });
    // Rejected without a reason: the call is named, no words are made up.
    expect(interrupts.find((e) => e.kind === 'interrupt' && e.rejected?.tool === 'Bash')).not.toHaveProperty(
      'reason',
    );
    // A rejected call did not run: it is not a tool call of the turn.
    expect(entries.filter((e) => e.kind === 'tool_call')).toEqual([]);
    expect(JSON.stringify(entries)).not.toContain('Pay close attention');
  });

  it('reads the reason typed when rejecting, in either of the host’s wordings', () => {
    const lead =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
    const reason = 'Remember that you are on Windows, please use docker if tests or the build have problems';
    expect(rejectionReason(`${lead} To tell you how to proceed, the user said:\n${reason}`)).toBe(reason);
    // Claude Code 2.1.x
    expect(
      rejectionReason(`${lead} The user provided the following reason for the rejection:  ${reason}`),
    ).toBe(reason);
  });

  it('reads no reason into the host’s request to clarify an AskUserQuestion', () => {
    expect(
      rejectionReason(
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nThe user wants to clarify these questions.\n    This means they may have additional information.",
      ),
    ).toBe('');
  });

  it('keeps words typed while the agent worked: absorbed into the turn, or submitted later (once, not a rewind)', () => {
    const s = session()
      .prompt('run the full test suite')
      .bash('mix test', { stdout: '87 tests, 0 failures' })
      .queue('also check the credo warnings')
      .absorb()
      .queue('and the attachment form')
      .absorb(true)
      .queue('are they still running?')
      .say('All green.')
      .stop()
      .submitQueued();
    const parsed = readSession(s);
    expect(parsed.rewinds).toEqual([]);
    expect(parsed.entries.flatMap((e) => (e.kind === 'prompt' ? [[e.text, e.queued === true]] : []))).toEqual(
      [
        ['run the full test suite', false],
        ['also check the credo warnings', true],
        ['and the attachment form', true],
        ['are they still running?', false],
      ],
    );
    // The assistant's words after the queued prompt are kept (nothing was taken for an abandoned branch).
    expect(parsed.entries.some((e) => e.kind === 'assistant_text' && e.text === 'All green.')).toBe(true);
  });

  it('keeps a task notification, queued or delivered, as the host’s note, never as the user’s words', () => {
    const p = createTranscriptParser();
    const note =
      '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n<summary>Background command "Run tests" completed (exit code 0)</summary>\n</task-notification>';
    p.add({
      type: 'queue-operation',
      operation: 'enqueue',
      timestamp: '2026-03-01T10:00:00Z',
      content: note,
    });
    p.add({
      type: 'user',
      uuid: 'n1',
      parentUuid: null,
      sessionId: 's1',
      cwd: '/w',
      timestamp: '2026-03-01T10:00:05Z',
      message: {
        role: 'user',
        content: `${note}\nRead the output file to retrieve the result: /tmp/x/tasks/b1.output`,
      },
    });
    const entries = p.result().entries;
    expect(entries.filter((e) => e.kind === 'prompt')).toEqual([]);
    expect(entries.map((e) => e.kind)).toEqual(['task_notification', 'task_notification']);
    expect(entries[1]).toMatchObject({ uuid: 'n1', text: expect.stringContaining('<task-id>b1</task-id>') });
  });

  it('reads a Stop hook that refused to end the turn as the hook’s feedback, never as a prompt', () => {
    const s = session()
      .prompt('fix the typo')
      .say('Fixed.')
      .stopBlocked(
        '.claude/hooks/require-commit.sh',
        'There are uncommitted changes: commit them before stopping.',
      )
      .say('Committing.')
      .stop();
    const entries = readSession(s).entries;
    expect(
      entries.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text : '')),
    ).toEqual(['fix the typo']);
    const feedback = entries.filter((e) => e.kind === 'hook_feedback');
    expect(feedback.length).toBeGreaterThan(0);
    expect(feedback[0]).toMatchObject({
      event: 'Stop',
      command: '.claude/hooks/require-commit.sh',
      text: 'There are uncommitted changes: commit them before stopping.',
    });
    // A Stop hook that let the turn end says nothing (the session's plain stop() records are ignored).
    expect(feedback.every((f) => f.kind === 'hook_feedback' && f.text.includes('uncommitted'))).toBe(true);
  });

  it('keeps a compaction summary’s later sections even after long code listings', () => {
    const code = `\`\`\`ts\n${'const x = 1;\n'.repeat(1500)}\`\`\``;
    const s = session()
      .prompt('go')
      .say('ok')
      .compact(
        `Summary:\n3. Files and Code Sections:\n${code}\n7. Pending Tasks:\n   - wire the review page`,
      );
    const summary = readSession(s).entries.find((e) => e.kind === 'compact_summary');
    expect(summary?.kind === 'compact_summary' && summary.text).toContain('wire the review page');
  });
});

describe('a slash command and its expansion', () => {
  it('keeps the host’s expansion with the command’s prompt, never as the user’s words', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    const command =
      '<command-message>publish-session</command-message>\n<command-name>/publish-session</command-name>';
    p.add({
      ...base,
      type: 'user',
      uuid: 'c1',
      parentUuid: null,
      message: { role: 'user', content: command },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'c2',
      parentUuid: 'c1',
      isMeta: true,
      message: {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Publish the transcript by running:\n\n```bash\npython3 ~/tools/publish.py s1\n```\n',
          },
        ],
      },
    });
    // A meta record that follows a typed prompt (a skill's text, a caveat) stays the host's, unattached.
    p.add({
      ...base,
      type: 'user',
      uuid: 'w1',
      parentUuid: 'c2',
      message: { role: 'user', content: 'thanks' },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'w2',
      parentUuid: 'w1',
      isMeta: true,
      message: { role: 'user', content: 'Caveat: local command output follows.' },
    });
    const prompts = p.result().entries.filter((e) => e.kind === 'prompt');
    expect(prompts).toMatchObject([
      {
        text: '/publish-session',
        command: '/publish-session',
        expansion: 'Publish the transcript by running:\n\n```bash\npython3 ~/tools/publish.py s1\n```',
      },
      { text: 'thanks' },
    ]);
    expect(prompts[1]).not.toHaveProperty('expansion');
  });
});

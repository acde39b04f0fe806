import { describe, expect, it } from 'vitest';
import { extractDecisions, isDecision } from './decisions.ts';
import { prompt, say, titles, tool } from './test-entries.test-support.ts';
import { readUserWords } from './user-words.ts';

const edit = (file: string, next: string) =>
  tool('Edit', { file_path: file, old_string: 'x', new_string: next });
const decide = (entries: Parameters<typeof extractDecisions>[0]) =>
  extractDecisions(entries, [], readUserWords(entries));

describe('the assistant’s decisions', () => {
  it('keeps a decision the turn acted on, with its reason and the alternative rejected, whole', () => {
    const found = decide([
      prompt('resume says I have uncommitted changes'),
      say(
        'The simplest fix is to use the git CLI for the uncommitted changes check instead of go-git, since the git CLI correctly respects all gitignore sources including the global excludes file.',
      ),
      edit('cmd/git_operations.go', 'cmd := exec.CommandContext(ctx, "git", "status", "--porcelain")'),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]?.draft.narrative).toBe(
      'The simplest fix is to use the git CLI for the uncommitted changes check instead of go-git, since the git CLI correctly respects all gitignore sources including the global excludes file.',
    );
    // The title is cut at a word, never inside one.
    const title = found[0]?.draft.title ?? '';
    expect(title.endsWith('…')).toBe(true);
    const kept = title.slice(0, -1);
    expect(found[0]?.draft.narrative.startsWith(kept)).toBe(true);
    expect(found[0]?.draft.narrative.charAt(kept.length)).toBe(' ');

    expect(found[0]?.draft.facts).toEqual([
      'reason: since the git CLI correctly respects all gitignore sources including the global excludes file',
      'instead of: go-git',
    ]);
  });

  it('keeps a choice the end-of-turn report lists, in the past tense, with what it was chosen over', () => {
    const found = decide([
      prompt('Port the utils to Rust'),
      edit('src/math_utils.rs', 'pub fn factorial(n: i64) -> Result<u64, NegativeInputError> {'),
      say('Ported.\n\n- Used `Result<T, E>` instead of raising exceptions for `factorial()`'),
    ]);
    expect(found.map((x) => [x.draft.title, x.draft.facts])).toEqual([
      [
        'Used `Result<T, E>` instead of raising exceptions for `factorial()`',
        ['instead of: raising exceptions for `factorial()`'],
      ],
    ]);
  });

  it('drops the narration of a step of the agent’s own: the host tool it names comes next, its plan is no work', () => {
    const planned = [
      prompt('Work on the renderer task'),
      say("I'll enter plan mode since this is a substantial change."),
      tool('EnterPlanMode', {}),
      tool('Write', {
        file_path: '/home/u/.claude/plans/a-plan.md',
        content: '# Plan: a substantial change to the renderer',
      }),
      edit('lib/renderer.ex', 'def render(messages, opts) do # a substantial change, planned'),
    ];
    expect(decide(planned)).toEqual([]);
    // The same words acted on in the project are a decision.
    expect(
      decide([
        prompt('Work on the renderer task'),
        say("I'll keep render/1 as a wrapper since callers in the live views still use it."),
        edit('lib/renderer.ex', 'def render(messages), do: render(messages, []) # callers in live views'),
      ]).map((x) => x.draft.title),
    ).toEqual(["I'll keep render/1 as a wrapper since callers in the live views still use it."]);
  });

  it('titles a decision without the label a report put before it', () => {
    const found = decide([
      prompt('Fix the Dialyzer warning and commit'),
      edit('lib/app_web/trace_helpers.ex', 'hex = :otel_span.hex_trace_id(span_ctx)'),
      say(
        'Done.\n\nKey fix in this session: Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1` instead of manually extracting trace_id from the span context record.',
      ),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual([
      'Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1` instead of manually extracting…',
    ]);
  });

  it('drops a decision nothing acted on, one the user corrected, and one the user had made themselves', () => {
    expect(
      decide([
        prompt('add caching'),
        say("I'll go with Redis because it is shared across instances."),
        say('Done thinking.'),
      ]),
    ).toEqual([]);
    expect(
      decide([
        prompt('add caching'),
        say("I'll use Redis instead of an in-process map because it is shared across instances."),
        edit('src/cache.ts', 'import Redis from "ioredis";'),
        prompt("No, don't use Redis; an in-process LRU map is enough here."),
      ]),
    ).toEqual([]);
    expect(
      decide([
        prompt('which container runtime?'),
        say('Docker or Apple container?'),
        prompt("let's use apple container instead of docker proper."),
        say('I will use Apple container instead of Docker because you asked for it.'),
        edit('run.sh', 'container build -t scenario-agent .'),
      ]),
    ).toEqual([]);
  });

  it('ignores questions, offers, hypotheticals and the narration of a step', () => {
    expect(
      [
        'Should we use Redis instead of Memcached?',
        'If you want, I could switch to Vite because it is faster.',
        'We might use a queue rather than polling.',
        'The build failed because of a missing import.',
        "I'll read the config file next.",
        'Now also replace `build_conn()` with `conn` since we imported it.',
        'Let me use the existing helper since it already handles retries.',
        'The request goes over the network.',
        // The lead-in to the next call: what this step will do, not a decision that outlives it.
        "Since it calls `Tmux.launch` which requires a real tmux, I'll test that it mints a token and attempts the launch:",
        // The circumstance first, then the step: how the work proceeds, not a choice about the project.
        "Since no custom commands are available, I'll decompose the TODO app creation into independent subtasks and execute them in parallel using the Task tool.",
      ].filter(isDecision),
    ).toEqual([]);
    expect(
      titles(
        decide([
          prompt('clean up registration'),
          say('I will remove the legacy registration since the new subscriber already covers it.'),
          edit('lib/registration.ex', '# legacy registration removed'),
        ]),
      ),
    ).toEqual(['I will remove the legacy registration since the new subscriber already covers it.']);
  });
});

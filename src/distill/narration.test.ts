import { describe, expect, it } from 'vitest';
import {
  isHedge,
  causeSentences,
  explanation,
  headline,
  impersonal,
  isStatusNote,
  outcomeSentence,
  proseSentences,
  statementSentences,
} from './narration.ts';

describe('the assistant report as a title', () => {
  it('leaves check marks and emoji out of a sentence', () => {
    expect(proseSentences('✅ Force reinstall now removes wrapper hooks\n## Yes, it works now! 🎉')).toEqual([
      'Force reinstall now removes wrapper hooks',
      'Yes, it works now!',
    ]);
  });

  it('reads a list item that is a predicate of its lead-in as said of that subject', () => {
    const report = [
      'Done. The test:',
      '1. Creates a global gitignore file **outside** the repo (so it does not show as untracked)',
      '2. Sets `core.excludesfile` to point to it',
      '3. Verifies `HasUncommittedChanges()` returns false',
    ].join('\n');
    expect(outcomeSentence([report])).toBe('The test verifies `HasUncommittedChanges()` returns false');
    // Items with their own subject, or under a lead-in that is no short subject, stay as they are.
    const changes = [
      'Changes made:',
      '- Tests now pass on Windows',
      '- The parser returns `null` for an empty line',
    ];
    expect(outcomeSentence([changes.join('\n')])).toBe('The parser returns `null` for an empty line');
    expect(
      outcomeSentence(['What I did to fix the flaky run:\n- Verifies `retry()` returns the last error']),
    ).toBe('Verifies `retry()` returns the last error');
    // A table's row is an inventory cell and a note an aside; the statement around them is the outcome.
    expect(
      outcomeSentence([
        [
          'The program now mints shares for each property.',
          '| Instruction | What it does |',
          '|---|---|',
          '| `initialize_property` | Creates the PDA, the share mint and the vault for a property. |',
          '**Note:** The old `App.jsx` components are still in the tree and now unused.',
          '> The vault now holds the rent until it is claimed.',
        ].join('\n'),
      ]),
    ).toBe('The program now mints shares for each property.');
  });

  it('takes no plan for an outcome: what the assistant was about to do is not what is now true', () => {
    const said = [
      'The `TranscriptRenderer` alias was removed since it came from the old alias group. I need to add it back since `load_transcript/1` still uses it directly.',
    ];
    expect(outcomeSentence(said, ['load_transcript'])).toBe(
      'The `TranscriptRenderer` alias was removed since it came from the old alias group.',
    );
    expect(
      outcomeSentence(
        ['I need to add it back since `load_transcript/1` still uses it directly.'],
        ['load_transcript'],
      ),
    ).toBe('');
    // A bare pronoun's sentence has its subject elsewhere.
    expect(outcomeSentence(['It IS tracked in git (added with `-f` previously).'], ['spotter.css'])).toBe('');
    // What git status shows is the repository's state, not the work.
    expect(
      outcomeSentence(
        ['The only remaining unstaged change is `.mcp.json` which is unrelated.'],
        ['session_live.ex'],
      ),
    ).toBe('');
  });

  it("keeps a bare pronoun's sentence in an explanation only right after the sentence it refers to", () => {
    expect(
      explanation([
        'The CSS is not built by esbuild. It is served from priv/static/assets as it is, because there is no pipeline.',
      ]),
    ).toBe(
      'The CSS is not built by esbuild. It is served from priv/static/assets as it is, because there is no pipeline.',
    );
    expect(
      explanation([
        'Let me check the other live view. It is only in pane_view_live.ex, which has its own copy of the helper.',
      ]),
    ).toBe('');
  });

  it('closes a heading or a list item with a stop in an explanation, so the next sentence does not run on', () => {
    expect(
      explanation([
        '## Fixed: `.env.example` consistency\n\n- Both options are now commented out by default\n- The instructions now match the file.\n\nSee https://example.com/docs',
      ]),
    ).toBe(
      'Fixed: `.env.example` consistency. Both options are now commented out by default. The instructions now match the file.',
    );
  });

  it('tells what might be from what is required', () => {
    expect(isHedge("If GPT-5 uses a different endpoint, we'd need to update the integration.")).toBe(true);
    expect(isHedge('This is probably a caching issue.')).toBe(true);
    expect(isHedge('The abort listener should not await cleanup.')).toBe(false);
    // A word inside code is no hedge of the sentence.
    expect(isHedge('`mayBeNull()` now returns an empty list.')).toBe(false);
  });

  it('ends a sentence at a stop inside emphasis', () => {
    expect(
      proseSentences('**Still failing.** The issue is that git still warns about ignored files.'),
    ).toEqual(['Still failing.', 'The issue is that git still warns about ignored files.']);
  });

  it('prefers the sentence stating what is now true to the one cheering it', () => {
    const report =
      'Yes, the `.env` file works now with the wrapper! The wrapper script now sources `.env` before it runs the hook command.';
    expect(outcomeSentence([report], ['entire-wrapper.sh'])).toBe(
      'The wrapper script now sources `.env` before it runs the hook command.',
    );
  });

  it('reads sentences closed by a full-width stop, as Japanese writes them', () => {
    const report = [
      'CLAUDE.mdファイルを最新の状態にアップデートしました。主な更新内容：',
      '',
      '**開発コマンドの更新:**',
      '- `npm run type-check`を削除（実際には存在しない）',
      '- `npm run start`を追加',
    ].join('\n');
    expect(outcomeSentence([report], ['CLAUDE.md'])).toBe(
      'CLAUDE.mdファイルを最新の状態にアップデートしました。',
    );
  });

  it('takes statements and headlines in scripts written without spaces', () => {
    expect(
      statementSentences(
        '集計できました。\n\n旧 Vault と新 Vault の deposit 命令を数えると合計 178 回です。',
      ),
    ).toEqual(['旧 Vault と新 Vault の deposit 命令を数えると合計 178 回です。']);
    const tables = [
      '## 結論: live demo の実行数 ≈ **178 回**',
      '',
      '| Vault | deposit |',
      '|---|---:|',
      '| 旧 | 129 |',
    ];
    expect(statementSentences(tables.join('\n'))).toEqual([]);
    expect(headline(tables.join('\n'))).toBe('結論: live demo の実行数 ≈ 178 回');
    expect(headline('## Summary\n\n**Root cause: the cache key ignores the locale**\n- fixed')).toBe(
      'Root cause: the cache key ignores the locale',
    );
    expect(headline('## What should we do next?\n| a | b |')).toBe('');
  });

  it('does not take a heading or a list item for a statement', () => {
    expect(outcomeSentence(['## Key capabilities\n- Pattern recognition across multiple runs\n'])).toBe('');
    // An item naming a part of the work, code and all, states nothing; one that says what it does does.
    const report =
      '## Features\n- Custom `useTodos` hook with `useReducer`\n- Filter buttons for all/active/done';
    expect(outcomeSentence([report], ['useTodos'])).toBe('');
    expect(
      outcomeSentence([`${report}\n- \`useTodos\` now stores the list in localStorage`], ['useTodos']),
    ).toBe('`useTodos` now stores the list in localStorage');
  });

  it('takes only whole statements of a reply: no heading, list item, verse line or hedge', () => {
    const reply = [
      'Try again:',
      '',
      '```bash',
      './run.sh',
      '```',
      '',
      'This should fix it by:',
      '1. Updating npm to latest version first (fixes the bug)',
      '2. Using `--legacy-peer-deps` flag as extra safety',
      '',
      'If this still fails, we can build locally and copy the `dist/` folder into the container.',
    ].join('\n');
    expect(statementSentences(reply)).toEqual([]);
    const poem = [
      '## Thai Red Curry',
      '',
      'Crimson river in a bowl of clay,',
      'where dried chilies have their fiery say,',
      'a simmering cauldron, bold and deep,',
      'promises no tongue will gently sleep.',
      '',
      'Galangal whispers its pungent song,',
      'lemongrass hums where it belongs,',
      'East meets West, and two become one.',
      'Thai red curry earns its name.',
    ].join('\n');
    expect(statementSentences(poem)).toEqual([]);
    expect(
      statementSentences('Done! Your session has been published:\n\nhttps://gist.example.com/ddfbe6ef'),
    ).toEqual(['Your session has been published: https://gist.example.com/ddfbe6ef']);
    expect(
      statementSentences(
        'The wrapper now sources `.env` itself. The session was published: https://gist.example.com/abc1',
      ),
    ).toEqual([
      'The wrapper now sources `.env` itself.',
      'The session was published: https://gist.example.com/abc1',
    ]);
  });
});

describe('the assistant’s explanation of a change and of a failure', () => {
  it('leaves out what the assistant says of its own understanding, of the task’s size, and what it was about to do', () => {
    expect(
      explanation([
        'I have a clear picture. This is a substantial task. I have full context now. `cartTotal` now sums integer cents because floats drifted.',
        // Plans said before the work: not an explanation of it once done.
        'Continuing with the cart — I need to add tests for the rounding, since none exist. I need to also import `Decimal` in the cart module.',
        // A plan behind a clause that gives its circumstance is still a plan.
        "Since no custom commands are available, I'll split the work into subtasks and run them in parallel.",
      ]),
    ).toBe('`cartTotal` now sums integer cents because floats drifted.');
  });

  it('leaves out where the work stood half-way: the assistant’s next move or unfinished step inside a sentence', () => {
    expect(
      explanation([
        'The alias is used, but I need to update the commit_event action first.',
        "The import isn't used yet because I haven't updated the template.",
        '`Tmux.pane_exists?/1` already has its own rescue, so I can just use a try/rescue wrapper.',
        'The `rescue` is what makes the compiler think the alias is unused.',
      ]),
    ).toBe('The `rescue` is what makes the compiler think the alias is unused.');
  });

  it('takes of a list item only its first sentence, the one that names what the item is about', () => {
    const reply = [
      '**Model sizes:**',
      '',
      '- **base.en** (142 MB) — What you have. Fast (~1s). Good enough for everyday speech.',
      '- **small.en** (466 MB) — ~2-3 seconds. Meaningfully better — handles long dictation well, fewer missed words.',
      '- **large** (3 GB) — Best possible, multilingual. Only worth it if you are dictating technical content.',
      '',
      'The config now uses small.en because long dictation degrades on base.en.',
    ].join('\n');
    const said = explanation([reply]);
    expect(said).toContain('The config now uses small.en because long dictation degrades on base.en.');
    expect(said).not.toMatch(/Meaningfully better|Only worth it|Good enough/);
  });

  it('takes no item of a list that says what comes next or what could be as a statement of what is', () => {
    const reply = [
      'Project structure is set up. Created:',
      '',
      '- **Type definitions** for scenarios, results and bug reports',
      '- **Tool wrappers** that now expose click and type to the agent',
      '',
      'Next steps would be:',
      '1. Implement the LangGraph agent that uses these tools',
      '2. Wire up the oracle, which needs the screenshots',
      '',
      'You could also:',
      '- Move the scenarios into their own package since they are shared',
      '',
      'The foundation is in place for container-first scenario testing.',
    ].join('\n');
    const said = explanation([reply]);
    expect(said).toContain('Tool wrappers that now expose click and type to the agent.');
    expect(said).toContain('The foundation is in place for container-first scenario testing.');
    expect(said).not.toMatch(/Implement the LangGraph|Wire up the oracle|Move the scenarios/);
  });

  it('takes as the cause the first sentence about this failure that explains it, not one reporting it again', () => {
    const texts = [
      'Push failed because the TypeScript check failed - there are type errors in `Chart.tsx`. The README still needs an install section, since nobody wrote one. The problem is duplicate interfaces in `Chart.tsx`.',
    ];
    expect(causeSentences(texts, (s) => s.includes('Chart.tsx')).cause).toBe(
      'The problem is duplicate interfaces in `Chart.tsx`.',
    );
  });

  it('never takes a verdict on whose failure it is for its cause', () => {
    const about = (s: string) => /design|credo|alias|waiting_summary/i.test(s);
    for (const said of [
      'Only pre-existing design suggestions, no errors or warnings from our code.',
      'These credo failures are unrelated to my changes since waiting_summary.ex is not in the diff.',
      'The alias check fails in files I didn’t touch, so it is not caused by our changes.',
      'This looks like a flaky test that sometimes needs the alias loaded first.',
      'The only one from our code is `subagent_live.ex:25:guard_fail`, which needs no alias.',
    ])
      expect(causeSentences([said], about).cause).toBe('');
    // What makes the check fail is a cause, said beside such a verdict or not.
    expect(
      causeSentences(
        [
          'Only pre-existing design suggestions, no errors or warnings from our code. The check fails because `waiting_summary.ex` calls `LangChain.Chains.LLMChain` without an alias.',
        ],
        about,
      ).cause,
    ).toBe(
      'The check fails because `waiting_summary.ex` calls `LangChain.Chains.LLMChain` without an alias.',
    );
  });

  it('never takes a plan for the next step as the cause; a plan alone is the fix, and the cause is one said outright', () => {
    const about = (s: string) => s.includes('ChartData');
    // What the assistant was about to do says what comes next, not why it failed.
    expect(
      causeSentences(
        ['Now I need to update the first ChartData interface to include the `fill` property:'],
        about,
      ),
    ).toEqual({
      cause: '',
      fix: 'Now I need to update the first ChartData interface to include the `fill` property:',
    });
    // A sentence saying what the problem is speaks of the failure before it, shared words or not.
    expect(
      causeSentences(
        [
          'The problem is duplicate interfaces. Let me check what got duplicated:',
          'I see the problem - there are duplicate interface definitions from the rebase. Let me remove the duplicates:',
          'Now I need to update the first ChartData interface to include the `fill` property:',
        ],
        about,
      ),
    ).toEqual({ cause: 'The problem is duplicate interfaces.', fix: '' });
    // A cause, then what will be done about it: two parts, the plan the fix.
    expect(
      causeSentences(
        [
          "Biome doesn't like assignment in expressions. Now I need to update the loop to keep finding the separator:",
        ],
        (s) => /biome|loop/i.test(s),
      ),
    ).toEqual({
      cause: "Biome doesn't like assignment in expressions.",
      fix: 'Now I need to update the loop to keep finding the separator:',
    });
    // A plan led by its reason still says why.
    expect(
      causeSentences(["Since the package is ESM only, I'll switch the require to an import."], () => true)
        .cause,
    ).toBe("Since the package is ESM only, I'll switch the require to an import.");
  });
});

describe('where things stand, said on the way', () => {
  it('is no explanation: a status note of work, a ticket or a thing looked for, never a statement of what the code needs', () => {
    for (const note of [
      'spotter-4te.3 is committed.',
      'Task 6 is blocked by 4 and 5.',
      'All 4 original children are closed.',
      'The task is done and pushed.',
      'Everything is clean and pushed.',
      'So `stdout` is available.',
      'Both the alias and usage are present.',
      'spotter-fum.2 is now unblocked.',
    ])
      expect(isStatusNote(note), note).toBe(true);
    for (const statement of [
      'The `--strict` flag is required.',
      'structuredClone is available in Node 17 and later.',
      'The lock is released once the writer is done with the batch.',
    ])
      expect(isStatusNote(statement), statement).toBe(false);
    expect(
      explanation(
        [
          'All 4 original children are closed. spotter-fum.5 is a refinement discovered during testing. I have uncommitted changes from spotter-4te.3 (controller instrumentation). Also need to update `recompute_and_push_sync` since it references `rendered_lines`. Looks like only the second edit applied. The record has `hex_trace_id` as a binary already.',
        ],
        600,
        (s) => !isHedge(s),
      ),
    ).toBe('The record has `hex_trace_id` as a binary already.');
  });

  it("takes no sentence about the tracker's breakdown of the work for an explanation, unless it names code", () => {
    expect(
      explanation([
        'The epic has 3 tasks — tasks 1 and 2 are independent, task 3 depends on both. There are 4 new tasks under the epic. The auto-generated migration uses ALTER TABLE, which SQLite does not support for nullability changes. The `mix quality` task runs Credo and Dialyzer.',
      ]),
    ).toBe(
      'The auto-generated migration uses ALTER TABLE, which SQLite does not support for nullability changes. The `mix quality` task runs Credo and Dialyzer.',
    );
  });

  it('takes no label in Title Case and no reaction whose subject is only what was looked at for an explanation', () => {
    expect(
      explanation([
        'Looking at the feedback, these are all good points. Critical Issue #1: Fix Missing Authentication. The current implementation keeps `parsed` as the raw string, since the client parses it once.',
      ]),
    ).toBe('The current implementation keeps `parsed` as the raw string, since the client parses it once.');
  });

  it('takes a plan led by what it is for as a plan', () => {
    expect(
      explanation([
        'For the list_utils module, I need to handle the flatten one level deep semantics. The region count differs from the line count because a region is a branch.',
      ]),
    ).toBe('The region count differs from the line count because a region is a branch.');
  });

  it('reads a sentence that opens with an identifier in lower case as a sentence of its own', () => {
    expect(
      proseSentences('All 4 children are closed. spotter-fum.5 is a refinement. e.g. the next one.'),
    ).toEqual(['All 4 children are closed.', 'spotter-fum.5 is a refinement. e.g. the next one.']);
  });
});

describe('a title said of the work', () => {
  it("drops the report's own subject before what was done, and leaves every other sentence as it is", () => {
    expect(impersonal('I changed `HasUncommittedChanges()` to use `git status --porcelain`.')).toBe(
      'Changed `HasUncommittedChanges()` to use `git status --porcelain`.',
    );
    expect(impersonal("We've added a retry to the upload.")).toBe('Added a retry to the upload.');
    expect(impersonal('I made the parser skip blank lines.')).toBe('Made the parser skip blank lines.');
    expect(impersonal('I think the cache is stale.')).toBe('I think the cache is stale.');
    expect(impersonal('Idempotent writes needed a key.')).toBe('Idempotent writes needed a key.');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { draftOf, TEST_CHANGE } from '../store/store.test-support.ts';
import { renderPromptContext } from './render-context.ts';

const projectId = projectIdFromKey('path:/cli');

describe('prompt-time recall finds what a prompt asks about in other words', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-prompt-recall-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let at = 1_000;
  const add = (title: string, extra: Partial<ObservationDraft> = {}) =>
    store.memory.create(
      {
        projectId,
        sessionId: 'earlier',
        source: 'hook',
        createdAt: (at += 1_000),
        provenance: [],
        draft: draftOf(title, { type: 'gotcha', ...extra }),
        pinned: false,
      },
      TEST_CHANGE,
    ).id;
  const ask = (prompt: string) =>
    renderPromptContext(store, {
      projectId,
      sessionId: 'now',
      prompt,
      now: at + 60_000,
      budgetTokens: 400,
      maxItems: 3,
      minScore: 0.35,
    }).observationIds;

  beforeEach(() => {
    // A store with the ordinary words of a project in many memories.
    for (let i = 0; i < 30; i++)
      add(`Fix the test for module ${i}: the test file failed after the change`, {
        type: 'bugfix',
        facts: [`changed src/module${i}.go`, 'tests pass'],
      });
  });

  it('finds a memory by the parts of an identifier and a word family the prompt uses', () => {
    const gotcha = add(
      '`HasUncommittedChanges` reported a clean repo as dirty: go-git ignores the global gitignore',
      {
        narrative:
          'go-git Worktree.Status() reads no global excludes file; the check now runs git status --porcelain.',
        facts: ['fix: run `git status --porcelain` through exec.CommandContext'],
        filesModified: ['cmd/entire/cli/git_operations.go'],
      },
    );
    expect(
      ask('why does resume say there are uncommitted changes when the tree is clean? is it gitignore?'),
    ).toContain(gotcha);
  });

  it('injects nothing for a prompt about something else that shares one word with a memory', () => {
    add('`HasUncommittedChanges` reported a clean repo as dirty: go-git ignores the global gitignore');
    expect(ask('update the dashboard chart colours for the clean theme and the legend spacing')).toEqual([]);
  });

  it('injects nothing for a long prompt that shares a single word with a memory, however rare the store finds it', () => {
    const decision = add('The execution agent and the oracle are the same agent', {
      type: 'decision',
      narrative:
        '“i think the execution agent and the oracle need to be the same agent? but tell me if i’m wrong”',
    });
    expect(ask('before I tell Jesse everything is committed, what should I check?')).toEqual([]);
    expect(ask('should the oracle be a separate agent?')).toContain(decision);
  });

  it('finds a memory by an identifier the prompt names, whatever else the prompt says', () => {
    const gotcha = add('`parseConfigFile` drops the env overrides', {
      narrative: 'The overrides are read after the file, and lost.',
    });
    expect(ask('what does parseConfigFile do to the loader module settings?')).toContain(gotcha);
  });

  it('reads no word of a commit fact’s branch note: every commit of the branch has one', () => {
    add('Update npm in the container image', {
      type: 'change',
      facts: ['committed bb3e424: Update npm in the container image (on main)'],
    });
    expect(ask('how do I get back to main from the streaming worktree?')).toEqual([]);
  });

  it('weighs a part of an identifier at half when no neighbour of it is in the prompt', () => {
    add('Use the TypeScript compiler API for the config types', { type: 'change' });
    expect(ask('when the user types a slash command, does the hook run its script?')).toEqual([]);
    // beside its neighbour it counts in full
    const api = add('`loadCompilerOptions` reads tsconfig through the compiler API', { type: 'change' });
    expect(ask('where are the compiler options loaded?')).toContain(api);
  });

  it('prefers the memory that holds the rare words over those that hold only the common ones', () => {
    const gotcha = add('Biome `noAssignInExpressions` rejects `while ((i = buf.indexOf(x)) !== -1)`', {
      facts: ['fix: restructure the loop in app/lib/streaming/handlers/ai-chat.ts'],
    });
    expect(ask('why does biome reject the while loop in the test file after my change?')).toEqual([gotcha]);
  });

  it('orders the memories worth injecting by BM25 beside the share: the one about the words comes first', () => {
    const passing = add('Note on the release checklist', {
      type: 'fact',
      narrative: `${'The release checklist covers changelog, tags, signing and announcements. '.repeat(6)}Also: pnpm lockfile drift breaks the docker build.`,
    });
    const about = add('pnpm lockfile drift breaks the docker build', {
      facts: ['pnpm lockfile drift: pin pnpm in the docker image'],
    });
    const shown = ask('pnpm lockfile drift breaks the docker build when signing?');
    expect(shown).toContain(passing);
    expect(shown[0]).toBe(about);
  });

  it('never injects a memory the evidence has refuted or replaced, however well it matches', () => {
    const refuted = add('Vite HMR websocket drops because of the corporate proxy');
    store.memory.invalidate(
      refuted,
      'refuted: a later run without the proxy failed the same way',
      TEST_CHANGE,
    );
    const old = add('Vite HMR websocket drops: set server.hmr.clientPort');
    const replacement = add('Vite HMR websocket drops: server.hmr.host must match the container name');
    store.memory.supersede(old, replacement, TEST_CHANGE);
    const shown = ask('the vite HMR websocket keeps dropping, why?');
    expect(shown).toContain(replacement);
    expect(shown).not.toContain(refuted);
    expect(shown).not.toContain(old);
  });
});

/**
 * Outcomes by purpose, end to end through the worker (live hooks, transcript, drain, real SQLite): a
 * failure left open in one session is closed in the next by a differently spelled run of the same
 * purpose, with its fix; and what is not a failure — a probe, a failure the assistant predicted, a
 * rejected call, "nothing to commit", a commit in a scratch repository — is never stored as one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProject } from '../capture/project-identity.ts';
import type { ProjectId } from '../core/ids.ts';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { replayLive } from '../../test/support/replay.ts';
import { drainStore, useFlowStore } from './flow.test-support.ts';

const CWD = '/home/dev/svc';
const project = resolveProject(CWD).id as ProjectId;
const DB_TEST = `package db

import (
\t"os/exec"
\t"testing"
)

func TestOpen(t *testing.T) {
\tcmd := exec.Command("git", "init")
\tif err := cmd.Run(); err != nil {
\t\tt.Fatal(err)
\t}
}
`;
const LINT_OUTPUT =
  'internal/db/db_test.go:9:16: os/exec.Command must not be called. use os/exec.CommandContext (noctx)\n\tcmd := exec.Command("git", "init")\n\t              ^\n1 issues:\n* noctx: 1';

function firstDay() {
  const s = createClaudeSession({
    sessionId: 'b2000000-0000-4000-8000-000000000001',
    cwd: CWD,
    start: '2026-04-01T09:00:00Z',
  }).start();
  s.prompt('CI says the lint fails, can you look?')
    // A probe: grep finding nothing exits 1; that is its answer.
    .bash('grep -rn "exec.CommandContext" internal', { exit: 1 })
    .read('internal/db/db_test.go', DB_TEST)
    // A failure the assistant predicted is not a failure.
    .say('Before touching anything, this should fail on the current code: the new test expects a context.')
    .bash('go test ./internal/db -run TestOpenWithContext', {
      exit: 1,
      stdout:
        '--- FAIL: TestOpenWithContext (0.00s)\n    db_test.go:20: no context\nFAIL\nFAIL\tgithub.com/acme/svc/internal/db\t0.01s',
    })
    // The lint run itself: its exit hidden by the pipe, its diagnostics say it failed.
    .bash('golangci-lint run ./... 2>&1 | tail -20', { stdout: LINT_OUTPUT })
    // Nothing to commit is not a failure; a scratch repository's commit is not the project's.
    .bash('git add -A && git commit -m "wip"', {
      exit: 1,
      stdout: 'On branch main\nnothing to commit, working tree clean',
    })
    .bash('cd /tmp/lintprobe && git init -q && git commit -qm probe --allow-empty', {
      stdout: '[main (root-commit) 1a2b3c4] probe',
    })
    // A call the user rejected never ran.
    .bash('rm -rf vendor', {
      exit: 1,
      stderr:
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
    })
    .say(
      "The linter's `noctx` rule rejects `exec.Command` in internal/db/db_test.go: it wants `exec.CommandContext`.\n\nNext: switch the test helper to exec.CommandContext.",
    )
    .stop()
    .end();
  return s;
}

function nextDay() {
  const s = createClaudeSession({
    sessionId: 'b2000000-0000-4000-8000-000000000002',
    cwd: CWD,
    start: '2026-04-02T09:00:00Z',
  }).start();
  s.prompt('fix the lint')
    .edit(
      'internal/db/db_test.go',
      '\tcmd := exec.Command("git", "init")',
      '\tcmd := exec.CommandContext(context.Background(), "git", "init")',
      DB_TEST,
    )
    // The same purpose, spelled differently: the task runner's lint task.
    .bash('mise run lint', { stdout: '[lint] $ golangci-lint run ./...\n0 issues.' })
    .say('The test helper now uses `exec.CommandContext`; the lint is clean.')
    .stop()
    .end();
  return s;
}

describe('outcomes by purpose, across sessions', () => {
  const flow = useFlowStore('purpose');
  const drain = (now: number) => drainStore(flow.store, now);
  const memories = () => flow.store.observations.recent(project, 200);
  const ofType = (type: string) => memories().filter((o) => o.type === type);

  it('keeps only the real failure open, then closes it by purpose when another spelling passes, with its fix', async () => {
    await replayLive(flow.store, firstDay(), join(flow.dir, 'projects'), drain);
    const open = ofType('failed_attempt');
    expect(open.map((o) => [o.title, o.subject])).toEqual([
      [
        '`golangci-lint run ./...` fails: noctx: os/exec.Command must not be called. use os/exec.CommandContext',
        'fail:lint',
      ],
    ]);
    // No commit memory for "nothing to commit" nor for the scratch repository's commit.
    expect(
      memories()
        .flatMap((o) => o.facts)
        .filter((f) => f.startsWith('committed')),
    ).toEqual([]);
    expect(
      memories()
        .map((o) => o.title)
        .join('\n'),
    ).not.toMatch(/probe|wip|rm -rf|TestOpenWithContext|grep/);
    expect(flow.store.summaries.get('b2000000-0000-4000-8000-000000000001')?.nextSteps).toBe(
      'switch the test helper to exec.CommandContext; fix `golangci-lint run ./...`: noctx: os/exec.Command must not be called. use os/exec.CommandContext',
    );

    await replayLive(flow.store, nextDay(), join(flow.dir, 'projects'), drain);
    expect(ofType('failed_attempt')).toEqual([]);
    const gotcha = flow.store.observations.get(open[0]?.id ?? '');
    expect(gotcha).toMatchObject({
      type: 'gotcha',
      status: 'active',
      title:
        '`mise run lint` fails: noctx: os/exec.Command must not be called. use os/exec.CommandContext → in db_test.go `TestOpen`: `cmd := exec.CommandContext(context.Ba…',
      subject: 'gotcha:rule:noctx must not be called use',
    });
    expect(gotcha?.facts).toEqual(
      expect.arrayContaining([
        'rule: noctx',
        'changed: internal/db/db_test.go',
        'then passed: `mise run lint`',
      ]),
    );
    expect(
      flow.store.changes
        .since(0, 1000)
        .filter((c) => c.entityId === gotcha?.id)
        .map((c) => c.op),
    ).toEqual(['create', 'edit']);
    expect(flow.store.summaries.get('b2000000-0000-4000-8000-000000000002')?.nextSteps).toBe('');
    expect(ofType('fact').map((o) => o.title)).toEqual(['Commands: lint `mise run lint`']);
    expect(ofType('fact')[0]?.narrative).toBe(
      'In this project: `mise run lint` lints the code (it runs `golangci-lint run ./...`).',
    );
  });

  it('work done after a failure is an attempt, not the fix, when the same run fails again in a later turn', async () => {
    const containerfile = 'FROM node:20\nCOPY . .\nRUN npm ci\n';
    const s = createClaudeSession({
      sessionId: 'b2000000-0000-4000-8000-000000000003',
      cwd: CWD,
      start: '2026-04-03T09:00:00Z',
    }).start();
    s.prompt(
      '❯ ./run.sh\nBuilding container image...\nERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1',
    )
      .write('docs/setup.md', '# Setup\n\nRun the agent locally first.\n')
      .bash('git add docs/setup.md && git commit -m "Document the local setup"', {
        stdout: '[main 1a1a1a1] Document the local setup\n 1 file changed',
      })
      .edit('docker/Containerfile', 'RUN npm ci', 'RUN npm install', containerfile)
      .say(
        '`npm ci` fails in the container build; switched the Containerfile to `npm install`, which is more reliable.',
      )
      .bash('git add docker/Containerfile && git commit -m "Fix npm ci failure in container"', {
        stdout: '[main 0bc41d9] Fix npm ci failure in container\n 1 file changed',
      })
      .stop()
      .prompt(
        '❯ ./run.sh\nBuilding container image...\nERROR: failed to solve: process "/bin/sh -c npm install --omit=dev" did not complete successfully: exit code: 1',
      )
      .edit(
        'docker/Containerfile',
        'RUN npm install',
        'RUN npm install -g npm@latest && npm install',
        containerfile.replace('npm ci', 'npm install'),
      )
      .say('npm itself crashes in the container build; updating npm first in the Containerfile.')
      .bash('git add docker/Containerfile && git commit -m "Update npm in the container"', {
        stdout: '[main bb3e424] Update npm in the container\n 1 file changed',
      })
      .stop()
      .end();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    const byCommit = (hash: string) =>
      memories().find((o) => o.facts.some((f) => f.includes(`committed ${hash}`)));
    const first = byCommit('0bc41d9');
    expect(first?.title).toBe('Tried: Fix npm ci failure in container — `./run.sh` still failed');
    expect(first?.facts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^after `\.\/run\.sh` failed: .*npm ci/),
        expect.stringMatching(/^`\.\/run\.sh` still failed after it: .*npm install --omit=dev/),
      ]),
    );
    // The later failure answered what it had left untested.
    expect(first?.facts.some((f) => f.startsWith('untested:'))).toBe(false);
    // The last attempt was never run again: it is what was done, not a failure, and not a fix either.
    const last = byCommit('bb3e424');
    expect(last?.title).toBe('Update npm in the container');
    expect(last?.facts.some((f) => f.startsWith('after `./run.sh` failed'))).toBe(true);
    expect(last?.facts.some((f) => f.includes('still failed'))).toBe(false);
    expect(last?.facts).toContain('untested: `./run.sh` not run after it in that turn');
    // Unrelated work of the same turn answered nothing.
    const docs = byCommit('1a1a1a1');
    expect(docs?.title).toBe('Document the local setup');
    expect(docs?.facts.some((f) => f.startsWith('after'))).toBe(false);
  });

  it('a failure answered by an edit and not run again is unconfirmed, not still failing; a later pass confirms the fix', async () => {
    const price = 'export const price = (x: number) => x;\n';
    const failing =
      ' FAIL  src/price.test.ts > rounds to cents\nAssertionError: expected 10.004 to be 10\n\n Test Files  1 failed (1)\n      Tests  1 failed | 4 passed (5)\n';
    const s = createClaudeSession({
      sessionId: 'b2000000-0000-4000-8000-000000000004',
      cwd: CWD,
      start: '2026-04-04T09:00:00Z',
    }).start();
    s.prompt('Fix the failing price test')
      .bash('npx vitest run', { stdout: failing, exit: 1 })
      .edit(
        'src/price.ts',
        'export const price = (x: number) => x;',
        'export const price = (x: number) => Math.round(x * 100) / 100;',
        price,
      )
      .say('Fixed: `price` now rounds to cents, so the expectation holds.')
      .stop();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    const sessionId = 'b2000000-0000-4000-8000-000000000004';
    const work = memories().find((o) => o.filesModified.includes('src/price.ts'));
    // The assistant's "Fixed" is not borne out by a run, and the request is not restated as done.
    expect(work).toMatchObject({
      type: 'change',
      title: 'Tried: fix the failing price test — `npx vitest run` not re-run',
    });
    const open = ofType('failed_attempt').find((o) => o.sessionId === sessionId);
    expect(open?.title).toBe(
      '`npx vitest run` failed, not re-run after the change: AssertionError: expected 10.004 to be 10',
    );
    expect(open?.narrative).toMatch(
      /^Failed at its last run in the turn, and not run again after src\/price\.ts changed/,
    );
    expect(open?.narrative).not.toMatch(/still failing/i);
    expect(open?.facts).toContain('changed after it, not re-run: src/price.ts');
    const summary = flow.store.summaries.get(sessionId);
    expect(summary?.nextSteps).toBe(
      're-run `npx vitest run` (failed before src/price.ts changed): AssertionError: expected 10.004 to be 10',
    );
    expect(summary?.completed).toMatch(/checks: tests failed before the last change/);

    // The next turn runs the suite and it passes: the change was the fix.
    s.prompt('did that work?')
      .bash('npx vitest run', { stdout: ' Test Files  1 passed (1)\n      Tests  5 passed (5)\n' })
      .say('Yes: all 5 tests pass.')
      .stop()
      .end();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    expect(flow.store.observations.get(work?.id ?? '')).toMatchObject({
      type: 'bugfix',
      title: 'Fixed the failing price test',
    });
    expect(flow.store.observations.get(work?.id ?? '')?.facts).toContain(
      'confirmed later: `npx vitest run` passed',
    );
    expect(flow.store.observations.get(open?.id ?? '')?.status).not.toBe('active');
    expect(flow.store.summaries.get(sessionId)?.nextSteps).toBe('');
    expect(flow.store.summaries.get(sessionId)?.completed).toMatch(/checks: tests passed/);
  });

  it('a failure left open is no longer said to fail once a later turn changes the code without running it', async () => {
    const sessionId = 'b2000000-0000-4000-8000-000000000005';
    const failing = (n: number) =>
      ` FAIL  src/cart.test.ts > totals\nAssertionError: expected ${n} to be 4\n\n Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n`;
    const cart = 'export const total = (xs: number[]) => xs.slice(0, -1).length;\n';
    const s = createClaudeSession({ sessionId, cwd: CWD, start: '2026-04-05T09:00:00Z' }).start();
    s.prompt('Why does the cart test fail?')
      .bash('npx vitest run', { stdout: failing(3), exit: 1 })
      .say('The total drops the last line.')
      .stop();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    const failure = () => ofType('failed_attempt').find((o) => o.sessionId === sessionId);
    expect(failure()?.title).toBe('`npx vitest run` fails: AssertionError: expected 3 to be 4');
    const id = failure()?.id ?? '';

    // The next turn changes the code and runs it: it still fails, and says so.
    s.prompt('Count every line')
      .edit('src/cart.ts', 'xs.slice(0, -1).length', 'xs.length - 2', cart)
      .bash('npx vitest run', { stdout: failing(2), exit: 1 })
      .say('Still off by two.')
      .stop();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    expect(flow.store.observations.get(id)?.title).toBe(
      '`npx vitest run` fails: AssertionError: expected 2 to be 4',
    );
    expect(flow.store.observations.get(id)?.facts.some((f) => f.startsWith('changed after it'))).toBe(false);

    // Then a turn changes it again and stops: the failure is no longer known to hold.
    s.prompt('Use the full length')
      .edit(
        'src/cart.ts',
        'xs.length - 2',
        'xs.length',
        cart.replace('xs.slice(0, -1).length', 'xs.length - 2'),
      )
      .say('It now counts every line.')
      .stop()
      .end();
    await replayLive(flow.store, s, join(flow.dir, 'projects'), drain);
    expect(flow.store.observations.get(id)).toMatchObject({
      status: 'active',
      title: '`npx vitest run` failed, not re-run after the change: AssertionError: expected 2 to be 4',
    });
    expect(flow.store.observations.get(id)?.facts).toContain('changed after it, not re-run: src/cart.ts');
    expect(flow.store.summaries.get(sessionId)?.nextSteps).toMatch(/^re-run `npx vitest run`/);
  });
});

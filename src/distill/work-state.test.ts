import { describe, expect, it } from 'vitest';
import { confirmedAttempt, refutedAttempt, sameWork, unconfirmedFailure } from './work-state.ts';

const tried = {
  type: 'change' as const,
  title: 'Tried: fix the failing price test — `npx vitest run` not re-run',
  facts: [
    'src/price.ts: edited (+1 −1 lines)',
    'after `npx vitest run` failed: AssertionError: expected 10.004 to be 10',
  ],
};

describe('work the turn could not confirm', () => {
  it('is the fix once a later run of its command passes, and only of that command', () => {
    expect(confirmedAttempt(tried, 'npx vitest run', 'npm test')).toEqual({
      type: 'bugfix',
      title: 'Fixed the failing price test',
      facts: [...tried.facts, 'confirmed later: `npm test` passed'],
    });
    expect(confirmedAttempt(tried, 'npm run build', 'npm run build')).toBeNull();
    // Work that was never told as unconfirmed is left as it is.
    expect(
      confirmedAttempt({ ...tried, title: 'Round prices to cents' }, 'npx vitest run', 'npm test'),
    ).toBeNull();
  });

  it('is an attempt that still failed once a later run of its command fails again', () => {
    const failure = {
      type: 'failed_attempt' as const,
      title: '`npx vitest run` fails: AssertionError: expected 10.004 to be 10',
      facts: ['error: AssertionError: expected 10.004 to be 10 (src/price.test.ts > rounds to cents)'],
    };
    // Told as tried by its title alone (the turn's words named no failure it answered).
    expect(refutedAttempt({ ...tried, facts: ['src/price.ts: edited (+1 −1 lines)'] }, failure)?.title).toBe(
      'Tried: fix the failing price test — `npx vitest run` still failed',
    );
    expect(refutedAttempt(tried, failure)).toEqual({
      title: 'Tried: fix the failing price test — `npx vitest run` still failed',
      facts: [
        ...tried.facts,
        '`npx vitest run` still failed after it: AssertionError: expected 10.004 to be 10 (src/price.test.ts > rounds to cents)',
      ],
    });
  });

  it('leaves a failure open but no longer said to fail when later work changed code and nothing ran it', () => {
    const failure = {
      type: 'failed_attempt' as const,
      title: '`npx vitest run` fails: AssertionError: expected 3 to be 4',
      narrative:
        'Still failing at the end of the turn: `npx vitest run` (AssertionError: expected 3 to be 4).',
      facts: ['error: AssertionError: expected 3 to be 4', 'command: `npx vitest run`'],
    };
    expect(unconfirmedFailure(failure, { filesModified: ['src/cart.ts', 'README.md'] })).toEqual({
      title: '`npx vitest run` failed, not re-run after the change: AssertionError: expected 3 to be 4',
      narrative:
        'Failed at its last run, and not run again after later work changed src/cart.ts: `npx vitest run` (AssertionError: expected 3 to be 4).',
      facts: [...failure.facts, 'changed after it, not re-run: src/cart.ts'],
    });
    // Documentation only, or a failure already told so: nothing to say.
    expect(unconfirmedFailure(failure, { filesModified: ['README.md', 'docs/cart.md'] })).toBeNull();
    const told = unconfirmedFailure(failure, { filesModified: ['src/cart.ts'] });
    expect(
      told && unconfirmedFailure({ ...failure, ...told }, { filesModified: ['src/other.ts'] }),
    ).toBeNull();
  });
});

describe('the same work, told again', () => {
  const earlier = {
    title: 'Instrument hook controllers with trace correlation and error spans',
    facts: ['lib/app_web/trace_helpers.ex: changed with_span'],
    filesModified: [
      'lib/app_web/trace_helpers.ex',
      'lib/app_web/controllers/hooks_controller.ex',
      'lib/app_web/controllers/session_controller.ex',
    ],
  };

  it('is one piece of work when the later one is committed under its name, though its last step changed fewer files', () => {
    const committed = {
      title: 'Instrument hook controllers with OTEL trace correlation and error spans (app-4te)',
      facts: ['lib/app_web/trace_helpers.ex: changed current_trace_id'],
      filesModified: ['lib/app_web/trace_helpers.ex'],
    };
    expect(sameWork(earlier, committed)).toBe(true);
  });

  it('is other work when it only shares a file, or a word or two of its name', () => {
    const other = {
      title: 'Add error spans to the session registry',
      facts: ['lib/app_web/trace_helpers.ex: changed set_error'],
      filesModified: ['lib/app_web/trace_helpers.ex'],
    };
    expect(sameWork(earlier, other)).toBe(false);
    const elsewhere = { ...earlier, filesModified: ['lib/app/registry.ex'] };
    expect(sameWork(earlier, elsewhere)).toBe(false);
  });
});

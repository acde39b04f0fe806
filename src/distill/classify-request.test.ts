import { describe, expect, it } from 'vitest';
import { statedDecision } from './classify-request.ts';

describe('a decision the final message states', () => {
  it('is a choice made, not a question, a condition or a choice left to the user', () => {
    expect(
      statedDecision(
        'Done. We’ll use pnpm instead of npm from here, since the lockfile is pnpm’s.'.replace(/’/g, "'"),
      ),
    ).toBe("We'll use pnpm instead of npm from here, since the lockfile is pnpm's.");
    expect(
      statedDecision(
        "No migration has been run, so the database is untouched — let me know when you want to run `bin/rails db:migrate`, or if you'd rather keep the seeds over the fixtures.",
      ),
    ).toBe('');
    expect(statedDecision('Should we use Redis instead of Postgres for the queue?')).toBe('');
  });
});

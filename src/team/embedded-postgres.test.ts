import { describe, expect, it } from 'vitest';
import { postgresReason, remember } from './embedded-postgres.ts';

describe('what the embedded PostgreSQL said', () => {
  it('joins a line its pipe cut into chunks before reading the reason from it', () => {
    // initdb writes its program name, the level and the message apart: a busy reader gets them apart.
    const output = { lines: [] as string[], partial: '' };
    for (const chunk of [
      'initdb: ',
      'error: ',
      'directory "/tmp/x/pgdata" exists but is not empty\n',
      'initdb: hint: ',
      'remove it\n',
    ])
      remember(output, chunk);
    expect(output.lines).toEqual([
      'initdb: error: directory "/tmp/x/pgdata" exists but is not empty',
      'initdb: hint: remove it',
    ]);
    expect(postgresReason(output.lines.join('\n'))).toBe(
      'initdb: error: directory "/tmp/x/pgdata" exists but is not empty',
    );
  });

  it("reads initdb's stderr out of the package's own error", () => {
    expect(
      postgresReason(
        'Postgres init script failed (code: 1, signal: null). ERROR OUTPUT: initdb: error: directory "/tmp/x/pgdata" exists but is not empty\ninitdb: hint: remove it',
      ),
    ).toBe('initdb: error: directory "/tmp/x/pgdata" exists but is not empty');
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalCommand, commandParts, mainPart } from './canonical-command.ts';
import { classifyCommand, outputLooksFailed } from './commands.ts';

describe('canonical commands', () => {
  it('drops redirections, output filters, single files and pass-through arguments', () => {
    expect(
      [
        'mix test 2>&1',
        'mix test 2>&1 | tail -5',
        'mix test test/spotter/transcripts/resources_test.exs 2>&1',
        'npm test -- src/cart.test.ts 2>&1 | tail -20',
        'npx vitest run src/checkout/address.test.ts',
        'pytest tests/test_parser.py::test_dates -k months',
        'MIX_ENV=test timeout 60 mix test > /tmp/log.txt',
        'cd apps/web && npm run lint -- --fix',
        'git push --set-upstream origin feature/checkout 2>&1',
      ].map(canonicalCommand),
    ).toEqual([
      'mix test',
      'mix test',
      'mix test',
      'npm test',
      'npx vitest run',
      'pytest',
      'mix test',
      'npm run lint',
      'git push',
    ]);
  });

  it('keeps the flags that make the command what it is, and says what it is for', () => {
    expect(
      commandParts('mix compile --warnings-as-errors 2>&1 && mix test test/x_test.exs 2>&1 | tail -10'),
    ).toEqual([
      {
        raw: 'mix compile --warnings-as-errors',
        canonical: 'mix compile --warnings-as-errors',
        kind: 'build',
        purpose: 'build',
        variant: 'plain',
      },
      {
        raw: 'mix test test/x_test.exs',
        canonical: 'mix test',
        kind: 'test',
        purpose: 'test',
        variant: 'single file',
      },
    ]);
    expect(mainPart('mix compile --warnings-as-errors && mix test x_test.exs')?.canonical).toBe('mix test');
    const purposes = [
      'mix credo --strict',
      'npm run dev',
      'mix phx.server',
      'mix ecto.migrate',
      'fly deploy',
      'npx tsc --noEmit',
      'npm run build 2>&1 | tail -3',
    ].map((c) => mainPart(c)?.purpose);
    expect(purposes).toEqual(['lint', 'run', 'run', 'migrate', 'deploy', 'typecheck', 'build']);
  });

  it('gives commands that build, test or run nothing no purpose', () => {
    expect(
      ['docker compose up -d db', 'gh pr view 42', 'git status', 'ls -la', 'bd ready'].map(
        (c) => mainPart(c)?.purpose ?? null,
      ),
    ).toEqual([null, null, null, null, null]);
  });

  it("keeps an interpreter's script, and reads a fixer that fixed everything and an inspection as what they are", () => {
    expect(
      ['python manage.py migrate', 'python3 manage.py runserver 8001', 'node scripts/build.mjs'].map((c) => [
        canonicalCommand(c),
        mainPart(c)?.purpose ?? null,
      ]),
    ).toEqual([
      ['python manage.py migrate', 'migrate'],
      ['python3 manage.py runserver 8001', 'run'],
      ['node scripts/build.mjs', null],
    ]);
    expect(outputLooksFailed('lint', 'Found 2 errors (2 fixed, 0 remaining).')).toBe(false);
    expect(
      outputLooksFailed('lint', 'ledger/api.py:1:8: F401 `os` imported but unused\nFound 2 errors.'),
    ).toBe(true);
    expect(
      ['docker compose ps postgres', 'docker logs web', 'docker compose up -d db'].map(classifyCommand),
    ).toEqual(['inspect', 'inspect', 'other']);
  });
});

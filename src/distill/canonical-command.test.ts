import { describe, expect, it } from 'vitest';
import { canonicalCommand, commandParts, mainPart } from './canonical-command.ts';

const ROOT = '/home/dev/shop';
const brief = (line: string) =>
  commandParts(line, ROOT).map((p) => ({
    canonical: p.canonical,
    purpose: p.purpose,
    key: p.key,
    target: p.target,
    where: p.where,
  }));

describe('canonical commands', () => {
  it('drops redirections, output filters, output-only flags, single files and pass-through arguments', () => {
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
        'python -m pytest -x -q tests/',
        'go test -v -count=1 ./...',
        'npx biome check --max-diagnostics=5 .',
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
      'python -m pytest',
      'go test ./...',
      'npx biome check .',
    ]);
  });

  it('judges each part of a chain on its own, with its target and the key its purpose is tracked by', () => {
    expect(
      brief('mix compile --warnings-as-errors 2>&1 && mix test test/x_test.exs 2>&1 | tail -10'),
    ).toEqual([
      {
        canonical: 'mix compile --warnings-as-errors',
        purpose: 'build',
        key: 'build',
        target: '',
        where: 'project',
      },
      { canonical: 'mix test', purpose: 'test', key: 'test', target: 'test/x_test.exs', where: 'project' },
    ]);
    expect(brief('npm run build && npm test').map((p) => p.key)).toEqual(['build', 'test']);
    expect(mainPart('mix compile --warnings-as-errors && mix test x_test.exs')?.canonical).toBe('mix test');
    // Suites and folders are part of the key: e2e tests are not the unit tests, `web` is not the root.
    expect(
      [
        'npx playwright test e2e/a.spec.ts',
        'npm run test:integration',
        'cd web && npm test',
        'mise run test -- -run TestX',
      ].map((l) => [mainPart(l, ROOT)?.key, mainPart(l, ROOT)?.target]),
    ).toEqual([
      ['test:e2e', 'e2e/a.spec.ts'],
      ['test:integration', ''],
      ['test@web', ''],
      ['test', 'TestX'],
    ]);
  });

  it('tells the project from a scratch directory and from another repository', () => {
    expect(brief('cd /tmp/t && git init && git commit -qm init').map((p) => [p.purpose, p.where])).toEqual([
      ['other', 'scratch'],
      ['commit', 'scratch'],
    ]);
    expect(brief('git -C /var/folders/x1/T/repo commit -m x')[0]?.where).toBe('scratch');
    expect(brief('cd /home/dev/other && go run /dev/stdin')[0]).toMatchObject({
      where: 'outside',
      target: 'inline',
    });
    expect(brief('cd /home/dev/shop/api && npm test')[0]).toMatchObject({
      where: 'project',
      key: 'test@api',
    });
    expect(brief('echo 1 > /tmp/x/.env')[0]?.where).toBe('scratch');
    expect(brief('go run /tmp/probe.go')[0]?.where).toBe('scratch');
  });

  it("keeps an interpreter's script or module, and names what runs", () => {
    expect(
      [
        'python manage.py migrate',
        'python3 manage.py runserver 8001',
        'node scripts/build.mjs',
        'node migrate.js',
        'node scratch.js',
        'python3 -m http.server 8080',
      ].map((c) => [canonicalCommand(c), mainPart(c)?.purpose]),
    ).toEqual([
      ['python manage.py migrate', 'migrate'],
      ['python3 manage.py runserver 8001', 'run'],
      // A script named for what it does is that; any other script run once is a throwaway run.
      ['node scripts/build.mjs', 'build'],
      ['node migrate.js', 'migrate'],
      ['node scratch.js', 'run'],
      ['python3 -m http.server 8080', 'run'],
    ]);
    expect(mainPart('node scripts/build.mjs')?.adhoc).toBeFalsy();
    expect(mainPart('node scratch.js')?.adhoc).toBe(true);
    expect(
      [
        'docker compose ps postgres',
        'docker logs web',
        'docker compose up -d db',
        'cat > x.go <<EOF\nx\nEOF',
      ].map((c) => mainPart(c)?.purpose),
    ).toEqual(['inspect', 'inspect', 'run', 'other']);
  });
});

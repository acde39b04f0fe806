import { describe, expect, it } from 'vitest';
import { classifyCommand, purposeOfTask, resolveWords } from './commands.ts';
import {
  commitBody,
  commitMessage,
  commitOutput,
  commitSweep,
  packagesOf,
  withoutMessage,
} from './commit-commands.ts';
import { simpleCommands } from './shell-words.ts';

describe('what a command is for', () => {
  it.each([
    // Tests, through wrappers, env prefixes, task runners and `python -m`.
    ['npm test', 'test'],
    ['cd web && npm run test:unit -- --reporter dot 2>&1 | tail -20', 'test'],
    ['npx vitest run src/a.test.ts', 'test'],
    ['bunx vitest', 'test'],
    ['pnpm vitest', 'test'],
    ['python -m pytest -x', 'test'],
    ['python3 -m unittest discover', 'test'],
    ['uv run pytest tests/', 'test'],
    ['poetry run pytest', 'test'],
    ['uv run python -m pytest -q', 'test'],
    ['go test ./...', 'test'],
    ['cargo test', 'test'],
    ['cargo llvm-cov --fail-under-lines 100', 'test'],
    ['mix test test/foo_test.exs', 'test'],
    ['MIX_ENV=test mix test', 'test'],
    ['mvn -q test', 'test'],
    ['./gradlew test', 'test'],
    ['make test', 'test'],
    ['just test', 'test'],
    ['mise run test -- -run TestX -v', 'test'],
    ['mise x -- go test ./...', 'test'],
    ['timeout 60 npm test', 'test'],
    ['CI=1 npm test', 'test'],
    ['bundle exec rspec', 'test'],
    ['bin/rails test test/models', 'test'],
    ['docker compose exec -T web bin/rails test', 'test'],
    ['dotnet test', 'test'],
    ['node --test', 'test'],
    ['node test.js', 'test'],
    ['python tests.py', 'test'],
    ['bash -c "npm test"', 'test'],
    ['npm install && npm test', 'test'],
    // Checks.
    ['npx tsc --noEmit', 'typecheck'],
    ['npm run typecheck', 'typecheck'],
    ['uv run mypy src', 'typecheck'],
    ['npm run lint', 'lint'],
    ['npx eslint .', 'lint'],
    ['npx biome check .', 'lint'],
    ['mise run lint', 'lint'],
    ['golangci-lint run ./...', 'lint'],
    ['bundle exec rubocop', 'lint'],
    ['mix credo --strict', 'lint'],
    ['mix format --check-formatted', 'lint'],
    ['prettier --check .', 'lint'],
    ['mise run fmt', 'format'],
    ['gofmt -w .', 'format'],
    ['cargo fmt', 'format'],
    ['npm run format', 'format'],
    ['npm run check', 'gate'],
    ['make ci', 'gate'],
    ['just check', 'gate'],
    ['mix precommit', 'gate'],
    ['npm run build', 'build'],
    ['cargo build --release', 'build'],
    ['make', 'build'],
    ['docker build -t app .', 'build'],
    ['container build -t agent -f docker/Containerfile .', 'build'],
    // Run, migrate, deploy, dependencies.
    ['npm run dev', 'run'],
    ['go run ./cmd/server', 'run'],
    ['python3 -m http.server 8080', 'run'],
    // A script named for its purpose is that; one whose name a program's own work shares with a check runs.
    ['node scripts/migrate.js', 'migrate'],
    ['python src/analyze.py', 'run'],
    ['python3 audit.py --since 30d', 'run'],
    ['python manage.py migrate', 'migrate'],
    ['mix ecto.migrate', 'migrate'],
    ['bin/rails db:migrate', 'migrate'],
    // A generator writes code once: no build.
    ['bin/rails generate controller Donations create --no-helper', 'other'],
    ['rails g model Campaign title:string', 'other'],
    ['fly deploy', 'deploy'],
    ['npm i -D vitest', 'install'],
    ['npm uninstall lodash', 'uninstall'],
    // Commits and pushes, however spelled.
    ['git add -A && git commit -m "x"', 'commit'],
    ['git commit -qm "wip"', 'commit'],
    ['git -C packages/api commit -am "x"', 'commit'],
    ['git push -u origin main', 'push'],
    // Looking: its non-zero exit is an answer, not a failure.
    ['ls -la', 'inspect'],
    ['cat a.txt | grep b', 'inspect'],
    ['git status', 'inspect'],
    ['git diff --quiet', 'inspect'],
    ['git config --global core.excludesfile', 'inspect'],
    ['test -f .env', 'inspect'],
    ['which rg', 'inspect'],
    ['command -v node', 'inspect'],
    ['go version', 'inspect'],
    ['echo "make sure it works"', 'inspect'],
    ['gh pr view 42', 'inspect'],
    // Neither.
    ['git rebase origin/main', 'other'],
    ['curl -L https://x.dev/a.zip -o a.zip', 'other'],
  ])('%s → %s', (command, purpose) => {
    expect(classifyCommand(command)).toBe(purpose);
  });

  it('names a task runner task by its own name', () => {
    expect(
      [
        'test:unit',
        'lint:fix',
        'format:check',
        'fmt',
        'typecheck',
        'check',
        'ci',
        'dev',
        'db:migrate',
        'db:generate',
        'audit:unused',
        'release',
        'seed',
      ].map(purposeOfTask),
    ).toEqual([
      'test',
      'lint',
      'lint',
      'format',
      'typecheck',
      'gate',
      'gate',
      'run',
      'migrate',
      'build',
      'lint',
      'deploy',
      'other',
    ]);
  });

  it('sees through wrappers to the command, and says which suite a test run is', () => {
    const r = (line: string) => resolveWords(simpleCommands(line)[0]?.words ?? []);
    expect(r('FOO=1 timeout -s KILL 60 uv run --with rich python -m pytest -k dates')).toMatchObject({
      purpose: 'test',
      tool: 'pytest',
      words: ['pytest', '-k', 'dates'],
    });
    expect(r('npx playwright test e2e/checkout.spec.ts')).toMatchObject({ purpose: 'test', suite: 'e2e' });
    expect(r('npm run test:integration')).toMatchObject({
      purpose: 'test',
      suite: 'integration',
      task: 'test:integration',
    });
    expect(r('npm --prefix web test')).toMatchObject({ purpose: 'test', dir: 'web' });
    expect(r('go run -exec env /dev/stdin')).toMatchObject({ purpose: 'run', adhoc: true });
  });
});

describe('packagesOf', () => {
  it('lists added and removed packages without flags, flag values, files or extras', () => {
    expect(packagesOf('npm i -D vitest@4 @types/node')).toEqual({
      added: ['vitest@4', '@types/node'],
      removed: [],
    });
    expect(packagesOf('pip install -r requirements.txt requests "fastapi[all]"')).toEqual({
      added: ['requests', 'fastapi'],
      removed: [],
    });
    expect(packagesOf('cargo add serde --features derive')).toEqual({ added: ['serde'], removed: [] });
    expect(packagesOf('go get github.com/x/y@v1.2.0')).toEqual({
      added: ['github.com/x/y@v1.2.0'],
      removed: [],
    });
    expect(packagesOf('npm uninstall lodash && npm install')).toEqual({ added: [], removed: ['lodash'] });
    expect(packagesOf('npm test')).toEqual({ added: [], removed: [] });
  });
});

describe('commits', () => {
  it('reads what a commit body lists (or, with no list, says) it does, without trailers or signatures', () => {
    const heredoc = [
      `git commit -m "$(cat <<'EOF'`,
      'fix: improve abort listener error handling',
      '',
      '- Use { once: true } for abort listeners to prevent leaks',
      '- Remove await from destroySession calls; add .catch() that logs',
      '',
      '🤖 Generated with [Claude Code](https://claude.com/claude-code)',
      'Co-Authored-By: Claude <noreply@anthropic.com>',
      'EOF',
      ')"',
    ].join('\n');
    expect(commitBody(heredoc)).toEqual([
      'Use { once: true } for abort listeners to prevent leaks',
      'Remove await from destroySession calls; add .catch() that logs',
    ]);
    // No list: the paragraphs say what it does, each wrapped line joined again.
    expect(
      commitBody(
        'git commit -m "feat: dice page\n\nSimple static site to pick who starts.\nSecure RNG, bounds kept in\nlocalStorage.\n\nCo-Authored-By: Claude <noreply@anthropic.com>"',
      ),
    ).toEqual(['Simple static site to pick who starts. Secure RNG, bounds kept in localStorage.']);
    expect(commitBody('git commit -m fix-typo')).toEqual([]);
    // A list of examples says nothing alone: the paragraph leading into it does.
    expect(
      commitBody(
        'git commit -m "Add MODEL_NAME for model selection\n\nAllows switching models via environment variable:\n- export MODEL_NAME=gpt-5\n- export MODEL_NAME=o3-mini\n\nDefaults to gpt-4o (OpenAI)."',
      ),
    ).toEqual([
      'Allows switching models via environment variable: - export MODEL_NAME=gpt-5 - export MODEL_NAME=o3-mini',
      'Defaults to gpt-4o (OpenAI).',
    ]);
  });

  it('reads the message from -m, -qm, heredocs and git output', () => {
    expect(commitMessage('git commit -m "feat: add x" -m "body"')).toBe('feat: add x');
    expect(commitMessage('git commit -m fix-typo')).toBe('fix-typo');
    expect(commitMessage('git commit -qm "chore: bump"')).toBe('chore: bump');
    expect(commitMessage(`git commit -m "$(cat <<'EOF'\nRename getUser\n\nBody\nEOF\n)"`)).toBe(
      'Rename getUser',
    );
    expect(commitMessage('git commit --amend --no-edit')).toBeNull();
    expect(commitOutput('[main (root-commit) abc1234] Initial commit\n 3 files changed')).toEqual({
      branch: 'main',
      hash: 'abc1234',
      subject: 'Initial commit',
      filesChanged: 3,
      created: [],
    });
  });

  it('says what a commit far larger than its work swept in, by top folder', () => {
    const listed = [
      ...Array.from({ length: 40 }, (_, i) => `todomvc-master/examples/app${i}/index.html`),
      '.private-journal/2025-10-07/19-51-28.md',
      '.private-journal/2025-10-07/19-51-28.embedding',
      '.claude/settings.local.json',
      'src/index.ts',
    ];
    const out = commitOutput(
      [
        '[main 76000c9] Add MODEL_NAME environment variable',
        ' 832 files changed, 423384 insertions(+), 1 deletion(-)',
        ...listed.map((p) => ` create mode 100644 ${p}`),
        '... [422 lines truncated] ...',
      ].join('\n'),
    );
    expect(out?.filesChanged).toBe(832);
    expect(out?.created).toHaveLength(44);
    expect(commitSweep(out?.filesChanged ?? null, out?.created ?? [], 3)).toBe(
      '832 files changed, among them todomvc-master/ (40 new), .private-journal/ (2 new), .claude/settings.local.json, src/index.ts',
    );
    // A commit of about the size of its work says nothing more.
    expect(commitSweep(17, listed.slice(0, 17), 12)).toBe('');
    expect(commitSweep(4, [], 1)).toBe('');
  });
});

describe('a command without the message it carries', () => {
  it('leaves a commit message out, whatever its quoting, and the rest of the command as it ran', () => {
    expect(
      withoutMessage('git commit -m "fix: implement robust SSE parsing - Replace brittle parsing"'),
    ).toBe('git commit -m "…"');
    expect(withoutMessage("git add . && git commit -qm 'wip: it works' && git push")).toBe(
      'git add . && git commit -qm "…" && git push',
    );
    expect(withoutMessage('git commit --message=release-1.2 --no-verify')).toBe(
      'git commit --message "…" --no-verify',
    );
    expect(withoutMessage('npm test -- --maxWorkers=2')).toBe('npm test -- --maxWorkers=2');
    // Only a git command's message: another command's `-m` is part of how it ran.
    expect(withoutMessage('python -m pytest tests/ && git commit -m "test: add"')).toBe(
      'python -m pytest tests/ && git commit -m "…"',
    );
    expect(withoutMessage('git -C ../lib commit -am "fix: x"')).toBe('git -C ../lib commit -am "…"');
  });
});

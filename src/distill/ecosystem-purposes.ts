/**
 * What a command is for, by its ecosystem's own command line: `go test`, `cargo clippy`, `mix
 * credo`, `dotnet test`, `mvn verify`, `gradle check`, `rails db:migrate`, `php artisan test`,
 * package managers, containers, task runners (`make`, `just`, `task`, `mise run`, `nx`, `turbo`), web
 * frameworks, migrations, infrastructure and deployment tools, `gh`.
 */
import { positional, purposeOfTask, type Judged, type Purpose } from './purpose-names.ts';

/** A command of a known ecosystem, or null. */
export function byEcosystem(head: string, w: string[]): Judged | null {
  const sub = positional(w, 1)[0] ?? '';
  const rest = w.slice(1);
  const has = (re: RegExp) => rest.some((x) => re.test(x));
  const table = (map: Record<string, Purpose>, tool = `${head} ${sub}`.trim()): Judged => ({
    purpose: map[sub] ?? 'other',
    tool,
  });
  switch (head) {
    case 'go':
      if (sub === 'run')
        return {
          purpose: 'run',
          tool: 'go run',
          adhoc: rest.some((x) => /^\/dev\/stdin$|^-$|^\/(?:private\/)?tmp\//.test(x)),
        };
      if (sub === 'mod')
        return {
          purpose: /^(?:download|tidy)$/.test(positional(w, 2)[0] ?? '') ? 'install' : 'other',
          tool: 'go mod',
        };
      return table({
        test: 'test',
        build: 'build',
        vet: 'lint',
        fmt: 'format',
        get: 'install',
        install: 'install',
        generate: 'build',
        env: 'inspect',
        list: 'inspect',
        version: 'inspect',
        doc: 'inspect',
      });
    case 'cargo':
      if (sub === 'fmt') return { purpose: has(/^--check$/) ? 'lint' : 'format', tool: 'cargo fmt' };
      if (sub === 'make')
        return {
          purpose: purposeOfTask(positional(w, 2)[0] ?? ''),
          tool: 'cargo make',
          task: positional(w, 2)[0] ?? '',
        };
      return table({
        test: 'test',
        nextest: 'test',
        // Coverage tools run the test suite (`cargo llvm-cov`, `cargo tarpaulin`).
        'llvm-cov': 'test',
        tarpaulin: 'test',
        build: 'build',
        check: 'typecheck',
        clippy: 'lint',
        run: 'run',
        add: 'install',
        install: 'install',
        fetch: 'install',
        remove: 'uninstall',
        tree: 'inspect',
        metadata: 'inspect',
      });
    case 'mix': {
      if (sub === 'format')
        return { purpose: has(/^--check-formatted$/) ? 'lint' : 'format', tool: 'mix format' };
      const known: Record<string, Purpose> = {
        test: 'test',
        compile: 'build',
        credo: 'lint',
        dialyzer: 'typecheck',
        'ecto.migrate': 'migrate',
        'ecto.rollback': 'migrate',
        'phx.server': 'run',
        'deps.get': 'install',
        'deps.update': 'install',
        release: 'build',
        'hex.publish': 'deploy',
      };
      return { purpose: known[sub] ?? purposeOfTask(sub), tool: `mix ${sub}`.trim(), task: sub };
    }
    case 'iex':
      return { purpose: 'run', tool: 'iex' };
    case 'dotnet':
      if (sub === 'add' && positional(w, 2)[0] === 'package')
        return { purpose: 'install', tool: 'dotnet add package' };
      return table({
        test: 'test',
        build: 'build',
        run: 'run',
        format: 'format',
        restore: 'install',
        publish: 'deploy',
        watch: 'run',
      });
    case 'swift':
      return table({ test: 'test', build: 'build', run: 'run' });
    case 'mvn':
    case 'mvnw': {
      const goals = positional(w, 1).join(' ');
      const p: Purpose = /\b(?:spotless:apply|fmt:format)\b/.test(goals)
        ? 'format'
        : /\b(?:checkstyle|spotless:check|pmd)/.test(goals)
          ? 'lint'
          : /\b(?:test|verify)\b/.test(goals)
            ? 'test'
            : /\b(?:package|compile|install)\b/.test(goals)
              ? 'build'
              : /\bdeploy\b/.test(goals)
                ? 'deploy'
                : 'other';
      return { purpose: p, tool: 'mvn', task: goals };
    }
    case 'gradle':
    case 'gradlew': {
      const tasks = positional(w, 1);
      const named = tasks.map((t) => purposeOfTask(t.split(':').pop() ?? t));
      const p =
        named.find((x) => x === 'test') ??
        named.find((x) => x !== 'other') ??
        (tasks.some((t) => /bootRun|run$/.test(t)) ? 'run' : 'other');
      return { purpose: p === 'gate' ? 'test' : p, tool: 'gradle', task: tasks.join(' ') };
    }
    case 'sbt':
      return table({ test: 'test', compile: 'build', run: 'run', scalafmt: 'format', scalafmtAll: 'format' });
    case 'rails':
    case 'rake': {
      const t = sub;
      if (/^(?:s|server)$/.test(t) && head === 'rails') return { purpose: 'run', tool: 'rails server' };
      if (/^(?:c|console)$/.test(t)) return { purpose: 'other', tool: `${head} console` };
      // A generator writes code once (`rails generate controller Donations`): no build of the project.
      if (/^(?:g|generate|d|destroy|new)$/.test(t) && head === 'rails')
        return { purpose: 'other', tool: `rails ${t}` };
      if (/^(?:routes|about|stats|notes)$/.test(t)) return { purpose: 'inspect', tool: `${head} ${t}` };
      if (/^db:(?:migrate|rollback)/.test(t)) return { purpose: 'migrate', tool: `${head} ${t}` };
      if (/^assets:precompile/.test(t)) return { purpose: 'build', tool: `${head} ${t}` };
      if (t === '' && head === 'rake') return { purpose: 'test', tool: 'rake' };
      return { purpose: purposeOfTask(t), tool: `${head} ${t}`.trim(), task: t };
    }
    case 'php':
      if (w[1] === 'artisan') {
        const t = w[2] ?? '';
        const p: Purpose =
          t === 'test' ? 'test' : /^migrate/.test(t) ? 'migrate' : t === 'serve' ? 'run' : purposeOfTask(t);
        return { purpose: p, tool: `php artisan ${t}`.trim(), task: t };
      }
      return null;
    case 'composer':
      if (/^(?:install|require|update)$/.test(sub)) return { purpose: 'install', tool: `composer ${sub}` };
      if (sub === 'remove') return { purpose: 'uninstall', tool: 'composer remove' };
      return {
        purpose: purposeOfTask(sub === 'run' || sub === 'run-script' ? (positional(w, 2)[0] ?? '') : sub),
        tool: `composer ${sub}`.trim(),
      };
    case 'pip':
    case 'pip3':
      return table({
        install: 'install',
        uninstall: 'uninstall',
        list: 'inspect',
        show: 'inspect',
        freeze: 'inspect',
      });
    case 'uv':
      if (sub === 'pip')
        return {
          purpose:
            positional(w, 2)[0] === 'install'
              ? 'install'
              : positional(w, 2)[0] === 'uninstall'
                ? 'uninstall'
                : 'inspect',
          tool: 'uv pip',
        };
      return table({
        add: 'install',
        sync: 'install',
        remove: 'uninstall',
        lock: 'install',
        build: 'build',
        publish: 'deploy',
      });
    case 'poetry':
    case 'pdm':
    case 'pipenv':
      return table({
        install: 'install',
        add: 'install',
        remove: 'uninstall',
        lock: 'install',
        update: 'install',
        build: 'build',
        publish: 'deploy',
        sync: 'install',
      });
    case 'bundle':
    case 'gem':
      return table({
        install: 'install',
        add: 'install',
        update: 'install',
        remove: 'uninstall',
        uninstall: 'uninstall',
        list: 'inspect',
        outdated: 'inspect',
      });
    case 'docker':
    case 'podman':
    case 'container':
    case 'docker-compose': {
      const compose = head === 'docker-compose' || sub === 'compose';
      const verb = compose && head !== 'docker-compose' ? (positional(w, 2)[0] ?? '') : sub;
      if (/^(?:build|buildx)$/.test(verb))
        return {
          purpose: 'build',
          tool: `${head}${compose && head !== 'docker-compose' ? ' compose' : ''} build`,
        };
      if (/^(?:up|run|start)$/.test(verb))
        return {
          purpose: 'run',
          tool: `${head}${compose && head !== 'docker-compose' ? ' compose' : ''} ${verb}`,
        };
      if (/^(?:ps|logs|images|inspect|top|port|config|ls|list|version|info|stats)$/.test(verb))
        return { purpose: 'inspect', tool: `${head} ${verb}` };
      if (verb === 'push') return { purpose: 'deploy', tool: `${head} push` };
      return { purpose: verb === '' ? 'inspect' : 'other', tool: `${head} ${verb}`.trim() };
    }
    case 'make':
    case 'just':
    case 'task':
    case 'invoke': {
      const t = positional(w, 1)[0] ?? '';
      if (t === '') return { purpose: head === 'make' ? 'build' : 'other', tool: head };
      if (head === 'just' && /^--(?:list|summary)$/.test(w[1] ?? ''))
        return { purpose: 'inspect', tool: head };
      return { purpose: purposeOfTask(t), tool: `${head} ${t}`, task: t };
    }
    case 'mise':
    case 'rtx': {
      if (/^(?:run|r)$/.test(sub)) {
        const t = positional(w, 2)[0] ?? '';
        return { purpose: t ? purposeOfTask(t) : 'inspect', tool: `mise run ${t}`.trim(), task: t };
      }
      return {
        purpose: /^(?:install|use|i)$/.test(sub)
          ? 'install'
          : /^(?:tasks|ls|list|current|which|env|doctor)$/.test(sub) || sub === ''
            ? 'inspect'
            : 'other',
        tool: `mise ${sub}`.trim(),
      };
    }
    case 'nx':
    case 'turbo':
    case 'lerna': {
      const t = sub === 'run' || sub === 'run-many' ? (positional(w, 2)[0] ?? '') : sub;
      return { purpose: purposeOfTask(t.split(':').pop() ?? t), tool: `${head} ${t}`.trim(), task: t };
    }
    case 'vite':
    case 'next':
    case 'nuxt':
    case 'astro':
    case 'remix':
    case 'react-router':
    case 'svelte-kit':
    case 'ng':
      if (sub === 'build') return { purpose: 'build', tool: `${head} build` };
      if (sub === 'test') return { purpose: 'test', tool: `${head} test` };
      if (sub === 'lint') return { purpose: 'lint', tool: `${head} lint` };
      if (/^(?:typegen|sync)$/.test(sub)) return { purpose: 'build', tool: `${head} ${sub}` };
      return {
        purpose: sub === '' || /^(?:dev|start|serve|preview)$/.test(sub) ? 'run' : 'other',
        tool: `${head} ${sub}`.trim(),
      };
    case 'prisma':
      if (sub === 'migrate' || (sub === 'db' && positional(w, 2)[0] === 'push'))
        return { purpose: 'migrate', tool: `prisma ${sub}` };
      return { purpose: sub === 'generate' ? 'build' : 'other', tool: `prisma ${sub}`.trim() };
    case 'alembic':
      return {
        purpose: /^(?:upgrade|downgrade)$/.test(sub) ? 'migrate' : 'other',
        tool: `alembic ${sub}`.trim(),
      };
    case 'knex':
    case 'sequelize':
      return {
        purpose: /^(?:migrate|db:migrate)/.test(sub) ? 'migrate' : 'other',
        tool: `${head} ${sub}`.trim(),
      };
    case 'terraform':
    case 'tofu':
      return table({
        fmt: 'format',
        validate: 'lint',
        apply: 'deploy',
        plan: 'inspect',
        init: 'install',
        show: 'inspect',
        output: 'inspect',
      });
    case 'kubectl':
      return {
        purpose: /^(?:apply|rollout|set)$/.test(sub)
          ? 'deploy'
          : /^(?:get|describe|logs|top|explain)$/.test(sub)
            ? 'inspect'
            : 'other',
        tool: `kubectl ${sub}`.trim(),
      };
    case 'helm':
      return {
        purpose: /^(?:upgrade|install)$/.test(sub)
          ? 'deploy'
          : /^(?:list|status|get|template|lint)$/.test(sub)
            ? sub === 'lint'
              ? 'lint'
              : 'inspect'
            : 'other',
        tool: `helm ${sub}`.trim(),
      };
    case 'fly':
    case 'flyctl':
    case 'vercel':
    case 'netlify':
    case 'kamal':
    case 'wrangler':
      if (
        sub === 'deploy' ||
        (head === 'vercel' && (sub === '' || has(/^--prod$/))) ||
        (head === 'wrangler' && sub === 'publish')
      )
        return { purpose: 'deploy', tool: `${head} deploy` };
      return {
        purpose: /^(?:logs|status|ls|list|whoami|info)$/.test(sub)
          ? 'inspect'
          : sub === 'dev'
            ? 'run'
            : 'other',
        tool: `${head} ${sub}`.trim(),
      };
    case 'cap':
      return { purpose: positional(w, 1).includes('deploy') ? 'deploy' : 'other', tool: 'cap' };
    case 'gh': {
      const verb = positional(w, 2)[0] ?? '';
      const readOnly =
        /^(?:view|list|status|checks|diff|watch)$/.test(verb) ||
        sub === 'api' ||
        sub === 'search' ||
        sub === 'auth';
      return {
        purpose: readOnly && !has(/^(?:-X|--method)$/) ? 'inspect' : 'other',
        tool: `gh ${sub} ${verb}`.trim(),
      };
    }
    case 'flask':
    case 'uvicorn':
    case 'gunicorn':
    case 'hypercorn':
    case 'puma':
    case 'rackup':
      return {
        purpose:
          sub === 'db'
            ? /^(?:upgrade|migrate)$/.test(positional(w, 2)[0] ?? '')
              ? 'migrate'
              : 'other'
            : 'run',
        tool: head,
      };
    default:
      return null;
  }
}

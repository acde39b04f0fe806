// The words bench:search's synthetic memories are made of: a seeded PRNG, a Zipf sampler, domain nouns
// and verbs, libraries, languages with their check commands, source folders, observation type shares and
// a generated vocabulary of identifiers.
import type { ObservationType } from '../../src/core/model.ts';

export type Rng = () => number;
/** mulberry32: small, fast, good enough for test data (the tests' own seeded generator). */
export { random as rng } from '../../src/core/seeded-random.test-support.ts';

/** Picks from a list with probability ∝ 1/(rank+1)^s. */
export function zipf<T>(items: readonly T[], s: number): (r: Rng) => T {
  const cdf = new Float64Array(items.length);
  let sum = 0;
  for (let i = 0; i < items.length; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  return (r) => {
    const x = r() * sum;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo] as T;
  };
}
export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
export const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
export const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export const NOUNS =
  `user session token cache parser router schema migration index query request response handler
middleware config logger worker queue job event payload store repository service controller client server
socket stream buffer module bundle fixture mock snapshot component hook state reducer action props context
provider theme layout route page form field input button modal table column row record entity model order
invoice payment customer account auth permission role policy webhook retry timeout limit rate batch chunk
offset cursor metric trace span alert deploy release version branch commit diff patch conflict interface
generic enum struct trait closure promise task thread lock mutex channel pool connection transaction
statement pragma checkpoint embedding vector ranking score note memory observation summary prompt
transcript tool agent plugin adapter registry manifest lockfile dependency package script secret credential
certificate proxy header cookie upload download image thumbnail avatar email notification subscription
plan tenant workspace organization invite member team project issue label comment thread message inbox
draft template report export import csv pdf chart dashboard widget filter sort pagination search suggestion
locale translation currency price discount cart checkout shipping address geocode map tile marker
scheduler cron backoff heartbeat lease shard replica partition topic consumer producer offset`.split(/\s+/);
export const VERBS =
  `get set parse load save fetch build render validate normalize resolve create update delete
handle process compute format serialize decode encode flush sync merge apply emit dispatch subscribe register
init reset open close read write retry map filter collect ensure compare hydrate persist invalidate refresh
schedule enqueue drain throttle debounce sanitize redact hash sign verify migrate seed split join`.split(
    /\s+/,
  );
export const LIBS =
  `react express zod prisma vitest jest eslint webpack vite next fastapi django pydantic sqlalchemy
tokio serde axum gin cobra better-sqlite3 pg redis kafka docker kubernetes terraform tailwind graphql apollo
trpc playwright esbuild typescript pytest celery alembic numpy pandas requests httpx clap anyhow tracing sqlx
rails sidekiq rspec phoenix ecto spring hibernate gradle maven swiftui alamofire`.split(/\s+/);
export const LANGS = [
  {
    ext: 'ts',
    lang: 'typescript',
    test: (f: string) => `npx vitest run ${f}`,
    checks: ['npm test', 'npm run build', 'npx tsc --noEmit', 'npm run lint'],
  },
  {
    ext: 'py',
    lang: 'python',
    test: (f: string) => `pytest ${f} -q`,
    checks: ['pytest', 'ruff check .', 'mypy src', 'python -m build'],
  },
  {
    ext: 'go',
    lang: 'go',
    test: (f: string) => `go test ./${f.replace(/\/[^/]+$/, '')}/...`,
    checks: ['go test ./...', 'go build ./...', 'go vet ./...', 'golangci-lint run'],
  },
  {
    ext: 'rs',
    lang: 'rust',
    test: (f: string) => `cargo test --test ${f.replace(/.*\/|\.rs$/g, '')}`,
    checks: ['cargo test', 'cargo build', 'cargo clippy', 'cargo fmt --check'],
  },
  {
    ext: 'rb',
    lang: 'ruby',
    test: (f: string) => `bundle exec rspec ${f}`,
    checks: ['bundle exec rspec', 'bundle exec rubocop', 'rake build', 'rails test'],
  },
];
export const DIRS =
  `src src/lib src/api src/components src/store src/utils src/services src/routes src/models src/hooks
src/workers src/cli internal/server internal/db pkg/client app/models app/controllers lib tests test/unit
test/integration packages/core/src packages/web/src scripts migrations`.split(/\s+/);
export const TYPES: [ObservationType, number][] = [
  ['discovery', 24],
  ['change', 18],
  ['feature', 15],
  ['bugfix', 12],
  ['error', 8],
  ['refactor', 6],
  ['decision', 5],
  ['task', 5],
  ['failed_attempt', 4],
  ['correction', 1],
  ['preference', 1],
  ['fact', 1],
];

/** The shared vocabulary: identifiers in camelCase, snake_case, PascalCase and CONSTANT_CASE. */
export function vocabulary(r: Rng): string[] {
  const out = new Set<string>();
  while (out.size < 24_000) {
    const a = pick(r, NOUNS);
    const b = pick(r, NOUNS);
    const v = pick(r, VERBS);
    const k = r();
    if (k < 0.45) out.add(`${v}${cap(a)}${r() < 0.4 ? cap(b) : ''}`);
    else if (k < 0.7) out.add(`${v}_${a}${r() < 0.4 ? `_${b}` : ''}`);
    else if (k < 0.92)
      out.add(
        `${cap(a)}${cap(b)}${r() < 0.3 ? pick(r, ['Error', 'Service', 'Store', 'Props', 'Config']) : ''}`,
      );
    else out.add(`${a}_${b}_${pick(r, ['max', 'limit', 'timeout', 'ttl', 'size'])}`.toUpperCase());
  }
  return [...out];
}

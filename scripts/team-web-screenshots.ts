// npm run screenshots:team — the README's screenshots of the team server's web view
// (docs/screenshots/team-*.png): a throw-away PostgreSQL, the real `engram server start`, a few records
// pushed through the sync API as two teammates would, a team lead signed in with a password, and
// headless Chromium.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTeamApi } from '../src/team/api-client.ts';
import { parseProjectSpec } from '../src/team/project-key.ts';
import { linkRecord, memoryRecord, summaryRecord } from '../src/team/records.test-support.ts';
import { launchChromium } from '../test/support/browser.ts';
import { startCliTeamServer } from '../test/support/team-cli.ts';
import { startTestPostgres } from '../test/support/team-postgres.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const SHOP = 'git@github.com:acme/shop.git';
const shop = parseProjectSpec(SHOP).id;
const PASSWORD = 'a long passphrase of yours';
const DAY = 86_400_000;
const now = Date.now();

const pg = await startTestPostgres();
try {
  const server = await startCliTeamServer(pg);
  try {
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const tokens: Record<string, string> = {};
    for (const [name, role] of [
      ['lead', 'admin'],
      ['alice', 'writer'],
      ['bob', 'writer'],
    ] as const) {
      tokens[name] = (await admin.addUser({ name, device: `${name}-laptop`, password: PASSWORD })).token;
      await admin.grant({ user: name, project: SHOP, role });
    }
    await createTeamApi({ server: server.url, token: tokens['alice'] as string }).push(shop, [
      memoryRecord('obs_01shop0000000000001', 'Checkout retries the payment gateway on 503 with jitter', {
        type: 'decision',
        narrative:
          'The gateway answers 503 under load. Retrying at once made it worse; exponential backoff with full jitter (base 200 ms, cap 5 s) fixed the failed checkouts.',
        facts: ['retry only idempotent calls (they carry an Idempotency-Key)', 'at most 4 attempts'],
        filesModified: ['src/checkout/pay.ts'],
        sessionId: 'alice-1',
        createdAt: now - 2 * DAY,
        pinned: true,
      }),
      memoryRecord(
        'obs_01shop0000000000002',
        'Gateway client timeout is 30 s; the load balancer cuts at 60 s',
        {
          type: 'discovery',
          filesRead: ['src/checkout/gateway.ts', 'deploy/lb.yaml'],
          sessionId: 'alice-1',
          createdAt: now - 2 * DAY,
        },
      ),
      summaryRecord('alice-1', 'Make checkout survive payment gateway outages', {
        learned: 'The gateway sheds load with 503s; retries need jitter.',
        completed: 'Backoff with jitter in pay.ts, tests for the retry budget.',
        nextSteps: 'Alert when the retry budget is spent.',
        filesEdited: ['src/checkout/pay.ts', 'src/checkout/pay.test.ts'],
        updatedAt: now - 2 * DAY,
      }),
      linkRecord('obs_01shop0000000000001', 'depends_on', 'obs_01shop0000000000002'),
      linkRecord('obs_01shop0000000000001', 'part_of', 'ses_alice-1'),
    ]);
    await createTeamApi({ server: server.url, token: tokens['bob'] as string }).push(shop, [
      memoryRecord(
        'obs_01shop0000000000003',
        'Run the payment tests with npm run test:pay (needs the sandbox key)',
        {
          type: 'fact',
          sessionId: 'bob-1',
          createdAt: now - DAY,
        },
      ),
      memoryRecord(
        'obs_01shop0000000000004',
        'Use the retry helper from src/lib/retry.ts, never hand-written loops',
        {
          type: 'convention',
          sessionId: 'bob-1',
          createdAt: now - DAY,
        },
      ),
      linkRecord('obs_01shop0000000000004', 'related', 'obs_01shop0000000000001'),
    ]);
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1280, height: 760 });
      await page.goto(`${server.url}/login`);
      await page.screenshot({ path: join(out, 'team-login.png') });
      await page.getByLabel('User name').fill('lead');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('h1', { hasText: 'Projects' }).waitFor();
      for (const [name, path] of [
        ['team-projects', '/'],
        ['team-search', '/search?q=retry'],
        ['team-memory', '/memories/obs_01shop0000000000001'],
        ['team-graph', '/graph?id=obs_01shop0000000000001'],
        ['team-audit', '/audit'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.screenshot({ path: join(out, `${name}.png`) });
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
} finally {
  await pg.stop();
}
console.log(`screenshots written to ${out}`);

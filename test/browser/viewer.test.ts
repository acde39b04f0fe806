/**
 * The web viewer in a real headless Chromium, against the real `engram ui` process over a store filled
 * by the real hook and `engram flush`: every page (and axe-core on each), a hostile memory rendering
 * inert, the searchbox, a session's injected context and the recall test, forget with undo, bulk
 * forget with its dry-run count, and the live stream receiving a memory distilled while it is open.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/capture/project-identity.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore, type Store } from '../../src/store/store.ts';
import { launchChromium, seriousA11yViolations, type Browser } from '../support/browser.ts';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';
import { startViewerProcess, type ViewerProcess } from '../support/viewer-process.ts';

// Browser globals used inside page.evaluate (this file is type-checked without the DOM library).
declare const window: { __pwned?: number };
declare const document: {
  activeElement: unknown;
  scrollingElement: { scrollWidth: number; clientWidth: number };
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): ArrayLike<unknown>;
  links: ArrayLike<{ href: string }>;
};

const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> title';
const LONG_WORD = 'x'.repeat(30_000);

/** One turn through the real capture hook: prompt, an edit (of a file that exists), a passing test run, stop. */
function turn(sb: Sandbox, session: string, dir: string, prompt: string, file: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), `export const b = 1; // ${prompt}\n`);
  const p = payloads(session, dir);
  for (const payload of [
    p.prompt(prompt),
    p.tool('Edit', { file_path: join(dir, file), old_string: 'a', new_string: 'b' }, { success: true }),
    p.tool('Bash', { command: 'npm test' }, { stdout: 'Tests: 4 passed', stderr: '', interrupted: false }),
    p.stop(`Done: ${prompt}`),
  ]) {
    const r = sb.hook(payload, { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
  }
}

describe('the web viewer in Chromium', () => {
  let sb: Sandbox;
  let dir: string;
  let viewer: ViewerProcess;
  let browser: Browser;
  let page: Page;
  let store: Store;
  let hostileId: string;
  const errors: string[] = [];

  const titleOf = (id: string) => store.observations.get(id)?.title ?? '';
  /** The memories of a turn, found by the file it changed (titles are the distiller's to choose). */
  const idsTouching = (file: string) =>
    store.memoryList
      .page({}, 200)
      .map((k) => k.id)
      .filter((id) => store.observations.get(id)?.filesModified.some((f) => f.endsWith(file)));
  const go = async (path: string) => {
    await page.goto(`${viewer.origin}${path}`);
    await page.locator('#live[data-state="live"]').waitFor();
  };

  beforeAll(async () => {
    // The SessionStart index lists only the newest memory, so a later prompt can still be told the others.
    sb = createSandbox({ ENGRAM_CONTEXT_RECENT_COUNT: '1' });
    dir = sb.project('shop', 'git@github.com:example/shop.git');
    const start = payloads('session-a', dir).start('startup');
    expect(sb.hook(start, { cwd: dir }).status).toBe(0);
    turn(
      sb,
      'session-a',
      dir,
      'The login form accepts an empty email; make validation reject it',
      'src/login.ts',
    );
    turn(sb, 'session-a', dir, 'Add a retry with backoff to the payment client', 'src/payments/client.ts');
    expect(sb.engram(['flush']).status).toBe(0);
    // A second session is told about the first: at SessionStart, and with a matching prompt.
    expect(sb.hook(payloads('session-b', dir).start('startup'), { cwd: dir }).status).toBe(0);
    turn(sb, 'session-b', dir, 'Why does the login form reject an empty email?', 'src/login.test.ts');
    expect(sb.engram(['flush']).status).toBe(0);

    store = createStore(openDatabase(join(sb.engramHome, 'engram.db')));
    hostileId = store.memory.create(
      {
        projectId: resolveProject(dir).id,
        sessionId: 'session-a',
        source: 'manual',
        createdAt: Date.now(),
        provenance: ['session:session-a'],
        draft: {
          type: 'fact',
          title: HOSTILE_TITLE,
          subtitle: '[click me](javascript:window.__pwned=3)',
          narrative: `<a href="javascript:window.__pwned=4">a link</a>\n<iframe src="javascript:alert(1)"></iframe>\n${LONG_WORD}`,
          facts: ['javascript:window.__pwned=5', '"><svg onload="window.__pwned=6">'],
          concepts: [],
          filesRead: ['src/<b>bold</b>.ts'],
          filesModified: [],
        },
      },
      { origin: 'cli', at: Date.now() },
    ).id;

    viewer = await startViewerProcess(sb, {
      ENGRAM_VIEWER_FORGET_UNDO_SECONDS: '3',
      ENGRAM_VIEWER_IDLE_EXIT_SECONDS: '600',
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(viewer.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    const code = await viewer?.stop();
    expect(code).toBe(0);
    expect(existsSync(join(sb.engramHome, 'viewer.json'))).toBe(false);
    store?.close();
    sb?.cleanup();
  });

  it('prints the sign-in link first; the link signs the browser in once', async () => {
    expect(viewer.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/auth\/launch\?token=[0-9]+\.[0-9a-f]+\.[0-9a-f]{64}$/,
    );
    expect(new URL(page.url()).pathname).toBe('/');
    const other = await browser.context.browser()?.newContext();
    if (other) {
      const stranger = await other.newPage();
      const response = await stranger.goto(viewer.url);
      expect(response?.status()).toBe(401);
      await other.close();
    }
    // A second `engram ui` hands out a new link to the running viewer.
    const again = await sb.engramAsync(['ui', '--no-open']);
    expect(again.status).toBe(0);
    expect(again.stdout.split('\n')[0]).toMatch(new RegExp(`^${viewer.origin}/auth/launch\\?token=`));
  });

  it('renders every page, with no script error and no serious accessibility violation', async () => {
    const memory = idsTouching('src/login.test.ts')[0] as string;
    const edited = idsTouching('src/login.ts')[0] as string;
    const pages: [string, string][] = [
      ['/', 'Stream'],
      ['/search', 'Search'],
      ['/search?q=login+form', 'Search'],
      [`/memories/${memory}`, titleOf(memory)],
      ['/sessions', 'Sessions'],
      ['/sessions/session-b', 'Session'],
      [`/graph?id=${edited}`, 'Graph'],
      ['/metrics', 'Metrics'],
      ['/health', 'Health'],
      ['/settings', 'Settings'],
    ];
    for (const [path, heading] of pages) {
      await go(path);
      await expect(page.locator('h1').first().textContent()).resolves.toContain(heading);
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    // The graph step (run by flush) linked the memory to the file it changed and to its session.
    await go(`/graph?id=${edited}`);
    await expect(
      page.locator('.neighbours li', { hasText: 'src/login.ts' }).count(),
    ).resolves.toBeGreaterThan(0);
    await expect(page.locator('svg.graph a').count()).resolves.toBeGreaterThan(1);
    expect(errors).toEqual([]);
  });

  it('renders a hostile memory as inert text', async () => {
    await go(`/memories/${hostileId}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(HOSTILE_TITLE);
    const state = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      images: document.querySelectorAll('main img, main iframe, main svg[onload], main script').length,
      scriptLinks: Array.from(document.links).filter((a) => a.href.startsWith('javascript:')).length,
      overflow: document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth,
      narrative: document.querySelector('.text')?.textContent?.length ?? 0,
    }));
    expect(state).toEqual({
      pwned: null,
      images: 0,
      scriptLinks: 0,
      overflow: 0,
      narrative: expect.any(Number),
    });
    expect(state.narrative).toBeGreaterThan(LONG_WORD.length);
    await expect(
      page.locator('article li', { hasText: 'javascript:window.__pwned=5' }).isVisible(),
    ).resolves.toBe(true);
    // The same text in a search result and in the live list stays text too.
    await go('/search?q=onerror');
    await expect(page.locator('.hits .title').first().textContent()).resolves.toBe(HOSTILE_TITLE);
    await go('/');
    expect(await page.evaluate(() => window.__pwned ?? null)).toBeNull();
    expect(errors).toEqual([]);
  });

  it('focuses the searchbox with Ctrl-K, keeps the filters in the URL, and says why each hit matched', async () => {
    await go('/sessions');
    await page.keyboard.press('Control+K');
    await page.waitForURL(/\/search/);
    const box = page.getByRole('searchbox');
    await expect(box.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await box.fill('payment client retry');
    await box.press('Enter');
    await page.waitForURL(/q=payment\+client\+retry/);
    const payment = idsTouching('src/payments/client.ts');
    expect(payment.length).toBeGreaterThan(0);
    const firstHit = await page.locator('.hits .title').first().getAttribute('href');
    expect(payment.map((id) => `/memories/${id}`)).toContain(firstHit);
    const why = (await page.locator('.hits .why').first().textContent())?.replace(/\s+/g, ' ');
    expect(why).toMatch(
      /score [\d.]+ = relevance [\d.]+ × recency [\d.]+ × type [\d.]+ × status [\d.]+ · holds \d+% of the words/,
    );
    await page.getByLabel('Source').selectOption('manual');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/source=manual/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('payment client retry');
    await page.keyboard.press('Control+K');
    await expect(box.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
  });

  it('shows exactly what a session was told, with each memory’s score and token cost, and tests recall', async () => {
    const logged = store.contextLog.ofSession('session-b');
    const prompt = logged.find((l) => l.hook === 'UserPromptSubmit' && l.items.length > 0);
    expect(prompt).toBeDefined();
    await go('/sessions/session-b');
    const told = page.locator('details.injection', { hasText: 'Told with this prompt' }).first();
    await told.locator('summary').click();
    await expect(told.locator('pre.context').textContent()).resolves.toBe(prompt?.text);
    const first = prompt?.items[0];
    const row = told.locator('tbody tr').first();
    await expect(row.textContent()).resolves.toContain(titleOf(first?.id as string));
    await expect(row.textContent()).resolves.toContain(`${Math.round((first?.score ?? 0) * 100)}%`);
    await expect(row.locator('td').last().textContent()).resolves.toBe(String(first?.tokens));
    await expect(
      page.locator('details.injection', { hasText: 'Told at SessionStart' }).count(),
    ).resolves.toBe(1);

    await page.getByLabel(/A prompt/).fill('payment client backoff');
    await page.getByRole('button', { name: /Show what it would inject now/ }).click();
    const wouldTell = await page.locator('#recall-result tbody tr a').first().getAttribute('href');
    expect(idsTouching('src/payments/client.ts').map((id) => `/memories/${id}`)).toContain(wouldTell);
  });

  it('forgets a memory with an undo window, then erases it once the window ends', async () => {
    const id = idsTouching('src/payments/client.ts')[0] as string;
    await go(`/memories/${id}`);
    await page.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    expect(store.observations.get(id)?.status).toBe('archived');
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Forget' }).waitFor();
    expect(store.observations.get(id)?.status).toBe('active');

    await page.getByRole('button', { name: 'Forget' }).click();
    await page.getByText('its text was erased everywhere').waitFor({ timeout: 15_000 });
    expect(store.observations.get(id)).toMatchObject({ status: 'forgotten', title: '[forgotten]' });
  });

  it('bulk-forgets a filter after showing its dry-run count, and undoes it', async () => {
    const before = store.memoryList.count({ sessionId: 'session-a' }, 1000);
    expect(before).toBeGreaterThan(1);
    await go('/search?session=session-a');
    await page.getByRole('button', { name: 'Forget these memories…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('h2').textContent()).resolves.toBe(`Forget ${before} memories?`);
    await dialog.getByRole('button', { name: `Forget ${before}` }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    expect(store.memoryList.count({ sessionId: 'session-a' }, 1000)).toBe(0);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Undo' }).click()]);
    await expect.poll(() => store.memoryList.count({ sessionId: 'session-a' }, 1000)).toBe(before);
  });

  it('shows a memory distilled while the stream page is open', async () => {
    await go('/');
    const prompt = 'Cache the product catalogue in memory for ten minutes';
    turn(sb, 'session-c', dir, prompt, 'src/catalogue/cache.ts');
    const flushed = await sb.engramAsync(['flush']);
    expect(flushed.status, flushed.stderr).toBe(0);
    // The new memory (its session's summary, updated in the same turn, shows up too).
    const made = idsTouching('src/catalogue/cache.ts')[0] as string;
    expect(made).toBeDefined();
    const item = page.locator(`#stream li.change.fresh:has(.op-new):has(a[href="/memories/${made}"])`);
    await item.waitFor({ timeout: 15_000 });
    await expect(item.locator('a.title').textContent()).resolves.toBe(titleOf(made));
    await expect(page.locator('#live-text').textContent()).resolves.toMatch(/live · \d+ new/);
  });

  it('validates a setting on save and shows the error beside it', async () => {
    await go('/settings');
    const form = page.locator('form[data-setting="context.promptMaxItems"]');
    await form.getByRole('textbox').fill('99');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.form-error', { hasText: /at most 20/ }).waitFor();
    await form.getByRole('textbox').fill('4');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('form[data-setting="context.promptMaxItems"] [data-reset]').waitFor();
    expect(sb.engram(['config', 'get', 'context.promptMaxItems']).stdout.trim()).toBe('4');
  });
});

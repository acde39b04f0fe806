/**
 * Real headless Chromium for the browser tests: Debian's chromium driven by playwright-core (1.64, the
 * line that matches Chromium 156), a fresh profile in a temporary directory, background networking
 * off (the test machine has no internet), and axe-core for accessibility.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  close: () => Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run "node scripts/ensure-chromium.mjs" (npm test does)`);
  const profile = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core's serious and critical violations on the page, as "rule: target" lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

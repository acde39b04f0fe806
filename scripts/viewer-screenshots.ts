// npm run screenshots — the README's screenshots of the web viewer (docs/screenshots/*.png): a throw-away
// home filled through the real pipeline (the recorded hook session, the fixture transcripts backfilled,
// a second session told about the first), the real `engram ui`, and headless Chromium.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/support/browser.ts';
import { createSandbox, payloads } from '../test/support/sandbox.ts';
import { startViewerProcess } from '../test/support/viewer-process.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const sb = createSandbox();
try {
  const dir = sb.project('calc', 'git@github.com:example/calc.git');
  // The file the recorded session edits, so the memory graph has a file node for it.
  writeFileSync(join(dir, 'math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
  for (const line of readFileSync(join(root, 'test/fixtures/hook-payloads/bugfix-session.jsonl'), 'utf8')
    .trim()
    .split('\n')) {
    execFileSync(process.execPath, [join(root, 'bin', 'engram'), 'hook'], {
      input: line.replaceAll('{{cwd}}', dir).replaceAll('{{home}}', sb.home),
      env: sb.env,
      cwd: dir,
    });
  }
  // The fixture transcripts, as if Claude Code had kept them for this project (tokens for the metrics).
  const transcripts = mkdtempSync(join(tmpdir(), 'engram-shots-'));
  const slug = join(transcripts, dir.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(slug, { recursive: true });
  for (const name of ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'short.jsonl'])
    writeFileSync(join(slug, name), readFileSync(join(root, 'test/fixtures/transcripts', name), 'utf8'));
  sb.engram(['backfill', '--from', transcripts]);
  sb.engram(['flush']);
  const p = payloads('session-2', dir);
  for (const payload of [
    p.start('startup'),
    p.prompt('Why was the add function in math.js broken?'),
    p.tool('Read', { file_path: join(dir, 'math.js') }, { content: 'export const add = (a, b) => a + b;' }),
    p.stop('It subtracted instead of adding; the fix is in place and the test passes.'),
  ])
    sb.hook(payload, { cwd: dir });
  sb.engram(['flush']);
  rmSync(transcripts, { recursive: true, force: true });

  const viewer = await startViewerProcess(sb);
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(viewer.url);
    const shoot = async (name: string, path: string, prepare?: () => Promise<void>) => {
      await page.goto(`${viewer.origin}${path}`);
      await page.locator('#live[data-state="live"]').waitFor();
      await prepare?.();
      await page.screenshot({ path: join(out, `${name}.png`) });
    };
    await shoot('stream', '/');
    await shoot('search', '/search?q=add+function');
    const first = await page.locator('.hits .title').first().getAttribute('href');
    await shoot('memory', first ?? '/');
    await shoot('session', '/sessions/session-2', async () => {
      await page.locator('details.injection summary').first().click();
    });
    await shoot('graph', `/graph?id=${(first ?? '').split('/').pop() ?? ''}`);
    await shoot('metrics', '/metrics');
    await shoot('health', '/health');
    await shoot('settings', '/settings');
  } finally {
    await browser.close();
    await viewer.stop();
  }
  console.log(`screenshots written to ${out}`);
} finally {
  sb.cleanup();
}

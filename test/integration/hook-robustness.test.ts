import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, HOOK_BUNDLE, payloads, type Sandbox } from '../support/sandbox.ts';

function statusJson(sb: Sandbox) {
  const r = sb.engram(['status', '--json']);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as {
    queue: { inbox: number; pending: number };
    hooks: { hook: string; count: number }[];
  };
}

describe('the hook never fails the agent', () => {
  let sb: Sandbox;
  let cwd: string;
  beforeAll(() => {
    sb = createSandbox();
    cwd = sb.project('robust');
  });
  afterAll(() => sb.cleanup());

  it('keeps good events around bad ones: malformed, empty, binary, non-object and 50 MB payloads', () => {
    const p = payloads('sess-robust', cwd);
    expect(sb.hook(p.prompt('first good prompt')).status).toBe(0);

    const bad: [string, Buffer | string][] = [
      ['malformed', '{"session_id": "x", "hook_event_name": '],
      ['empty', ''],
      ['binary', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
      ['array', '[1,2,3]'],
      ['no session', JSON.stringify({ hook_event_name: 'Stop', cwd })],
      ['unknown event', JSON.stringify({ session_id: 'sess-robust', hook_event_name: 'Notification', cwd })],
    ];
    for (const [, raw] of bad) {
      const r = sb.hook(null, { raw });
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
    }
    // 50 MB: one huge tool output. Stored cut to size, the hook still exits 0.
    const huge = p.tool(
      'Bash',
      { command: 'cat big.log' },
      { stdout: 'y'.repeat(50 * 1024 * 1024), stderr: '' },
    );
    const r = sb.hook(huge);
    expect(r.status).toBe(0);
    // 50 MB of garbage that is not JSON at all.
    expect(sb.hook(null, { raw: Buffer.alloc(50 * 1024 * 1024, 0x7b) }).status).toBe(0);

    expect(sb.hook(p.stop('all good')).status).toBe(0);

    const status = statusJson(sb);
    // the prompt, the huge tool call (capped) and the stop, all from the inbox
    expect(status.queue.pending + status.queue.inbox).toBe(3);
    const log = readFileSync(join(sb.engramHome, 'logs', 'hook.log'), 'utf8');
    expect(log).toMatch(/not valid JSON/);
    expect(log).toMatch(/empty hook payload/);
    expect(log).toMatch(/no usable session_id/);
    expect(log.split('\n').filter((l) => l.includes('WARN')).length).toBeGreaterThanOrEqual(5);

    const dbSize = readFileSync(join(sb.engramHome, 'engram.db')).length;
    expect(dbSize).toBeLessThan(5 * 1024 * 1024);
  });

  it('keeps capturing with a broken config: each bad value falls back, status names it', () => {
    const p = payloads('sess-cfg', cwd);
    const broken = createSandbox({ ENGRAM_CONTEXT_SESSION_START_TOKENS: 'many' });
    try {
      mkdirSync(broken.engramHome, { recursive: true });
      // A typo'd value and a key from a newer engram: before, every event was lost.
      writeFileSync(
        join(broken.engramHome, 'config.json'),
        JSON.stringify({ 'context.promptTokens': 'lots', 'vault.futureKey': true }),
      );
      expect(broken.hook(p.prompt('hello')).status).toBe(0);
      expect(broken.hook(p.stop('done')).status).toBe(0);
      const status = broken.engram(['status', '--json']);
      expect(status.status).toBe(0);
      const report = JSON.parse(status.stdout) as {
        queue: { inbox: number; pending: number };
        config: { issues: { key: string; severity: string }[] };
      };
      expect(report.queue.pending + report.queue.inbox).toBe(2);
      expect(report.config.issues.map((i) => [i.key, i.severity]).sort()).toEqual([
        ['context.promptTokens', 'error'],
        ['context.sessionStartTokens', 'error'],
        ['vault.futureKey', 'warning'],
      ]);
      // Not even JSON: the defaults, a loud status line, and capture goes on.
      writeFileSync(join(broken.engramHome, 'config.json'), '{"context": ');
      expect(broken.hook(p.prompt('again')).status).toBe(0);
      const text = broken.engram(['status']).stdout;
      expect(text).toMatch(/config\.json is not valid JSON/);
      expect(broken.engram(['flush', '--json']).status).toBe(0);
      expect(JSON.parse(broken.engram(['status', '--json']).stdout).counts.prompts).toBe(2);
    } finally {
      broken.cleanup();
    }
  });

  it('exits 0 when the home is unusable', () => {
    const p = payloads('sess-cfg', cwd);
    // ENGRAM_HOME is a regular file: nothing can be written or even logged; the hook still succeeds.
    const blocked = createSandbox();
    try {
      const file = join(blocked.root, 'not-a-dir');
      writeFileSync(file, 'x');
      const r = spawnSync(process.execPath, [HOOK_BUNDLE], {
        input: JSON.stringify(p.prompt('hello')),
        env: { ...blocked.env, ENGRAM_HOME: file },
      });
      expect(r.status).toBe(0);
      expect(r.stdout.toString()).toBe('');
    } finally {
      blocked.cleanup();
    }
  });

  it('exits 0 and says why in the hook log when its capture bundle is missing (a partial install)', () => {
    const partial = createSandbox();
    try {
      // The entry alone, as a broken copy of dist/ would hold it.
      const dist = join(partial.root, 'dist');
      mkdirSync(dist);
      copyFileSync(HOOK_BUNDLE, join(dist, 'hook.cjs'));
      const r = spawnSync(process.execPath, [join(dist, 'hook.cjs')], {
        input: JSON.stringify(payloads('sess-partial', cwd).stop('done')),
        env: partial.env,
      });
      expect(r.status).toBe(0);
      expect(r.stdout.toString()).toBe('');
      const log = readFileSync(join(partial.engramHome, 'logs', 'hook.log'), 'utf8');
      expect(log).toMatch(/ ERROR hook\[\d+\] hook not run .*hook-capture\.cjs/);
    } finally {
      partial.cleanup();
    }
  });

  it('keeps its code cache right: written once, a broken one replaced, the answer the same either way', () => {
    const cached = createSandbox();
    try {
      const project = cached.project('cached');
      const cacheDir = join(cached.engramHome, 'cache');
      const p = payloads('sess-cache', project);
      // A memory to inject, so the database half runs and answers.
      for (const payload of [
        p.start(),
        p.prompt('Which port does the dev server use?'),
        p.stop('The dev server listens on port 4321 (vite.config.ts sets server.port).'),
      ])
        expect(cached.hook(payload).status).toBe(0);
      expect(cached.engram(['flush']).status).toBe(0);
      const start = (session: string) => {
        const r = cached.hook(payloads(session, project).start());
        expect(r.status).toBe(0);
        return r.stdout.toString();
      };
      const first = start('sess-cache-2');
      expect(first).toContain('4321');
      // One cache per bundle: the capture hook's (every event) and the database half's, one for each
      // kind of event it answers (a prompt runs other code of it than a SessionStart).
      const files = readdirSync(cacheDir).sort();
      expect(files).toEqual([
        expect.stringMatching(/^hook-capture-\d+-\d+-v[\d.]+\.v8$/),
        expect.stringMatching(/^hook-context\.prompt-\d+-\d+-v[\d.]+\.v8$/),
        expect.stringMatching(/^hook-context\.start-\d+-\d+-v[\d.]+\.v8$/),
      ]);
      const cacheFiles = files.map((f) => join(cacheDir, f));
      const written = cacheFiles.map((f) => readFileSync(f));
      expect(start('sess-cache-3')).toBe(first.replaceAll('sess-cache-2', 'sess-cache-3'));
      cacheFiles.forEach((f, i) => expect(readFileSync(f).equals(written[i] as Buffer)).toBe(true)); // read, not written again

      const ask = (session: string) => {
        const r = cached.hook(payloads(session, project).prompt('Which port does the dev server use?'));
        expect(r.status).toBe(0);
        return r.stdout.toString();
      };
      const asked = ask('sess-ask-1');
      for (const f of cacheFiles) writeFileSync(f, 'not a code cache');
      expect(start('sess-cache-4')).toBe(first.replaceAll('sess-cache-2', 'sess-cache-4'));
      expect(ask('sess-ask-2')).toBe(asked.replaceAll('sess-ask-1', 'sess-ask-2'));
      for (const f of cacheFiles) expect(readFileSync(f).length).toBeGreaterThan(1000); // replaced by a real one
      // A capture event answers the same from the rewritten cache: its record holds the scrubbed text.
      const captured = cached.hook(p.stop('Set DB_PASSWORD=hunter2hunter2 in the shell.'));
      expect(captured.status).toBe(0);
      const inbox = join(cached.engramHome, 'inbox');
      const records = readdirSync(inbox).map((f) => readFileSync(join(inbox, f), 'utf8'));
      expect(records.some((r) => r.includes('DB_PASSWORD=[REDACTED:assignment]'))).toBe(true);
      expect(records.join('')).not.toContain('hunter2hunter2');
      const log = join(cached.engramHome, 'logs', 'hook.log');
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toMatch(/ (?:ERROR|WARN) /);
    } finally {
      cached.cleanup();
    }
  });
});

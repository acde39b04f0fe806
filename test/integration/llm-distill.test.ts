/**
 * LLM distillation through the real built CLI: hooks capture turns, `engram flush` distils them with
 * an OpenAI-compatible loopback server until a tiny daily cap stops it, `engram status` says so and
 * `engram metrics` shows the ledger. And the capture hook ignores engram's own distiller sessions.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, HOOK_BUNDLE, payloads, type Sandbox } from '../support/sandbox.ts';
import { plausibleReply, startFakeLlmServer, type FakeLlmServer } from '../support/fake-llm-server.ts';

describe('LLM distillation through the CLI', () => {
  let sb: Sandbox;
  let server: FakeLlmServer;
  beforeEach(async () => {
    sb = createSandbox();
    server = await startFakeLlmServer((r) => ({ text: plausibleReply(r.prompt) }));
  });
  afterEach(async () => {
    await server.close();
    sb.cleanup();
  });

  it('distils with the LLM until the daily cap, then heuristically; status and metrics tell', async () => {
    mkdirSync(sb.engramHome, { recursive: true });
    writeFileSync(
      join(sb.engramHome, 'config.json'),
      JSON.stringify({
        distill: {
          provider: 'openai',
          url: server.url,
          model: 'claude-haiku-4-5',
          dailyTokenCap: 2000,
          maxOutputTokens: 400,
          timeoutMs: 5000,
        },
      }),
    );
    const dir = sb.project('shop', 'git@github.com:example/shop.git');
    for (let i = 0; i < 5; i++) {
      const p = payloads(`sess-${i}`, dir);
      for (const payload of [
        p.start(),
        p.prompt(`Add the discount rule number ${i} to the checkout`),
        p.tool(
          'Write',
          { file_path: join(dir, `src/rule-${i}.ts`), content: `export const rule${i} = ${i};\n` },
          {},
        ),
        p.stop(`Added src/rule-${i}.ts with discount rule ${i}.`),
      ])
        expect(sb.hook(payload).status).toBe(0);
    }
    const flush = await sb.engramAsync(['flush', '--json'], { cwd: dir });
    expect(flush.status, flush.stderr).toBe(0);
    expect(JSON.parse(flush.stdout)).toMatchObject({ turns: 5, failures: 0, queue: { pending: 0 } });

    const status = sb.engram(['status', '--json']);
    expect(status.status, status.stderr).toBe(0);
    const distill = (JSON.parse(status.stdout) as { distill: Record<string, unknown> }).distill;
    expect(distill).toMatchObject({
      provider: 'openai',
      active: false,
      budgetReached: { reason: expect.stringMatching(/daily token cap reached/) },
    });
    const reported = server.reported();
    expect(distill['today']).toMatchObject({
      calls: server.exchanges.length,
      tokens: reported.input + reported.output,
      tokenCap: 2000,
    });
    const text = sb.engram(['status']).stdout;
    expect(text).toMatch(/budget reached: daily token cap reached .*falling back to the heuristic distiller/);

    const metrics = sb.engram(['metrics', '--json']);
    const llm = (
      JSON.parse(metrics.stdout) as { llm: { total: Record<string, unknown>; llmObservations: number } }
    ).llm;
    expect(llm.total).toMatchObject({
      calls: 5,
      inputTokens: reported.input,
      outputTokens: reported.output,
      outcomes: { ok: server.exchanges.length, budget_skip: 5 - server.exchanges.length },
    });
    expect(llm.llmObservations).toBe(llm.total['observations']);
    expect(llm.llmObservations).toBeGreaterThan(0);
    expect(sb.engram(['metrics']).stdout).toMatch(/tokens per stored observation/);
  });

  it('a provider that cannot run (no API key) leaves the heuristic distiller in charge, and status says why', () => {
    mkdirSync(sb.engramHome, { recursive: true });
    writeFileSync(join(sb.engramHome, 'config.json'), JSON.stringify({ distill: { provider: 'anthropic' } }));
    const dir = sb.project('shop');
    const p = payloads('sess-nokey', dir);
    for (const payload of [
      p.prompt('Add a health endpoint'),
      p.tool('Write', { file_path: join(dir, 'src/health.ts'), content: 'export const ok = 1;\n' }, {}),
      p.stop('Added src/health.ts.'),
    ])
      expect(sb.hook(payload).status).toBe(0);
    const flush = sb.engram(['flush', '--json'], { cwd: dir });
    expect(flush.status, flush.stderr).toBe(0);
    expect(JSON.parse(flush.stdout)).toMatchObject({ turns: 1, observations: 1 });
    const status = sb.engram(['status']).stdout;
    expect(status).toMatch(
      /last call: unavailable \(CONFIG_INVALID: distill.provider is anthropic but no API key is set\)/,
    );
    expect(server.exchanges).toHaveLength(0);
    const json = JSON.parse(sb.engram(['status', '--json']).stdout) as { distill: Record<string, unknown> };
    expect(json.distill).toMatchObject({
      provider: 'anthropic',
      active: false,
      lastCall: { outcome: 'unavailable' },
    });
  });

  it('the capture hook ignores a session started by engram\u2019s distiller (ENGRAM_DISTILLER=1)', () => {
    const dir = sb.project('shop');
    const p = payloads('distiller-session', dir);
    const marked = { ...sb.env, ENGRAM_DISTILLER: '1' };
    const run = (payload: unknown, env: NodeJS.ProcessEnv) => spawnHook(payload, env);
    expect(run(p.tool('Bash', { command: 'ls' }, { stdout: 'a' }), marked)).toBe(0);
    const inbox = join(sb.engramHome, 'inbox');
    expect(existsSync(inbox) ? readdirSync(inbox) : []).toEqual([]);
    expect(run(p.tool('Bash', { command: 'ls' }, { stdout: 'a' }), sb.env)).toBe(0);
    expect(readdirSync(inbox).filter((f) => f.endsWith('.json'))).toHaveLength(1);
  });
});

function spawnHook(payload: unknown, env: NodeJS.ProcessEnv): number | null {
  return spawnSync(process.execPath, [HOOK_BUNDLE], { input: JSON.stringify(payload), env }).status;
}

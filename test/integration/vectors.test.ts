// The vector half end to end: the real hook captures a turn, the real worker (a detached process)
// distils it and embeds the memory through a loopback Ollama-protocol server, `engram status` shows
// the vectors and `engram search` finds the memory by meaning; the hook bundles carry no sqlite-vec.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeEmbedServer,
  type FakeEmbedServer,
} from '../../src/recall/embedders/fake-embed-server.test-support.ts';
import {
  CLI_BIN,
  createSandbox,
  payloads,
  REPO_ROOT,
  type RunResult,
  type Sandbox,
} from '../support/sandbox.ts';

describe('hybrid search with a configured embedder', () => {
  let sb: Sandbox;
  let server: FakeEmbedServer;
  beforeAll(async () => {
    server = await startFakeEmbedServer({ invoices: 'billing', invoice: 'billing', emailed: 'mail' });
  });
  afterAll(async () => {
    sb?.engram(['worker', 'stop']);
    sb?.cleanup();
    await server.close();
  });

  // Asynchronous, so the loopback server in this process can answer while the CLI runs.
  const engram = (args: string[]): Promise<RunResult> => sb.engramAsync(args);

  it('embeds in the background worker and finds a memory that shares no word with the query', async () => {
    sb = createSandbox({
      ENGRAM_EMBED_PROVIDER: 'ollama',
      ENGRAM_EMBED_MODEL: 'fake-embed',
      ENGRAM_EMBED_URL: server.url,
      ENGRAM_WORKER_POLL_MS: '20',
      ENGRAM_EMBED_QUERY_TIMEOUT_MS: '500',
    });
    const cwd = sb.project('billing', 'git@github.com:example/billing.git');
    const p = payloads('sess-vec', cwd);
    for (const call of [
      p.start(),
      p.prompt('Send the monthly billing mail to each customer'),
      p.tool('Write', { file_path: `${cwd}/src/monthly.ts`, content: 'export const monthly = 1;\n' }, {}),
      p.stop('The monthly billing mail goes out on the first day of each month.'),
      p.end(),
    ]) {
      expect(sb.hook(call).status).toBe(0);
    }
    const before = JSON.parse((await engram(['status', '--json'])).stdout) as { vectors: unknown };
    expect(before.vectors).toMatchObject({ embedder: 'ollama:fake-embed', embedded: 0 });

    expect((await engram(['worker', 'start'])).status).toBe(0);
    interface Status {
      vectors: { embedded: number; pending: number };
    }
    let status: Status | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const current = JSON.parse((await engram(['status', '--json'])).stdout) as Status;
      status = current;
      if (current.vectors.embedded > 0 && current.vectors.pending === 0) break;
      await sleep(50);
    }
    expect(status?.vectors.embedded).toBeGreaterThan(0);
    expect(status?.vectors.pending).toBe(0);
    expect(server.requests.some((r) => r.path === '/api/embed' && r.body.model === 'fake-embed')).toBe(true);
    expect((await engram(['status'])).stdout).toMatch(
      /vectors: ollama:fake-embed · \d+ memories embedded, 0 pending/,
    );

    // "invoices emailed" shares no word (nor stem) with the memory; the fake model maps them close.
    const found = JSON.parse(
      (await engram(['search', 'invoices emailed', '--json', '--cwd', cwd])).stdout,
    ) as {
      mode: string;
      vectorError: string | null;
      results: { title: string }[];
    };
    expect(found.mode).toBe('hybrid');
    expect(found.vectorError).toBeNull();
    expect(found.results[0]?.title).toBe('The monthly billing mail goes out on the first day of each month.');

    // Embedder down: search still answers, lexically, and says why on stderr.
    server.mode = 'error500';
    const lexical = await engram(['search', 'monthly billing', '--cwd', cwd]);
    expect(lexical.status).toBe(0);
    expect(lexical.stdout).toMatch(/monthly billing mail/);
    expect(lexical.stderr).toMatch(/lexical results only: .*HTTP 500/);
    server.mode = 'ok';
    expect(sb.engram(['worker', 'stop']).status).toBe(0);
  });

  it('the MCP search tool is hybrid too (same sandbox, vectors already embedded)', async () => {
    const cwd = join(sb.root, 'projects', 'billing');
    const env = Object.fromEntries(
      Object.entries(sb.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const client = new Client({ name: 'engram-vectors-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, 'mcp'],
        env,
        cwd,
        stderr: 'pipe',
      }),
    );
    try {
      const text = async (query: string) => {
        const r = (await client.callTool({ name: 'search', arguments: { query } })) as {
          content: { text: string }[];
        };
        return r.content.map((c) => c.text).join('\n');
      };
      expect(await text('invoices emailed')).toMatch(
        /The monthly billing mail goes out on the first day of each month\./,
      );
      server.mode = 'hang'; // past embed.queryTimeoutMs the tool answers lexically
      expect(await text('monthly billing')).toMatch(/The monthly billing mail goes out/);
      server.mode = 'ok';
    } finally {
      await client.close();
    }
  });

  it('the hook bundles neither include nor load sqlite-vec', () => {
    for (const bundle of ['hook.cjs', 'hook-capture.cjs', 'hook-context.cjs']) {
      const text = readFileSync(join(REPO_ROOT, 'dist', bundle), 'utf8');
      expect(text).not.toMatch(/getLoadablePath|sqlite-vec-linux|vec0\.so/);
      expect(text).not.toMatch(/require\("sqlite-vec"\)|from "sqlite-vec"/);
    }
    // The capture hook bundle stays small: it holds no store at all (only the five hosts' adapters, a few KB
    // each, in one bundle: loading another host's adapter from a bundle of its own made those hosts'
    // hooks slower than Claude Code's in bench:hooks, and Claude Code's no faster; and the prompt hook's
    // question to the worker, ~5 KB, so an answered prompt never loads the database half). The entry
    // that loads it with V8's code cache is a few lines: no configuration, no scrubber. (61 KB: a
    // command's output keeps both its ends, +0.3 KB; 62 KB: the question to the worker asked with files,
    // no socket, +0.9 KB.)
    expect(readFileSync(join(REPO_ROOT, 'dist', 'hook-capture.cjs')).length).toBeLessThan(62_000);
    expect(readFileSync(join(REPO_ROOT, 'dist', 'hook.cjs')).length).toBeLessThan(4_000);
    // The database half of the context hooks reads only: no scrubber (~18 KB) either.
    expect(readFileSync(join(REPO_ROOT, 'dist', 'hook-context.cjs')).length).toBeLessThan(95_000);
    expect(readFileSync(join(REPO_ROOT, 'dist', 'hook-capture.cjs'), 'utf8')).not.toMatch(
      /vec_distance_cosine|vector_indexes/,
    );
  });
});

/**
 * Each verb of the application layer (src/app/) through every surface that offers it, over one store:
 * the real CLI (`engram …`), the MCP server (`engram mcp` over stdio, the SDK's client) and the viewer's
 * HTTP API (loopback, bearer token). The same verb gives the same result whichever surface asks.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathsFor } from '../../src/core/paths.ts';
import { createMemoryLogger } from '../../src/core/ports.ts';
import { healthDeps } from '../../src/surfaces/cli/health-deps.ts';
import { startViewer, type RunningViewer } from '../../src/surfaces/http/viewer-server.ts';
import { loadViewerSecret } from '../../src/surfaces/http/viewer-secret.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore, type Store } from '../../src/store/store.ts';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';
import { until } from '../support/team-cli.ts';

type Json = Record<string, unknown>;
type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('the verbs of the application layer, through the CLI, MCP and HTTP over one store', () => {
  let sb: Sandbox;
  let cwd: string;
  let mcp: Client;
  let store: Store;
  let viewer: RunningViewer;
  let secret: string;
  let vault: string;

  const cli = (args: string[]) => sb.engram(args, { cwd });
  const cliJson = (args: string[]) => {
    const r = cli([...args, '--json']);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Json;
  };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as CallResult;
  const text = (r: CallResult) => r.content.map((c) => c.text).join('\n');
  const http = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const r = await fetch(`http://127.0.0.1:${viewer.port}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: r.status, body: (await r.json()) as Json };
  };
  /** Every vault file that is a note of the memory `id`. */
  const notesOf = (id: string): string[] => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.name.endsWith('.md') && readFileSync(path, 'utf8').includes(`id: ${id}`)) found.push(path);
      }
    };
    if (existsSync(vault)) walk(vault);
    return found;
  };
  const remember = async (title: string) => {
    const r = await call('remember', {
      title,
      narrative: `${title}, because the tests say so.`,
      standing: false,
    });
    expect(r.isError, text(r)).toBeFalsy();
    return /obs_[0-9a-z]{20}/.exec(text(r))?.[0] as string;
  };

  beforeAll(async () => {
    sb = createSandbox();
    cwd = sb.project('verbs-app', 'git@github.com:example/verbs-app.git');
    const p = payloads('sess-verbs', cwd);
    for (const c of [
      p.start(),
      p.prompt('Fix the flaky retry in the webhook sender'),
      p.tool(
        'Edit',
        {
          file_path: `${cwd}/src/webhook.ts`,
          old_string: 'export function send() {\n  post();\n}',
          new_string: 'export function send() {\n  retry(post);\n}',
        },
        {},
      ),
      p.stop('The webhook sender now retries with backoff.'),
      p.end(),
    ])
      expect(sb.hook(c).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);

    const env = Object.fromEntries(
      Object.entries(sb.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    mcp = new Client({ name: 'engram-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, 'mcp'],
        env,
        cwd,
        stderr: 'pipe',
      }),
    );

    const paths = pathsFor(sb.engramHome);
    secret = loadViewerSecret(paths.viewerSecret);
    store = createStore(openDatabase(paths.db));
    viewer = await startViewer({
      store,
      paths,
      // A forget asked in the viewer is due at once (no undo window), so the viewer carries it out.
      env: { ...env, ENGRAM_VIEWER_FORGET_UNDO_SECONDS: '0' },
      secret,
      assets: { js: '', css: '', version: 'test' },
      clock: { now: () => Date.now() },
      logger: createMemoryLogger(),
      embedder: null,
      port: 0,
      // As `engram ui` composes it, from this project's directory.
      statusDeps: (live) => healthDeps({ paths, env, cwd, ...live }),
    });
    vault = join(sb.root, 'vault');
  });

  afterAll(async () => {
    await mcp?.close();
    await viewer?.stop();
    store?.close();
    sb?.cleanup();
  });

  it('show: the same memory, host and state from each; an unknown id is not found on each', async () => {
    const hits = cliJson(['search', 'webhook', 'retry']) as { results: { id: string }[] };
    const id = hits.results[0]?.id as string;
    expect(id).toMatch(/^obs_/);

    const fromCli = cliJson(['show', id]);
    const fromHttp = await http(`/api/memories/${id}`);
    expect(fromHttp.status).toBe(200);
    const fromMcp = text(await call('get_observations', { ids: [id] }));

    // CLI and HTTP: the same memory view (the memory's JSON and the host its session ran in).
    expect(fromCli).toEqual({ ...(fromHttp.body['memory'] as Json), host: fromHttp.body['host'] });
    expect(fromCli['host']).toBe('claude-code');
    // MCP: the same memory, as text for the model.
    const m = fromCli as {
      id: string;
      type: string;
      title: string;
      status: string;
      source: string;
      narrative: string;
    };
    expect(fromMcp).toContain(`${m.id} [${m.type}] ${m.title}`);
    expect(fromMcp).toContain(`${m.status} · ${m.source} ·`);
    if (m.narrative) expect(fromMcp).toContain(m.narrative);

    const unknown = 'obs_0000000000zzzzzzzzzz';
    const cliMissing = cli(['show', unknown]);
    expect(cliMissing.status).toBe(1);
    expect(cliMissing.stderr).toContain(`no memory with id ${unknown}`);
    const httpMissing = await http(`/api/memories/${unknown}`);
    expect(httpMissing.status).toBe(404);
    expect(httpMissing.body['error']).toMatchObject({
      code: 'NOT_FOUND',
      message: `no memory with id ${unknown}`,
    });
    const mcpMissing = await call('get_observations', { ids: [unknown] });
    expect(mcpMissing.isError).toBe(true);
    expect(text(mcpMissing)).toContain(`no memory with id ${unknown}`);
  });

  it('status: one health model, the same from each', async () => {
    const fromHttp = (await http('/api/health')).body;
    const fromMcp = text(await call('status', {}));
    const fromCliText = cli(['status']);
    const fromCli = cliJson(['status']);

    // A clean run: no hook errors to report (the CLI would move its mark past them).
    expect(fromHttp['hookProblems']).toMatchObject({ errors: 0 });
    const { viewer: own, ...report } = fromHttp;
    expect(own).toMatchObject({ pid: process.pid });
    expect(report).toEqual(fromCli);
    expect(fromCli['counts']).toMatchObject({ projects: 1 });
    expect((fromCli['counts'] as { observations: { active: number } }).observations.active).toBeGreaterThan(
      0,
    );
    // MCP answers with what `engram status` prints.
    expect(fromCliText.status).toBe(0);
    expect(fromMcp).toBe(fromCliText.stdout);
    expect(fromMcp).toMatch(/^engram home: /m);
  });

  it('forget: erased from the store and from the vault at once, whichever surface asks', async () => {
    const ids = {
      cli: await remember('Deploys go out on Tuesdays only'),
      mcp: await remember('The staging database is reset every night'),
      http: await remember('Feature flags live in flags.yaml'),
    };
    expect(cli(['vault', 'export', '--dir', vault, '--all']).status).toBe(0);
    for (const id of Object.values(ids)) expect(notesOf(id), id).toHaveLength(1);

    const byCli = cli(['forget', ids.cli]);
    expect(byCli.stdout).toBe(`forgot ${ids.cli}\n`);
    const byMcp = await call('forget', { id: ids.mcp });
    expect(text(byMcp)).toBe(`Forgot ${ids.mcp}.`);
    const byHttp = await http(`/api/memories/${ids.http}/forget`, { method: 'POST', body: {} });
    expect(byHttp.body).toMatchObject({ count: 1 });
    // The viewer erases it once its undo window (none here) has ended.
    await until(
      async () =>
        ((await http(`/api/memories/${ids.http}`)).body['memory'] as Json)['status'] === 'forgotten',
      'the viewer to carry out its forget',
    );

    for (const [surface, id] of Object.entries(ids)) {
      const shown = cliJson(['show', id]);
      expect(shown['status'], surface).toBe('forgotten');
      expect(JSON.stringify(shown), surface).not.toMatch(/Tuesdays|staging database|flags\.yaml/);
      expect(notesOf(id), `${surface}: the vault note`).toEqual([]);
      // Forgotten already: each surface says there is nothing left to forget.
      expect(cli(['forget', id]).status, surface).toBe(1);
    }
    const origins = store.changes
      .since(0, 10_000)
      .filter((c) => c.op === 'forget')
      .map((c) => [c.entityId, c.origin]);
    expect(origins).toEqual([
      [ids.cli, 'cli'],
      [ids.mcp, 'mcp'],
      [ids.http, 'viewer'],
    ]);
  });
});

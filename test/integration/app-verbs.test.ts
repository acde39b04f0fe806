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

  /** The project the sandbox's session made (its prj_ id). */
  const projectId = () => (cliJson(['search', 'webhook']) as { project: { id: string } }).project.id;
  const idIn = (t: string) => /obs_[0-9a-z]{20}/.exec(t)?.[0] as string;

  it('remember: a new memory from each, standing by its type; the same memory again is seen again on each', async () => {
    const fromCli = cliJson(['remember', 'Release notes are written in past tense', '--type', 'convention']);
    const fromMcp = await call('remember', {
      title: 'Branch names start with the ticket number',
      type: 'convention',
    });
    const fromHttp = await http('/api/memories', {
      method: 'POST',
      body: {
        project: projectId(),
        title: 'Migrations never drop a column in the same release',
        type: 'convention',
      },
    });
    expect(fromMcp.isError, text(fromMcp)).toBeFalsy();
    expect(fromHttp.status).toBe(200);
    const ids = {
      cli: (fromCli['memory'] as Json)['id'] as string,
      mcp: idIn(text(fromMcp)),
      http: (fromHttp.body['memory'] as Json)['id'] as string,
    };
    expect(fromCli['outcome']).toBe('created');
    expect(fromHttp.body['outcome']).toBe('created');
    expect(text(fromMcp)).toMatch(/^Remembered as obs_\w+\. It is standing/);
    for (const [surface, id] of Object.entries(ids)) {
      // The same memory whichever surface said it: standing, in this project; a person's words are
      // the user's, the agent's are capped by its origin (MCP) at tool output.
      expect(cliJson(['show', id]), surface).toMatchObject({
        type: 'convention',
        status: 'active',
        source: 'manual',
        pinned: true,
        trust: surface === 'mcp' ? 'tool' : 'user',
        projectId: projectId(),
      });
    }
    // Said again, on every surface: the one memory is seen again, not stored twice.
    const title = 'Release notes are written in past tense';
    const again = {
      cli: cliJson(['remember', title, '--type', 'convention']),
      mcp: text(await call('remember', { title, type: 'convention' })),
      http: (
        await http('/api/memories', {
          method: 'POST',
          body: { project: projectId(), title, type: 'convention' },
        })
      ).body,
    };
    expect(again.cli).toMatchObject({ outcome: 'seen-again', memory: { id: ids.cli } });
    expect(again.http).toMatchObject({ outcome: 'seen-again', memory: { id: ids.cli } });
    expect(again.mcp).toContain(`The same memory already exists as ${ids.cli}`);
    const origins = store.changes.ofEntity(ids.cli).map((c) => c.origin);
    expect(origins).toEqual(expect.arrayContaining(['cli', 'mcp', 'viewer']));
    expect(origins[0]).toBe('cli');
    // Bad input is refused the same way: exit 2, INPUT_INVALID (400), an isError result.
    expect(cli(['remember', 'ok', '--type', 'mystery']).status).toBe(2);
    const bad = await http('/api/memories', {
      method: 'POST',
      body: { project: projectId(), title: 'x y z', type: 'mystery' },
    });
    expect([bad.status, (bad.body['error'] as Json)['code']]).toEqual([400, 'INPUT_INVALID']);
  });

  it('edit and history: each surface’s edit is a version; the history is the same from each', async () => {
    const id = await remember('The cache is warmed at deploy time');
    const byCli = cliJson(['edit', id, '--title', 'The cache is warmed after each deploy']);
    expect(byCli).toMatchObject({ id, version: 2, title: 'The cache is warmed after each deploy' });
    const byMcp = await call('edit', { id, narrative: 'A job warms it once the new release is healthy.' });
    expect(text(byMcp)).toBe(`Edited ${id} (now v3).`);
    const byHttp = await http(`/api/memories/${id}`, { method: 'PATCH', body: { type: 'decision' } });
    expect(byHttp.body['memory']).toMatchObject({ id, version: 4, type: 'decision' });

    const shown = cliJson(['show', id]);
    expect(shown).toMatchObject({
      version: 4,
      type: 'decision',
      title: 'The cache is warmed after each deploy',
      narrative: 'A job warms it once the new release is healthy.',
    });
    expect(byHttp.body['memory']).toEqual(
      Object.fromEntries(Object.entries(shown).filter(([k]) => k !== 'host')),
    );

    const fromCli = cliJson(['history', id]);
    const fromHttp = (await http(`/api/memories/${id}/history`)).body;
    const fromMcp = text(await call('history', { id }));
    expect(fromHttp).toEqual(fromCli);
    const versions = fromCli['versions'] as { version: number; replacedByOp: string; origin: string }[];
    expect(versions.map((v) => [v.version, v.replacedByOp, v.origin])).toEqual([
      [3, 'edit', 'viewer'],
      [2, 'edit', 'mcp'],
      [1, 'edit', 'cli'],
    ]);
    expect(fromMcp).toMatch(new RegExp(`^${id} v4 \\(current, `));
    expect(fromMcp).toMatch(/\n {2}v3: \[\w+\] .* — replaced by edit \(viewer\)/);
    expect(fromMcp.split('\n').filter((l) => /^ {2}v\d: /.test(l))).toHaveLength(3);

    // Nothing to change, and an unknown id, are refused the same way on each.
    expect(cli(['edit', id]).status).toBe(2);
    expect((await call('edit', { id })).isError).toBe(true);
    expect((await http(`/api/memories/${id}`, { method: 'PATCH', body: {} })).status).toBe(400);
    const unknown = 'obs_0000000000zzzzzzzzzz';
    expect(cli(['history', unknown]).status).toBe(1);
    expect(text(await call('history', { id: unknown }))).toContain(`no memory with id ${unknown}`);
    expect((await http(`/api/memories/${unknown}/history`)).status).toBe(404);
  });

  it('pin: pinned from one surface is pinned on all; a repeat changes nothing; an unknown id is not found', async () => {
    const id = await remember('Screenshots in the docs are 1280 wide');
    const pinned = async () =>
      ((await http(`/api/memories/${id}`)).body['memory'] as Json)['pinned'] as boolean;

    expect(cli(['pin', id]).stdout).toBe(`pinned ${id}\n`);
    expect(await pinned()).toBe(true);
    expect(text(await call('pin', { id, pinned: true }))).toBe(`${id} was already pinned (standing).`);
    expect(text(await call('pin', { id, pinned: false }))).toBe(`${id} is now not pinned.`);
    expect(cliJson(['show', id])['pinned']).toBe(false);
    const byHttp = await http(`/api/memories/${id}/pin`, { method: 'POST', body: { pinned: true } });
    expect(byHttp.body['memory']).toMatchObject({ id, pinned: true });
    expect(text(await call('get_observations', { ids: [id] }))).toContain(id);
    expect(cliJson(['pin', id])).toEqual({ pinned: [], unchanged: [id], missing: [] });
    expect(
      store.changes
        .ofEntity(id)
        .filter((c) => c.op === 'pin' || c.op === 'unpin')
        .map((c) => [c.op, c.origin]),
    ).toEqual([
      ['pin', 'cli'],
      ['unpin', 'mcp'],
      ['pin', 'viewer'],
    ]);

    const unknown = 'obs_0000000000zzzzzzzzzz';
    const cliMissing = cli(['pin', unknown]);
    expect([cliMissing.status, cliMissing.stdout]).toEqual([1, `no memory with id ${unknown}\n`]);
    const mcpMissing = await call('pin', { id: unknown, pinned: true });
    expect([mcpMissing.isError, text(mcpMissing)]).toEqual([
      true,
      expect.stringContaining(`no memory with id ${unknown}`),
    ]);
    expect(
      (await http(`/api/memories/${unknown}/pin`, { method: 'POST', body: { pinned: true } })).status,
    ).toBe(404);
  });

  it('invalidate, archive and restore: one memory corrected from each surface', async () => {
    const id = await remember('Staging runs on the smallest instance size');
    const status = () => cliJson(['show', id])['status'];
    expect(text(await call('invalidate', { id, reason: 'staging moved to the medium size' }))).toBe(
      `Invalidated ${id}: staging moved to the medium size`,
    );
    expect(status()).toBe('invalidated');
    expect(cliJson(['restore', id])).toMatchObject({ id, status: 'active' });
    const archived = await http(`/api/memories/${id}/archive`, { method: 'POST', body: {} });
    expect(archived.body['memory']).toMatchObject({
      status: 'archived',
      statusReason: 'archived in the viewer',
    });
    expect(
      (await http(`/api/memories/${id}/restore`, { method: 'POST', body: {} })).body['memory'],
    ).toMatchObject({
      status: 'active',
    });
    expect(cli(['invalidate', id, 'the', 'size', 'changed']).stdout).toMatch(
      new RegExp(`^invalidated ${id} \\(now v\\d+\\)`),
    );
    expect(cliJson(['show', id])).toMatchObject({ status: 'invalidated', statusReason: 'the size changed' });
    expect(cli(['archive', id, '--reason', 'old']).stdout).toMatch(/^archived /);
    // A reason is needed to invalidate, on each surface.
    expect(cli(['invalidate', id]).status).toBe(2);
    expect(
      (await http(`/api/memories/${id}/invalidate`, { method: 'POST', body: { reason: ' ' } })).status,
    ).toBe(400);
  });

  it('search: the same memories in the same order from each; a query with no words is refused on each', async () => {
    const words = 'webhook retry backoff';
    const fromCli = (cliJson(['search', ...words.split(' ')]) as { results: { id: string; score: number }[] })
      .results;
    const fromHttp = (
      await http(`/api/memories/search?q=${encodeURIComponent(words)}&project=${projectId()}&limit=10`)
    ).body as {
      hits: { memory: { id: string }; score: number }[];
    };
    const fromMcp = text(await call('search', { query: words }));
    expect(fromCli.length).toBeGreaterThan(0);
    expect(fromHttp.hits.map((h) => h.memory.id)).toEqual(fromCli.map((r) => r.id));
    // The same scores, up to the recency the moments between the calls took off.
    fromHttp.hits.forEach((h, i) => expect(h.score).toBeCloseTo(fromCli[i]?.score ?? -1, 4));
    expect(fromMcp.match(/obs_[0-9a-z]{20}/g)).toEqual(fromCli.map((r) => r.id));

    const cliNone = cli(['search', '!!!', '???']);
    expect([cliNone.status, cliNone.stderr]).toEqual([
      2,
      expect.stringContaining('the query has no searchable words'),
    ]);
    const httpNone = await http(`/api/memories/search?q=${encodeURIComponent('!!! ???')}`);
    expect([httpNone.status, (httpNone.body['error'] as Json)['code']]).toEqual([400, 'INPUT_INVALID']);
    const mcpNone = await call('search', { query: '!!! ???' });
    expect([mcpNone.isError, text(mcpNone)]).toEqual([
      true,
      expect.stringContaining('the query has no searchable words'),
    ]);
  });

  it('metrics: one metrics model, the same from each', async () => {
    const fromCli = cliJson(['metrics', '--days', '30']);
    const fromHttp = (await http('/api/metrics?days=30')).body;
    expect(fromHttp).toEqual(fromCli);
    expect(fromCli['days']).toHaveLength(30);
    expect((fromCli['capture'] as { hooks: { hook: string }[] }).hooks.map((h) => h.hook)).toContain(
      'SessionStart',
    );
    expect(
      (fromCli['memoriesPerDay'] as { count: number }[]).reduce((n, d) => n + d.count, 0),
    ).toBeGreaterThan(0);
    // MCP answers with what `engram metrics` prints.
    const printed = cli(['metrics']);
    expect(printed.status).toBe(0);
    expect(text(await call('metrics', {}))).toBe(printed.stdout);
    expect(printed.stdout).toMatch(/^Token usage by model/);
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

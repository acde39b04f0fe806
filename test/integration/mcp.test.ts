import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/surfaces/mcp/tool-names.ts';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('engram mcp over stdio, driven by the SDK client', () => {
  let sb: Sandbox;
  let cwd: string;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallResult;
  const text = (r: CallResult) => r.content.map((c) => c.text).join('\n');

  beforeAll(async () => {
    sb = createSandbox();
    cwd = sb.project('mcp-app', 'git@github.com:example/mcp-app.git');
    const p = payloads('sess-mcp', cwd);
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
    ]) {
      expect(sb.hook(c).status).toBe(0);
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const env = Object.fromEntries(
      Object.entries(sb.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp'],
      env,
      cwd,
      stderr: 'pipe',
    });
    client = new Client({ name: 'engram-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    sb?.cleanup();
  });

  it('lists its tools with input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    const search = tools.find((t) => t.name === 'search');
    expect(search?.inputSchema.properties).toHaveProperty('query');
    expect(search?.inputSchema.required).toEqual(['query']);
  });

  it('walks the memory graph: related (scored, with why) and a neighbourhood', async () => {
    const id = /obs_[0-9a-z]{20}/.exec(text(await call('search', { query: 'webhook retry' })))?.[0] as string;
    const related = text(await call('related', { ref: 'src/webhook.ts' }));
    expect(related).toMatch(/^Related to \[file\] src\/webhook\.ts · fil_/);
    expect(related).toContain(`${id} — links here (touches)`);
    const around = text(await call('neighbourhood', { ref: id }));
    expect(around).toContain('→ touches [file] src/webhook.ts');
    expect(around).toMatch(/→ part_of \[session\] Session \d{4}-\d\d-\d\d Fix the flaky retry/);
    const missing = await call('related', { ref: 'no/such/file.ts' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/How to fix: Use a memory id from search/);
  });

  it('reads and changes only its own project by id, unless the call names the other project', async () => {
    const other = sb.project('billing', 'git@github.com:example/billing.git');
    const p = payloads('sess-billing', other);
    for (const c of [
      p.start(),
      p.prompt('Round invoice totals half-even'),
      p.tool(
        'Edit',
        { file_path: `${other}/src/invoice.ts`, old_string: 'Math.round', new_string: 'roundHalfEven' },
        {},
      ),
      p.stop('Invoice totals now round half-even.'),
      p.end(),
    ]) {
      expect(sb.hook(c).status).toBe(0);
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const listed = text(await call('search', { query: 'invoice half-even', all_projects: true }));
    const theirs = /obs_[0-9a-z]{20}/.exec(listed)?.[0] as string;
    expect(theirs).toBeDefined();
    const status = () =>
      JSON.parse(sb.engram(['show', theirs, '--json']).stdout) as { status: string; title: string };

    for (const [tool, args] of [
      ['get_observations', { ids: [theirs] }],
      ['timeline', { id: theirs }],
      ['related', { ref: theirs }],
      ['neighbourhood', { ref: theirs }],
      ['invalidate', { id: theirs, reason: 'planted from another repository' }],
      ['forget', { id: theirs }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(text(r), tool).toMatch(/belongs to another project \("billing"\)/);
      expect(text(r), tool).toMatch(/project: "billing"/);
      expect(text(r), tool).not.toContain('half-even');
    }
    expect(status().status).toBe('active');

    // Named explicitly, the other project's memory is read and changed.
    expect(text(await call('get_observations', { ids: [theirs], project: 'billing' }))).toContain(
      'half-even',
    );
    const named = await call('invalidate', {
      id: theirs,
      reason: 'superseded by banker rounding',
      project: 'billing',
    });
    expect(named.isError).toBeFalsy();
    expect(status().status).toBe('invalidated');
  });

  it('searches, reads, browses, remembers, invalidates and forgets', async () => {
    const found = await call('search', { query: 'webhook retry' });
    expect(found.isError).toBeFalsy();
    const id = /obs_[0-9a-z]{20}/.exec(text(found))?.[0] as string;
    expect(text(found)).toMatch(
      /\[bugfix\] The webhook sender now retries with backoff\. · src\/webhook\.ts/,
    );

    const full = await call('get_observations', { ids: [id] });
    expect(text(full)).toMatch(/src\/webhook\.ts: changed send/);
    expect(text(full)).toMatch(/retries with backoff/);

    expect(text(await call('timeline', { id }))).toContain(`→ ${id} [bugfix]`);
    expect(text(await call('get_session_summaries', {}))).toMatch(/Request: Fix the flaky retry/);

    const saved = await call('remember', {
      title: 'Webhook retries are capped at 5 attempts',
      type: 'decision',
      narrative: 'More would overload the partner API.',
    });
    const savedId = /obs_[0-9a-z]{20}/.exec(text(saved))?.[0] as string;
    // A decision saved on purpose is standing knowledge: in every session's start index.
    expect(text(saved)).toMatch(/It is standing/);
    expect(sb.engram(['context', '--cwd', cwd]).stdout).toMatch(
      new RegExp(
        `Standing knowledge[\\s\\S]*${savedId} \\[decision\\] Webhook retries are capped at 5 attempts`,
      ),
    );
    expect(text(await call('search', { query: 'capped attempts', type: 'decision' }))).toContain(savedId);

    expect(text(await call('invalidate', { id: savedId, reason: 'the cap was raised to 8' }))).toMatch(
      /Invalidated/,
    );
    expect(text(await call('search', { query: 'capped attempts' }))).toMatch(/No memories match/);

    expect(text(await call('forget', { id }))).toMatch(/Forgot/);
    expect(text(await call('search', { query: 'webhook retry' }))).not.toContain(id);
  });

  it('tells the model when to search, marks read-only and destructive tools, and scrubs what it is told to remember', async () => {
    expect(client.getInstructions()).toMatch(/Before changing something, search for earlier decisions/);
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['search', 'timeline', 'get_observations', 'get_session_summaries', 'status'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: true });
    expect(hints['forget']).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints['invalidate']).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(hints['remember']).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const fake = ['ghp', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234'].join('_');
    const saved = await call('remember', {
      title: `Deploy token for CI is ${fake}`,
      narrative: `export GITHUB_TOKEN=${fake}`,
      facts: [`token ${fake}`],
    });
    const savedId = /obs_[0-9a-z]{20}/.exec(text(saved))?.[0] as string;
    const full = text(await call('get_observations', { ids: [savedId] }));
    expect(full).not.toContain(fake);
    expect(full).toMatch(/\[REDACTED/);
  });

  it('cuts a result that would be too long at whole items and names the ids it left out', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await call('remember', {
        title: `Long note number ${i} about the billing reconciliation`,
        narrative: `${'The reconciliation job compares ledger rows with bank statements. '.repeat(40)}(${i})`,
      });
      ids.push(/obs_[0-9a-z]{20}/.exec(text(r))?.[0] as string);
    }
    const r = text(await call('get_observations', { ids }));
    expect(r.length).toBeLessThan(16_500);
    const shown = ids.filter((id) => r.includes(`${id} [`));
    const left = ids.filter((id) => !shown.includes(id));
    expect(shown.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    expect(r).toMatch(
      new RegExp(`${left.length} more not shown \\(over the output budget\\): ${left.join(', ')}`),
    );
  });

  it('answers bad calls with isError results that say how to fix them', async () => {
    const missing = await call('get_observations', { ids: ['obs_00000000000000000000'] });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/How to fix: Use ids from a search result/);
    const bad = await call('timeline', {});
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/give a memory id or a date/);
    const malformed = await call('get_observations', { ids: ['not-an-id'] });
    expect(malformed.isError).toBe(true);
    for (const hostile of [
      'NEAR(a b)',
      '"unbalanced',
      "'; DROP TABLE observations; --",
      'x'.repeat(1999),
      '😀 ((( *',
    ]) {
      const r = await call('search', { query: hostile });
      expect(text(r)).not.toMatch(/SqliteError|fts5: syntax/);
    }
  });
  it('what the agent saves right after its turn read a web page is external content; after local work, tool output', async () => {
    const trustOf = (r: CallResult) => {
      const id = /obs_[0-9a-z]{20}/.exec(text(r))?.[0] as string;
      return (JSON.parse(sb.engram(['show', id, '--json']).stdout) as { trust: string }).trust;
    };
    // The first session's turn only edited a file of the project.
    expect(trustOf(await call('remember', { title: 'Webhook payloads are signed with HMAC-SHA256' }))).toBe(
      'tool',
    );
    // A new turn fetches a page; its events are still in the inbox (no flush) when the agent saves.
    const p = payloads('sess-mcp-web', cwd);
    for (const c of [
      p.start(),
      p.prompt('Look up how the partner API wants webhooks retried'),
      p.tool(
        'WebFetch',
        { url: 'https://partner.example.com/docs/webhooks', prompt: 'retry policy' },
        { result: 'Retry with exponential backoff, at most 8 attempts.' },
      ),
    ])
      expect(sb.hook(c).status).toBe(0);
    expect(
      trustOf(await call('remember', { title: 'The partner API allows at most 8 webhook retry attempts' })),
    ).toBe('external');
  });
});

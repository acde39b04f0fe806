// npm run bench:recall [-- --json] [--verbose] [--config key=value …]
//
// Retrieval measured on coding questions: the five labelled real sessions of
// ../shared/datasets/labelled-sessions are backfilled into a fresh store (as `bench:quality --set
// labelled` does), and each gold item's questions — asked as a later session would, in its own words
// (bench/labelled/) — go to every surface that retrieves: `engram search --json` (the real CLI bundle,
// as a child process), the MCP `search` tool (the real server over an in-memory transport), and the
// prompt-time injection (what UserPromptSubmit would inject). Reported per surface: recall@1 and @5
// of a memory that holds the item (the judge's holders), and for prompt time how often it injects
// nothing and how many of its lines hold no gold item of the question's session (noise).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ProjectId } from '../src/core/ids.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { createMcpServer } from '../src/surfaces/mcp/server.ts';
import { labelledDatasetDir, labelledDatasetPresent, runLabelled } from './lib/labelled-set.ts';

const repo = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dataset = labelledDatasetDir(repo);
if (!labelledDatasetPresent(dataset)) {
  process.stdout.write(`bench:recall needs the labelled sessions at ${dataset} (development only).\n`);
  process.exit(0);
}

const [l1, l5, l15] = loadavg();
process.stdout.write(
  `machine: ${cpus().length} cores, load ${l1?.toFixed(2)} / ${l5?.toFixed(2)} / ${l15?.toFixed(2)} (1/5/15 min)\n`,
);

// `--config key=value` (repeatable): a setting other than its default, e.g. context.promptMinScore=0.3.
const overrides: Record<string, unknown> = {};
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--config') continue;
  const [key, value] = (args[i + 1] ?? '').split('=');
  if (!key || value === undefined) throw new Error('--config takes key=value');
  overrides[key] = Number.isNaN(Number(value)) ? value : Number(value);
}
if (Object.keys(overrides).length > 0) process.stdout.write(`settings: ${JSON.stringify(overrides)}\n`);
const report = runLabelled(dataset, { keep: true, config: overrides });
const storeDir = report.storeDir as string;
const home = mkdtempSync(join(tmpdir(), 'engram-bench-recall-home-'));
const ids = (text: string) => [...new Set(text.match(/\bobs_[0-9a-z]{20,}\b/g) ?? [])];

interface Row {
  item: string;
  question: string;
  holders: string[];
  cli: string[];
  mcp: string[];
  prompt: string[];
  search: string[];
  goldHolders: Set<string>;
}

try {
  const store = createStore(openDatabase(join(storeDir, 'engram.db')));
  // Every memory that holds some gold item of its session: a prompt-time line outside these is noise.
  const holdsGold = new Set(report.memories.filter((m) => m.matches.length > 0).map((m) => m.memory.id));
  const rows: Row[] = [];
  const clients = new Map<string, Client>();
  const mcpFor = async (projectId: string): Promise<Client> => {
    const known = clients.get(projectId);
    if (known) return known;
    const project = store.sessions.project(projectId as ProjectId);
    if (!project) throw new Error(`no project ${projectId}`);
    const server = createMcpServer({
      openStore: () => createStore(openDatabase(join(storeDir, 'engram.db'))),
      cwd: project.root,
      now: () => Date.now(),
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench-recall', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.set(projectId, client);
    return client;
  };
  for (const q of report.questions) {
    const cli = spawnSync(
      process.execPath,
      [
        join(repo, 'dist', 'cli.mjs'),
        'search',
        q.question,
        '--json',
        '--limit',
        '5',
        '--project',
        q.projectId,
      ],
      { env: { ...process.env, HOME: home, ENGRAM_HOME: storeDir }, encoding: 'utf8' },
    );
    if (cli.status !== 0) throw new Error(`engram search failed (${cli.status}): ${cli.stderr}`);
    const cliIds = (JSON.parse(cli.stdout) as { results: { id: string }[] }).results.map((r) => r.id);
    const client = await mcpFor(q.projectId);
    const answer = (await client.callTool({
      name: 'search',
      arguments: { query: q.question, limit: 5 },
    })) as {
      content: { type: string; text?: string }[];
    };
    const mcpIds = ids(answer.content.map((c) => c.text ?? '').join('\n'));
    rows.push({
      item: q.item,
      question: q.question,
      holders: q.holders,
      cli: cliIds,
      mcp: mcpIds,
      prompt: q.prompt,
      search: q.search,
      goldHolders: holdsGold,
    });
  }
  for (const c of clients.values()) await c.close();
  store.close();

  const answerable = rows.filter((r) => r.holders.length > 0);
  const at = (list: string[], k: number, r: Row) => list.slice(0, k).some((id) => r.holders.includes(id));
  const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
  const surfaces: [string, (r: Row) => string[]][] = [
    ['engram search (CLI)', (r) => r.cli],
    ['MCP search tool', (r) => r.mcp],
    ['prompt-time injection', (r) => r.prompt],
  ];
  const figures = surfaces.map(([name, pick]) => ({
    surface: name,
    at1: answerable.filter((r) => at(pick(r), 1, r)).length,
    at5: answerable.filter((r) => at(pick(r), 5, r)).length,
  }));
  const promptEmpty = rows.filter((r) => r.prompt.length === 0).length;
  const promptLines = rows.reduce((n, r) => n + r.prompt.length, 0);
  const promptNoise = rows.reduce((n, r) => n + r.prompt.filter((id) => !r.goldHolders.has(id)).length, 0);
  // The same questions asked in another project of the set, where nothing answers them.
  const asked = report.questions;
  const strayPrompts = asked.filter((q) => q.elsewhere.length > 0).length;
  const strayLines = asked.reduce((n, q) => n + q.elsewhere.length, 0);
  const cliSameAsInProcess = rows.filter((r) => r.cli.join() === r.search.slice(0, 5).join()).length;

  if (args.includes('--json')) {
    process.stdout.write(
      `${JSON.stringify({ questions: rows.length, answerable: answerable.length, figures, promptEmpty, promptLines, promptNoise, strayPrompts, strayLines }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `\nLabelled real sessions: ${report.questions.length} questions (${answerable.length} about an item engram stores), ${report.memories.length} memories\n\n`,
    );
    process.stdout.write('surface                | recall@1          | recall@5\n');
    for (const f of figures)
      process.stdout.write(
        `${f.surface.padEnd(22)} | ${`${f.at1}/${answerable.length} (${pct(f.at1, answerable.length)})`.padEnd(17)} | ${f.at5}/${answerable.length} (${pct(f.at5, answerable.length)})\n`,
      );
    process.stdout.write(
      `\nprompt time: injects nothing for ${promptEmpty} of ${rows.length} questions (${pct(promptEmpty, rows.length)}); ${promptNoise} of ${promptLines} injected lines hold no gold item (${pct(promptNoise, promptLines)})\n`,
    );
    process.stdout.write(
      `asked in another project of the set (nothing there answers them): injects something for ${strayPrompts} of ${asked.length} questions (${pct(strayPrompts, asked.length)}), ${strayLines} lines\n`,
    );
    process.stdout.write(
      `the CLI's top 5 equal the in-process search's for ${cliSameAsInProcess} of ${rows.length} questions\n`,
    );
    if (args.includes('--verbose'))
      for (const r of rows.filter((x) => x.holders.length > 0 && !at(x.cli, 5, x) && !at(x.prompt, 5, x)))
        process.stdout.write(`missed by both: ${r.item} "${r.question}" holders ${r.holders.join(' ')}\n`);
    if (args.includes('--verbose'))
      for (const r of rows.filter((x) => x.holders.length > 0 && at(x.cli, 5, x) && !at(x.prompt, 5, x)))
        process.stdout.write(
          `prompt misses what search finds: ${r.item} "${r.question}" holders ${r.holders.join(' ')} → injected ${r.prompt.join(' ') || 'nothing'}\n`,
        );
    if (args.includes('--verbose'))
      for (const q of asked.filter((x) => x.elsewhere.length > 0))
        for (const id of q.elsewhere)
          process.stdout.write(
            `stray: "${q.question}" → ${id} ${report.memories.find((m) => m.memory.id === id)?.memory.title.slice(0, 90) ?? ''}\n`,
          );
  }
} finally {
  rmSync(storeDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}

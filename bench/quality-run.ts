// npm run bench:quality [-- --set own|labelled|all] [--mode live|backfill|llm|all] [--verbose] [--json]
//
// Sets (default: all; `labelled` only when its dataset is there):
//   own       our own labelled set, below (scenario sessions and MIT fixture transcripts; --mode applies)
//   labelled  the five real labelled sessions of ../shared/datasets/labelled-sessions (next to the repo,
//             never needed by the tests; skipped with a note when absent): copied to a temp dir, through
//             engram's real backfill into a fresh store, judged against the reviewers' gold lists with
//             the keyword annotations of bench/labelled/ (bench/lib/labelled-judge.ts): memories useful /
//             duplicate / wrong / unmatched, gold items fully / partly / missed per session and per kind,
//             wrong lines injected at SessionStart and at prompt time, recall@1/@5 of search and
//             prompt-time recall for questions about each item. --json: `own` alone prints the array
//             below as before; with `labelled`, one object { own, labelled }.
//
// The own set: what engram remembers, judged against hand labels (test/fixtures/quality/labels.ts): the MIT fixture
// transcripts (test/fixtures/transcripts) and the scenario sessions (test/fixtures/quality/scenarios.ts),
// then 50 ordinary filler sessions, then the SessionStart index of each project. Reports the share of
// stored memories that are useful, duplicates, wrong ones by kind, recall of the required gold items,
// and whether the standing items are still in the index.
//
// Modes (default: live and backfill):
//   live      the scenario sessions replayed as they happened: the transcript written up to each hook,
//             the hook payload captured, the worker's drain after each Stop (with its transcript read);
//             the fixture transcripts (no hook payloads exist for them) through backfill
//   backfill  every transcript through `engram backfill`'s ingest (sessions the hooks never saw)
//   llm       live, with the opt-in LLM distiller against the loopback fake of the Messages API: the
//             fake answers plausible JSON, so this checks the plumbing only, not the LLM's quality
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { resolveProject } from '../src/capture/project-identity.ts';
import { resolveConfig, type Config } from '../src/core/config.ts';
import { createMemoryLogger } from '../src/core/ports.ts';
import { createHeuristicDistiller } from '../src/distill/heuristic-distiller.ts';
import { renderSessionContext } from '../src/recall/render-context.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore, type Store } from '../src/store/store.ts';
import { createMcpServer } from '../src/surfaces/mcp/server.ts';
import { backfill } from '../src/worker/backfill.ts';
import { drainOnce, drainOnceAsync, type TurnPreparer } from '../src/worker/drain.ts';
import type { ClaudeSession } from '../test/support/claude-session.ts';
import { replayLive } from '../test/support/replay.ts';
import { plausibleReply, startFakeLlmServer } from '../test/support/fake-llm-server.ts';
import {
  HELD_OUT_GOLD,
  HELD_OUT_MUST_NEVER,
  HELD_OUT_SESSIONS,
  heldOutSessions,
  LEDGER_CWD,
} from '../test/fixtures/quality/held-out.ts';
import {
  GOLD,
  LABELLED_SESSIONS,
  MUST_NEVER,
  type GoldItem,
  type MustNever,
} from '../test/fixtures/quality/labels.ts';
import {
  fillerSessions,
  REMEMBERED_DECISION,
  scenarioSessions,
  SHOP_CWD,
} from '../test/fixtures/quality/scenarios.ts';
import { fakeLlmConfig, fakeLlmPreparer } from './lib/fake-llm-step.ts';
import { printLabelled } from './lib/labelled-report.ts';
import {
  labelledDatasetDir,
  labelledDatasetPresent,
  runLabelled,
  type LabelledReport,
} from './lib/labelled-set.ts';
import { judge, type JudgedMemory, type JudgeReport } from './lib/quality-judge.ts';

type Mode = 'live' | 'backfill' | 'llm';
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const modeArg = args[args.indexOf('--mode') + 1];
const modes: Mode[] =
  args.includes('--mode') && modeArg !== 'all'
    ? [modeArg as Mode]
    : args.includes('--mode')
      ? ['live', 'backfill', 'llm']
      : ['live', 'backfill'];
const SETS = ['own', 'labelled'] as const;
type SetName = (typeof SETS)[number];
const setArg = args.includes('--set') ? args[args.indexOf('--set') + 1] : 'all';
if (setArg !== 'all' && !(SETS as readonly string[]).includes(setArg ?? ''))
  throw new Error(`--set takes ${SETS.join(', ')} or all, not "${setArg}"`);
const sets: readonly SetName[] = setArg === 'all' ? SETS : [setArg as SetName];
const LABELLED_DIR = labelledDatasetDir(join(import.meta.dirname, '..'));
const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'transcripts');
const OTHER_FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'transcripts-reliability');
const FILLERS = 50;
const PROJECT_CWDS = [
  SHOP_CWD,
  '/home/USER/projects/spotter-worktrees/spotter-gqc',
  '/home/marco/projects/spotter',
  // claude-reliability's snapshot-test sessions ran in temporary folders.
  '/tmp/tmp8fga7k7q',
  '/tmp/tmpqwh7888i',
  '/tmp/tmpw6sk2trg',
  '/home/da/akerud/random',
  // d-kimuson/claude-code-viewer's sample session (subagents inline).
  '/path/to/Demo',
];

/** The scenario sessions are written here (ids a1000000-…); the others are real transcripts. */
const REAL = LABELLED_SESSIONS.filter((id) => !id.startsWith('a1000000-')).length;
const projectOf = (cwd: string) => resolveProject(cwd).id as string;

interface Replay {
  store: Store;
  config: Config;
  prepare: TurnPreparer | null;
  transcripts: string;
}

/** The worker's pass over the queue (with the transcript read after each turn, as live). */
async function drain(r: Replay, now: number, force = false): Promise<void> {
  const deps = {
    store: r.store,
    distiller: createHeuristicDistiller(),
    logger: createMemoryLogger(),
    readTranscripts: true,
  };
  const options = { force, now, staleTurnMs: 15 * 60_000, maxAttempts: 3 };
  if (r.prepare) await drainOnceAsync(deps, options, r.prepare);
  else drainOnce(deps, options);
}

/** Write sessions as finished transcript files (file times = session start, so backfill reads them in order). */
function writeTranscripts(root: string, sessions: ClaudeSession[]): void {
  for (const s of sessions) {
    const dir = join(root, s.cwd.replace(/\//g, '-'));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${s.sessionId}.jsonl`);
    writeFileSync(path, s.jsonl());
    const at = new Date((s.steps[0]?.at ?? 0) / 1);
    utimesSync(path, at, at);
  }
}

async function remember(dbPath: string): Promise<void> {
  const server = createMcpServer({
    openStore: () => createStore(openDatabase(dbPath)),
    cwd: SHOP_CWD,
    now: () => REMEMBERED_DECISION.at,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const result = await client.callTool({
    name: 'remember',
    arguments: {
      title: REMEMBERED_DECISION.title,
      narrative: REMEMBERED_DECISION.narrative,
      type: REMEMBERED_DECISION.type,
    },
  });
  if (result.isError) throw new Error(`remember failed: ${JSON.stringify(result.content)}`);
  await client.close();
  await server.close();
}

interface ModeResult {
  mode: Mode;
  report: JudgeReport;
  heldOut: JudgeReport;
  indexText: Map<string, string>;
  byType: Record<string, number>;
  bySource: Record<string, number>;
}

async function runMode(mode: Mode): Promise<ModeResult> {
  const work = mkdtempSync(join(tmpdir(), `engram-bench-quality-${mode}-`));
  const dbPath = join(work, 'engram.db');
  const store = createStore(openDatabase(dbPath));
  const llmServer =
    mode === 'llm' ? await startFakeLlmServer((q) => ({ text: plausibleReply(q.prompt) })) : null;
  try {
    const config = llmServer ? fakeLlmConfig(llmServer.url) : resolveConfig({ env: {} });
    const prepare: TurnPreparer | null = llmServer ? fakeLlmPreparer(store, config, work) : null;
    const r: Replay = { store, config, prepare, transcripts: join(work, 'projects') };
    const distiller = createHeuristicDistiller();
    // The real fixture transcripts (February 2026): through backfill in every mode.
    const fixtures = join(work, 'fixture-projects', '-home-USER-projects-spotter');
    cpSync(FIXTURES, fixtures, { recursive: true });
    rmSync(join(fixtures, 'README.md'));
    // Sessions of another project (each in its own project folder).
    cpSync(OTHER_FIXTURES, join(work, 'fixture-projects'), { recursive: true });
    rmSync(join(work, 'fixture-projects', 'README.md'));
    backfill(store, {
      root: join(work, 'fixture-projects'),
      distiller,
      now: () => Date.parse('2026-03-01T00:00:00Z'),
    });

    const scenarios = [...scenarioSessions(), ...heldOutSessions()];
    const fillers = fillerSessions(FILLERS);
    const end = (fillers[fillers.length - 1]?.time() ?? 0) + 3_600_000;
    const liveDrain = (now: number) => drain(r, now);
    if (mode === 'backfill') {
      writeTranscripts(r.transcripts, scenarios);
      backfill(store, { root: r.transcripts, distiller, now: () => REMEMBERED_DECISION.at - 1 });
      await remember(dbPath);
      writeTranscripts(r.transcripts, fillers);
      backfill(store, { root: r.transcripts, distiller, now: () => end });
    } else {
      for (const s of scenarios) await replayLive(store, s, r.transcripts, liveDrain, config);
      await remember(dbPath);
      for (const s of fillers) await replayLive(store, s, r.transcripts, liveDrain, config);
      await drain(r, end, true);
    }

    const indexText = new Map<string, string>();
    const byType: Record<string, number> = {};
    const bySource: Record<string, number> = {};
    /** The labelled memories and summaries of a set's projects, and its projects' start index. */
    const judgeSet = (
      cwds: readonly string[],
      sessions: readonly string[],
      gold: GoldItem[],
      mustNever: MustNever[],
    ) => {
      const indexed = new Map<string, Set<string>>();
      const memories: JudgedMemory[] = [];
      for (const cwd of cwds) {
        const project = resolveProject(cwd);
        const rendered = renderSessionContext(store, {
          project,
          sessionId: 'bench-next-session',
          source: 'startup',
          now: end,
          budgetTokens: config['context.sessionStartTokens'],
          recentCount: config['context.recentCount'],
          standingShare: config['context.standingShare'],
        });
        indexed.set(project.id, new Set(rendered.observationIds));
        indexText.set(cwd, rendered.text);
        for (const o of store.observations.recent(project.id, 100_000)) {
          const labelled = o.sessionId === null || sessions.includes(o.sessionId) || o.sessionId === 'mcp';
          if (!labelled) continue;
          byType[o.type] = (byType[o.type] ?? 0) + 1;
          bySource[o.source] = (bySource[o.source] ?? 0) + 1;
          memories.push({
            id: o.id,
            sessionId: o.sessionId,
            projectId: o.projectId,
            type: o.type,
            title: o.title,
            subtitle: o.subtitle,
            narrative: o.narrative,
            facts: o.facts,
            createdAt: o.createdAt,
          });
        }
      }
      const summaries = sessions.flatMap((id) => {
        const s = store.summaries.get(id);
        return s ? [{ sessionId: id, projectId: s.projectId, nextSteps: s.nextSteps }] : [];
      });
      return judge({ memories, summaries, gold, mustNever, projectOf, indexed });
    };
    const report = judgeSet(PROJECT_CWDS, LABELLED_SESSIONS, GOLD, MUST_NEVER);
    const heldOut = judgeSet([LEDGER_CWD], HELD_OUT_SESSIONS, HELD_OUT_GOLD, HELD_OUT_MUST_NEVER);
    return { mode, report, heldOut, indexText, byType, bySource };
  } finally {
    store.close();
    await llmServer?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);

function print(results: ModeResult[]): void {
  console.log(
    `Memory quality on the labelled set: ${LABELLED_SESSIONS.length} sessions (${REAL} real fixture transcripts, ${LABELLED_SESSIONS.length - REAL} scenarios), ${GOLD.filter((g) => g.required).length} required gold items, ${MUST_NEVER.length} must-never items, then ${FILLERS} filler sessions`,
  );
  console.log('targets: useful >= 85 %, duplicates <= 3 %, wrong 0, recall >= 80 %, standing all kept\n');
  const header = [
    'mode',
    'stored',
    'useful',
    'dupl.',
    'junk',
    'wrong (non-user/resolved-open/mistyped/abandoned/false-fix/guess)',
    'recall',
    'optional',
    'standing',
  ];
  console.log(header.join(' | '));
  const row = (label: string, r: JudgeReport) => {
    const w = r.wrong;
    console.log(
      [
        label,
        r.stored,
        `${r.useful} (${pct(r.useful, r.stored)})`,
        `${r.duplicates} (${pct(r.duplicates, r.stored)})`,
        r.junk,
        `${w['non-user-statement'] + w['resolved-as-open'] + w.mistyped + w['abandoned-branch'] + w['false-fix'] + w.guess} (${w['non-user-statement']}/${w['resolved-as-open']}/${w.mistyped}/${w['abandoned-branch']}/${w['false-fix']}/${w.guess})`,
        `${r.recall.matched}/${r.recall.total} (${pct(r.recall.matched, r.recall.total)})`,
        `${r.optional.matched}/${r.optional.total}`,
        `${r.standing.kept}/${r.standing.total}`,
      ].join(' | '),
    );
  };
  for (const { mode, report } of results) row(mode, report);
  console.log(
    `\nHeld out (written after the rules were settled; see test/fixtures/quality/held-out.ts): ${HELD_OUT_SESSIONS.length} sessions of another project, ${HELD_OUT_GOLD.filter((g) => g.required).length} required gold items, ${HELD_OUT_MUST_NEVER.length} must-never items`,
  );
  for (const { mode, heldOut } of results) row(`${mode} (held out)`, heldOut);
  if (results.some((x) => x.mode === 'llm'))
    console.log(
      '\nllm: the loopback fake answers plausible JSON; these figures check the plumbing, not an LLM.',
    );
  for (const { mode, report: r, heldOut, indexText, byType, bySource } of results) {
    const list = (x: Record<string, number>) =>
      Object.entries(x)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ');
    console.log(`\n[${mode}] by type: ${list(byType)}; by source: ${list(bySource)}`);
    if (r.recall.missing.length > 0)
      console.log(`[${mode}] required gold items not recalled: ${r.recall.missing.join(', ')}`);
    if (r.standing.missing.length > 0)
      console.log(`[${mode}] standing items not in the index: ${r.standing.missing.join(', ')}`);
    for (const w of r.wrongItems) console.log(`[${mode}] wrong: ${w}`);
    if (heldOut.recall.missing.length > 0)
      console.log(
        `[${mode}] held out, required gold items not recalled: ${heldOut.recall.missing.join(', ')}`,
      );
    if (heldOut.standing.missing.length > 0)
      console.log(
        `[${mode}] held out, standing items not in the index: ${heldOut.standing.missing.join(', ')}`,
      );
    for (const w of heldOut.wrongItems) console.log(`[${mode}] held out, wrong: ${w}`);
    if (!flag('--verbose')) continue;
    for (const v of [...r.verdicts, ...heldOut.verdicts])
      console.log(
        `[${mode}] ${v.verdict.padEnd(9)} [${v.memory.type}] ${v.memory.title}${v.items.length ? `  <- ${v.items.join(', ')}` : ''}`,
      );
    console.log(`[${mode}] SessionStart index of ${SHOP_CWD}:\n${indexText.get(SHOP_CWD)}`);
  }
}

const results: ModeResult[] = [];
if (sets.includes('own')) for (const mode of modes) results.push(await runMode(mode));
let labelled: LabelledReport | { skipped: string } | null = null;
if (sets.includes('labelled'))
  labelled = labelledDatasetPresent(LABELLED_DIR)
    ? runLabelled(LABELLED_DIR)
    : { skipped: `${LABELLED_DIR} not found (it sits next to the repository); labelled set skipped` };

/** The own set's JSON, as it always was. */
function ownJson() {
  return results.map(({ mode, report, heldOut }) => {
    const plain = (r: JudgeReport) => ({
      ...r,
      verdicts: r.verdicts.map((v) => ({
        id: v.memory.id,
        type: v.memory.type,
        title: v.memory.title,
        verdict: v.verdict,
        items: v.items,
      })),
    });
    return { mode, ...plain(report), heldOut: plain(heldOut) };
  });
}

/** The labelled set's JSON: every figure, each memory by id with its verdict and facets. */
function labelledJson(r: LabelledReport | { skipped: string }) {
  if ('skipped' in r) return r;
  return {
    ...r,
    memories: r.memories.map((j) => ({
      id: j.memory.id,
      sessionId: j.memory.sessionId,
      type: j.memory.type,
      title: j.memory.title,
      verdict: j.verdict,
      matches: j.matches,
      mustNever: j.mustNever,
    })),
  };
}

if (flag('--json')) {
  const out =
    labelled === null
      ? ownJson()
      : sets.includes('own')
        ? { own: ownJson(), labelled: labelledJson(labelled) }
        : labelledJson(labelled);
  console.log(JSON.stringify(out, null, 2));
} else {
  if (results.length > 0) print(results);
  if (labelled !== null) {
    if (results.length > 0) console.log('');
    if ('skipped' in labelled) console.log(labelled.skipped);
    else printLabelled(labelled, flag('--verbose'));
  }
}

// npm run bench:hooks [-- --json] [--runs N] [--memories N] [--keep [DIR]] [--against DIST]
// What a hook costs, as Claude Code pays it: whole `node dist/hook.cjs` processes with a payload on
// stdin, measured against `node -e 0` in the same run, alternating (python3 reads each child's wall time,
// CPU time and peak RSS). Each round is `node -e 0` and then one short session as Claude Code sends it:
// SessionStart, UserPromptSubmit, three PostToolUse payloads (test output; code full of secret-ish names;
// a MultiEdit just under capture.maxEventBytes) and Stop. A hook's ratio is the median over rounds of its
// wall time / that round's `node -e 0` (its p95 over rounds is printed beside it); each payload is held
// to its own budget (DESIGN.md §4: 1.1× typical, 1.5× at the size cap; 1.2× for the context hooks).
// Conditions as in real use: worker autostart on and a worker running (this bench starts it and stops
// it by its pid at the end, and any other one a hook started), so every hook's own check for a running
// worker is measured while the worker imports and distils the turns; the context hooks read a store of
// 100k memories written through the real store (bench/lib/synthetic-memories.ts; the hooks run in a
// clone of its project "atlas"). --keep [DIR] caches that store, shared with bench:search.
// UserPromptSubmit is measured twice in each round, with the same prompt in sessions of their own: as
// it runs with a worker (which answers it through its recall folder) and on the fallback path, the hook reading
// the store itself (`worker.recallSocket` off for that row: the worker not asked, as when none runs);
// the first is held to 1.2×, the fallback to 1.5× (DESIGN.md §4). Both rows log at debug level, so the
// hook log says which of the first row's runs the worker answered.
// --against DIST: the hooks of another build (its dist/ folder, e.g. main's) run in the same rounds, on a
// copy of the same store with that build's own worker (two builds sharing one home would take the
// store over from each other's worker, and a prompt's hook takes answers only from its own build's),
// each with sessions of its own, so a change is measured against what it replaces in one run whatever
// the machine is doing: each row gets a second row for that build and the ratio between (its SessionStart row
// logged at the same level as this build's, and how many of its runs read the snapshot alone: which path a
// SessionStart takes follows the worker's commits, so the two builds' rows may mix the paths differently —
// and the ratio between them over the rounds where both read the snapshot alone).
// The other hosts' hooks (bench/lib/host-hook-payloads.ts) run beside Claude Code's of the same kind,
// each such group in an order rotated by one each round, and are compared with it twice: wall-time ratio
// over Claude Code's, and CPU time over Claude Code's paired by round (what the hook itself does more);
// Claude Code's SessionStart runs a second time in the group (a control: the noise under those ratios);
// another host's hook is called slower when its wall ratio exceeds 1 + that noise (at least 2 %) and its
// paired CPU ratio exceeds 1.02 (it does more itself).
// Every run prints the machine's load (1/5/15 min, before and after) and core count: other work on the
// same cores moves every figure, so only ratios measured side by side in one run compare.
// --json prints one JSON object: {capture, sessionStart, userPromptSubmit: {ratio, ratioP95, p50, p95,
// peakRss, …}, machine, …};
// progress goes to stderr (`npm run -s` keeps npm's own banner off stdout).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeLoad, machineLoad } from './lib/machine.ts';
import { fmt, median, quantile } from './lib/stats.ts';
import { corpus, queries } from './lib/synthetic-memories.ts';
import { keepDirFrom, syntheticStore } from './lib/synthetic-store.ts';
import { otherHostPayloads, type ClaudeKind } from './lib/host-hook-payloads.ts';
import { CONFIG_SCHEMA } from '../src/core/config.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const json = args.includes('--json');
const runs = flag('--runs', 40);
const memories = flag('--memories', 100_000);
const keepDir = keepDirFrom(args, tmpdir());
const againstDir = args.includes('--against') ? String(args[args.indexOf('--against') + 1]) : null;
/** Progress goes to stderr, so that with --json stdout holds the one JSON object. */
const progress = (s: string) => process.stderr.write(`${s}\n`);
const out = (s: string) => {
  if (!json) console.log(s);
};

/** DESIGN.md §4: capture ≤ 1.1× for typical payloads and ≤ 1.5× at the size cap; context hooks ≤ 1.2×. */
const BUDGETS = {
  capture: 1.1,
  captureAtCap: 1.5,
  sessionStart: 1.2,
  userPromptSubmit: 1.2,
  userPromptSubmitFallback: 1.5,
} as const;
const MAX_EVENT_BYTES = CONFIG_SCHEMA['capture.maxEventBytes'].default;
const root = join(import.meta.dirname, '..');
const hook = join(root, 'dist', 'hook.cjs');
const cli = join(root, 'dist', 'cli.mjs');
const node = process.execPath;

/** Claude Code's SessionStart measured a second time, beside the first (the comparisons' noise). */
const CONTROL = `Claude Code SessionStart again (control), ${memories} memories`;

const COMMANDS = {
  baseline: 'node -e 0',
  sessionStart: `SessionStart, ${memories} memories`,
  userPromptSubmit: `UserPromptSubmit, ${memories} memories`,
  userPromptSubmitFallback: `UserPromptSubmit, ${memories} memories, fallback`,
  bash: 'capture: PostToolUse Bash, test output',
  edit: 'capture: PostToolUse Edit, secret-ish code',
  atCap: 'capture: PostToolUse MultiEdit at the size cap',
  stop: 'capture: Stop',
} as const;

/** CPU time (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null; // no /proc here, or the process is gone
  }
}

interface Run {
  wall_ms: number;
  /** The process's own CPU time (user + system), ms: what a busy machine does not inflate. */
  cpu_ms: number;
  rss_mb: number;
  status: number;
  stdout_bytes: number;
}
interface Command {
  argv: string[];
  stdin?: string;
  stdins?: string[];
  env?: Record<string, string>;
  /** Neighbours of one group run in an order rotated each round (measure.py). */
  group?: string;
}

function measure(commands: Record<string, Command>, env: Record<string, string>): Record<string, Run[]> {
  const result = execFileSync('python3', [join(root, 'bench', 'lib', 'measure.py')], {
    input: JSON.stringify({ runs, warmup: 3, commands, env }),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(result.toString()) as Record<string, Run[]>;
}

// ---- payloads ------------------------------------------------------------------------------------

/**
 * Round i is one short session `bench-<i>`, as Claude Code would send it: SessionStart, a prompt, three
 * tool calls (test output; code full of secret-ish names; a MultiEdit just under the size cap) and Stop,
 * so the worker meets whole turns to import and distil, as in real use.
 */
function payloads(project: string, transcript: string, work: string) {
  const rounds = runs + 3;
  const session = (i: number) => `bench-${String(i).padStart(5, '0')}`;
  const base = (i: number, event: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      session_id: session(i),
      transcript_path: transcript,
      cwd: project,
      hook_event_name: event,
      ...extra,
    });
  const tool = (i: number, name: string, input: unknown, response: unknown) =>
    base(i, 'PostToolUse', {
      tool_name: name,
      tool_input: input,
      tool_response: response,
      tool_use_id: `toolu_bench_${name}_${i}`,
      duration_ms: 1200,
    });
  const perRound = (make: (i: number) => string) => Array.from({ length: rounds }, (_, i) => make(i));
  const bash = perRound((i) =>
    tool(
      i,
      'Bash',
      { command: 'npm test', description: 'Run the tests' },
      {
        stdout: 'PASS src/a.test.ts\n'.repeat(40) + 'Tests: 40 passed, 40 total\n',
        stderr: '',
        interrupted: false,
      },
    ),
  );
  // Code full of secret-ish names: wakes every scrubber rule.
  const secretish = (i: number) =>
    `export function readToken${i}(key: string, password?: string) {\n  const auth = \`Bearer \${cache.get(key)}\`;\n  return { auth, secret: process.env.SECRET_${i} };\n}\n`;
  const edit = perRound((i) =>
    tool(
      i,
      'Edit',
      {
        file_path: join(project, 'src/auth/token-store.ts'),
        old_string: 'export function readToken(key: string) {\n  return cache.get(key);\n}\n'.repeat(20),
        new_string: Array.from({ length: 20 }, (_, k) => secretish(k)).join(''),
      },
      { filePath: join(project, 'src/auth/token-store.ts'), structuredPatch: [] },
    ),
  );
  // As large as a payload gets whole: many fields, each under capture.maxFieldChars, all kept and scrubbed.
  const edits: { old_string: string; new_string: string }[] = [];
  const multiEdit = (i: number) =>
    tool(
      i,
      'MultiEdit',
      { file_path: join(project, 'src/auth/tokens.ts'), edits },
      { filePath: 'src/auth/tokens.ts' },
    );
  for (let k = 0; ; k++) {
    edits.push({
      old_string: secretish(k).repeat(12).slice(0, 3800),
      new_string: secretish(k + 1)
        .repeat(12)
        .slice(0, 3800),
    });
    if (Buffer.byteLength(multiEdit(rounds)) > MAX_EVENT_BYTES - 2048) {
      edits.pop();
      break;
    }
  }
  const atCap = perRound(multiEdit);
  const stop = perRound((i) =>
    base(i, 'Stop', {
      stop_hook_active: false,
      last_assistant_message:
        'Ran the tests (40 passed) and moved the token helpers into src/auth/tokens.ts.',
    }),
  );
  const sessionStart = perRound((i) => base(i, 'SessionStart', { source: 'startup' }));
  const prompts = queries(corpus(), 0, 4 * rounds)
    .filter((q) => q.kind === 'question' || q.kind === 'identifier' || q.kind === 'path')
    .map((q) => q.text);
  const userPromptSubmit = perRound((i) =>
    base(i, 'UserPromptSubmit', { permission_mode: 'default', prompt: prompts[i % prompts.length] }),
  );
  // One more session, before the measured ones: what SessionStart injects.
  const preview = base(rounds, 'SessionStart', { source: 'startup' });
  // The same kinds of hook as the other hosts send them (`engram hook --host <name>`).
  const hosts = otherHostPayloads({ rounds, session, prompts, project, transcript, work, memories, root });
  return { bash, edit, atCap, stop, sessionStart, userPromptSubmit, preview, hosts };
}

// ---- another build, side by side ----------------------------------------------------------------------

const hookKinds = ['sessionStart', 'userPromptSubmit', 'bash', 'edit', 'atCap', 'stop'] as const;
const againstLabel = (k: (typeof hookKinds)[number]) => `${COMMANDS[k]} [against]`;

/**
 * A copy of another build's hook bundles beside this checkout (so its database half finds the same
 * node_modules), its bundles renamed so the two builds keep their V8 code caches apart (a build whose
 * hook.cjs loads hook-capture.cjs with the cache, and an older one whose hook.cjs is the whole hook).
 * The copy is a folder named `dist` with `node_modules` beside it, as in a checkout: the CLI finds the
 * files it starts (its worker's recall thread) in the folder it runs from only by that name, and the
 * database half finds the addon beside it without resolving it.
 */
function againstBuild(dist: string): { dir: string; hook: string; cli: string } {
  const base = join(root, `.bench-against-${process.pid}`);
  const dir = join(base, 'dist');
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(base, 'node_modules'));
  const renamed = (name: string) => `against-${name}`;
  const copy = (name: string) => {
    let text = readFileSync(join(dist, name), 'utf8');
    for (const bundle of ['hook-context.cjs', 'hook-capture.cjs'])
      text = text.replaceAll(`"${bundle}"`, `"${renamed(bundle)}"`);
    writeFileSync(join(dir, name === 'hook.cjs' ? name : renamed(name)), text);
  };
  const entry = readFileSync(join(dist, 'hook.cjs'), 'utf8');
  const capture = existsSync(join(dist, 'hook-capture.cjs'));
  if (
    !(capture ? readFileSync(join(dist, 'hook-capture.cjs'), 'utf8') : entry).includes('"hook-context.cjs"')
  )
    throw new Error(`${dist}'s hook does not load hook-context.cjs by that name`);
  if (capture && !entry.includes('"hook-capture.cjs"'))
    throw new Error(`${dist}/hook.cjs does not load hook-capture.cjs by that name`);
  copy('hook.cjs');
  if (capture) copy('hook-capture.cjs');
  copyFileSync(join(dist, 'hook-context.cjs'), join(dir, renamed('hook-context.cjs')));
  // Its CLI and what the CLI loads (its worker runs from here: the recall thread, chunks).
  for (const name of readdirSync(dist))
    if (name.endsWith('.mjs')) copyFileSync(join(dist, name), join(dir, name));
  return { dir, hook: join(dir, 'hook.cjs'), cli: join(dir, 'cli.mjs') };
}

// ---- the worker ------------------------------------------------------------------------------------

function workerStatus(env: Record<string, string>, cliOf = cli): { running: boolean; pid: number | null } {
  return JSON.parse(execFileSync(node, [cliOf, 'worker', 'status', '--json'], { env }).toString()) as {
    running: boolean;
    pid: number | null;
  };
}

/** Start `engram worker run` and wait until it holds the worker lock (its pid is the running one). */
async function startWorker(env: Record<string, string>, cliOf = cli): Promise<ChildProcess> {
  const child = spawn(node, [cliOf, 'worker', 'run'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 30_000;
  while (workerStatus(env, cliOf).pid !== child.pid) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the worker (pid ${child.pid}) did not start: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

/** Stop the worker this bench started (by its pid), and any one a hook started meanwhile. */
async function stopWorkers(child: ChildProcess, env: Record<string, string>, cliOf = cli): Promise<number[]> {
  const stopped: number[] = [];
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    if (child.pid !== undefined) stopped.push(child.pid);
  }
  const other = workerStatus(env, cliOf);
  if (other.running && other.pid !== null) {
    execFileSync(node, [cliOf, 'worker', 'stop'], { env });
    stopped.push(other.pid);
  }
  return stopped;
}

// ---- report ------------------------------------------------------------------------------------------

interface Figures {
  /** Median over the paired runs of (hook wall time / node -e 0 wall time of the same round). */
  ratio: number;
  /** The 95th percentile of the same paired ratios. */
  ratioP95: number;
  /** Wall time, ms. */
  p50: number;
  p95: number;
  /** Peak resident set size of the hook process, MB (max over runs). */
  peakRss: number;
  budget: number;
  verdict: 'PASS' | 'OVER';
  failed: number;
}

function figures(runsOf: Run[], baseline: Run[], budget: number): Figures {
  const wall = runsOf.map((r) => r.wall_ms);
  const ratios = wall.map((w, i) => w / (baseline[i] as Run).wall_ms);
  const ratio = median(ratios);
  return {
    ratio,
    ratioP95: quantile(ratios, 0.95),
    p50: median(wall),
    p95: quantile(wall, 0.95),
    peakRss: Math.max(...runsOf.map((r) => r.rss_mb)),
    budget,
    verdict: ratio <= budget ? 'PASS' : 'OVER',
    failed: runsOf.filter((r) => r.status !== 0).length,
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const rounded = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? round3(v) : v])) as T;

// ---- main ------------------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'engram-bench-hooks-'));
const engramHome = join(work, 'engram-home');
const env: Record<string, string> = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: join(work, 'home'),
  ENGRAM_HOME: engramHome,
  ENGRAM_WORKER_AUTOSTART: 'true',
};
let worker: ChildProcess | null = null;
/** With --against: that build's own worker, on its own copy of the store. */
let againstWorker: { child: ChildProcess; env: Record<string, string>; cli: string } | null = null;
try {
  const project = join(work, 'atlas');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(
    join(project, '.git', 'config'),
    '[remote "origin"]\n\turl = git@github.com:acme/atlas.git\n',
  );
  mkdirSync(engramHome, { recursive: true, mode: 0o700 });

  progress(`bench:hooks: a store of ${memories.toLocaleString('en')} memories…`);
  const synthetic = syntheticStore(corpus(), memories, { cacheDir: keepDir, workDir: work });
  const db = join(engramHome, 'engram.db');
  if (keepDir) copyFileSync(synthetic.path, db);
  else renameSync(synthetic.path, db);
  progress(
    synthetic.generated
      ? `  generated through the store in ${(synthetic.generated.ms / 1000).toFixed(1)} s`
      : `  copied from the cache ${synthetic.path}`,
  );

  // The store is new to this engram: catch up once (the graph step's first walk over every memory), so
  // the hooks meet a worker in its steady state — distilling their own turns — not a one-off catch-up.
  const caughtUp = performance.now();
  execFileSync(node, [cli, 'flush'], { env, stdio: 'ignore' });
  progress(`  one-off catch-up (engram flush) ${((performance.now() - caughtUp) / 1000).toFixed(1)} s`);
  // The other build's copy of the store, taken while no process has it open (flush closed it whole).
  const againstHome = join(work, 'engram-home-against');
  if (againstDir) {
    mkdirSync(againstHome, { recursive: true, mode: 0o700 });
    copyFileSync(db, join(againstHome, 'engram.db'));
  }
  worker = await startWorker(env);
  const p = payloads(project, join(work, 'transcript.jsonl'), work);
  const startOut = execFileSync(node, [hook], { input: p.preview, env }).toString();
  const contextChars =
    startOut === '' ? 0 : String(JSON.parse(startOut).hookSpecificOutput.additionalContext).length;

  const load = machineLoad();
  const workerCpu = cpuMsOf(worker.pid);

  const hookRun = (stdins: string[]): Command => ({ argv: [node, hook], stdins });
  const against = againstDir ? againstBuild(againstDir) : null;
  // The other build gets a store and a worker of its own (a copy of the same caught-up store): two
  // builds' hooks sharing one home would each start their own build's worker, which takes the store
  // over from the other's, and a prompt's hook takes an answer only from a worker of its own build.
  if (against) {
    const againstEnv = { ...env, ENGRAM_HOME: againstHome };
    againstWorker = { child: await startWorker(againstEnv, against.cli), env: againstEnv, cli: against.cli };
    execFileSync(node, [against.hook], { input: p.preview, env: againstEnv });
  }
  const againstRuns = against
    ? Object.fromEntries(
        hookKinds.map((k) => [
          againstLabel(k),
          {
            argv: [node, against.hook],
            stdins: p[k].map((x) => x.replace('"session_id":"bench-', '"session_id":"bench-against-')),
            env: {
              ENGRAM_HOME: againstHome,
              // At the level this build's rows log at (what rendered each run is a debug line).
              ...(k === 'userPromptSubmit' || k === 'sessionStart' ? { ENGRAM_LOG_LEVEL: 'debug' } : {}),
            },
          },
        ]),
      )
    : {};
  progress(
    `  ${runs} rounds (+3 warm-up) of ${Object.keys(COMMANDS).length + 1 + Object.keys(againstRuns).length + p.hosts.reduce((n, h) => n + h.kinds.length, 0)} processes, alternating…`,
  );
  // Each other host's hook beside Claude Code's of the same kind, the group's order rotated each round
  // (measure.py): in a fixed order the first hook of a group follows a quiet moment and each later one
  // follows a hook whose event the worker is then importing, which weighed on every host but Claude Code.
  const others = (kind: ClaudeKind): Record<string, Command> =>
    Object.fromEntries(
      p.hosts.flatMap((h) =>
        h.kinds
          .filter((k) => k.versus === kind)
          .map((k) => [k.label, { argv: [node, hook, '--host', h.host], stdins: k.stdins, group: kind }]),
      ),
    );
  const claudeIn = (kind: ClaudeKind, command: Command): Command => ({ ...command, group: kind });
  const results = measure(
    {
      ...againstRuns,
      [COMMANDS.baseline]: { argv: [node, '-e', '0'] },
      [COMMANDS.sessionStart]: claudeIn('sessionStart', {
        ...hookRun(p.sessionStart),
        env: { ENGRAM_LOG_LEVEL: 'debug' },
      }),
      // Claude Code's SessionStart again, in sessions of its own: how far apart two runs of the same
      // hook come out in this run (the noise under the comparisons below).
      [CONTROL]: claudeIn('sessionStart', {
        ...hookRun(
          p.sessionStart.map((x) => x.replace('"session_id":"bench-', '"session_id":"bench-control-')),
        ),
        env: { ENGRAM_LOG_LEVEL: 'debug' },
      }),
      ...others('sessionStart'),
      [COMMANDS.userPromptSubmitFallback]: {
        ...hookRun(
          p.userPromptSubmit.map((x) => x.replace('"session_id":"bench-', '"session_id":"bench-fallback-')),
        ),
        env: { ENGRAM_LOG_LEVEL: 'debug', ENGRAM_WORKER_RECALL_SOCKET: 'false' },
      },
      [COMMANDS.userPromptSubmit]: claudeIn('userPromptSubmit', {
        ...hookRun(p.userPromptSubmit),
        env: { ENGRAM_LOG_LEVEL: 'debug' },
      }),
      ...others('userPromptSubmit'),
      [COMMANDS.bash]: claudeIn('bash', hookRun(p.bash)),
      ...others('bash'),
      [COMMANDS.edit]: hookRun(p.edit),
      [COMMANDS.atCap]: hookRun(p.atCap),
      [COMMANDS.stop]: claudeIn('stop', hookRun(p.stop)),
      ...others('stop'),
    },
    env,
  );
  const workerCpuMs = workerCpu === null ? null : (cpuMsOf(worker.pid) ?? workerCpu) - workerCpu;
  const loadAfter = machineLoad();
  const stopped = await stopWorkers(worker, env);
  worker = null;
  if (againstWorker) {
    stopped.push(...(await stopWorkers(againstWorker.child, againstWorker.env, againstWorker.cli)));
    againstWorker = null;
  }

  const baseline = results[COMMANDS.baseline] as Run[];
  const captureKinds = ['bash', 'edit', 'atCap', 'stop'] as const;
  const byPayload = Object.fromEntries(
    captureKinds.map((k) => [
      k,
      {
        bytes: Math.max(...p[k].map((x) => Buffer.byteLength(x))),
        ...figures(
          results[COMMANDS[k]] as Run[],
          baseline,
          k === 'atCap' ? BUDGETS.captureAtCap : BUDGETS.capture,
        ),
      },
    ]),
  ) as Record<(typeof captureKinds)[number], Figures & { bytes: number }>;
  // The capture figure is the worst payload's ratio; its verdict holds when every payload is within its
  // own budget; its p95 and peak RSS are over every capture run.
  const worst = Object.values(byPayload).reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const allCapture = captureKinds.flatMap((k) => results[COMMANDS[k]] as Run[]);
  const captureWall = allCapture.map((r) => r.wall_ms);
  const capture = {
    ratio: worst.ratio,
    ratioP95: worst.ratioP95,
    p50: median(captureWall),
    p95: quantile(captureWall, 0.95),
    peakRss: Math.max(...allCapture.map((r) => r.rss_mb)),
    budget: BUDGETS.capture,
    verdict: Object.values(byPayload).every((f) => f.verdict === 'PASS') ? 'PASS' : 'OVER',
    failed: allCapture.filter((r) => r.status !== 0).length,
  };
  const promptRuns = results[COMMANDS.userPromptSubmit] as Run[];
  // Who rendered each run's context, as the hook logs it (the worker, the snapshot alone, the database).
  const hookLog = readFileSync(join(engramHome, 'logs', 'hook.log'), 'utf8').split('\n');
  const renderedBy = (hook: string, who: string) =>
    hookLog.filter(
      (l) =>
        l.includes(`"hook":"${hook}"`) && /"session":"bench-\d/.test(l) && l.includes(`"context":"${who}"`),
    ).length;
  const answeredBy = (who: string) => renderedBy('UserPromptSubmit', who);
  const sessionStart = {
    ...figures(results[COMMANDS.sessionStart] as Run[], baseline, BUDGETS.sessionStart),
    memories,
    contextChars,
    /** Runs (warm-up included) served from the worker's snapshot without opening the database. */
    fromSnapshotAlone: renderedBy('SessionStart', 'snapshot'),
    fromDatabase: renderedBy('SessionStart', 'database'),
  };
  const userPromptSubmit = {
    ...figures(promptRuns, baseline, BUDGETS.userPromptSubmit),
    memories,
    injectedRuns: promptRuns.filter((r) => r.stdout_bytes > 0).length,
    /** Runs (warm-up included) the worker answered, and those that read the store instead. */
    answeredByWorker: answeredBy('worker'),
    readTheStore: answeredBy('database'),
  };
  const fallbackRuns = results[COMMANDS.userPromptSubmitFallback] as Run[];
  const userPromptSubmitFallback = {
    ...figures(fallbackRuns, baseline, BUDGETS.userPromptSubmitFallback),
    memories,
    injectedRuns: fallbackRuns.filter((r) => r.stdout_bytes > 0).length,
  };
  // The other build, when given: its figures, and this build's time over its time, paired by round.
  /** Measured rounds (0-based, after the 3 warm-ups) whose SessionStart read the snapshot alone, per its log. */
  const snapshotRounds = (log: string[], prefix: string): Set<number> =>
    new Set(
      log
        .filter((l) => l.includes('"hook":"SessionStart"') && l.includes('"context":"snapshot"'))
        .map((l) => new RegExp(`"session":"${prefix}(\\d+)"`).exec(l)?.[1])
        .filter((n): n is string => n !== undefined)
        .map((n) => Number(n) - 3)
        .filter((n) => n >= 0),
    );
  // The other build's SessionStart runs, by what they read (its hook log says, as this build's does).
  const againstSnapshotAlone = against
    ? (() => {
        const lines = readFileSync(join(againstHome, 'logs', 'hook.log'), 'utf8').split('\n');
        const count = (who: string) =>
          lines.filter(
            (l) =>
              l.includes('"hook":"SessionStart"') &&
              /"session":"bench-against-\d/.test(l) &&
              l.includes(`"context":"${who}"`),
          ).length;
        // Paired over the rounds where both builds read the snapshot alone: the same path, compared.
        const ours = snapshotRounds(hookLog, 'bench-');
        const theirs = snapshotRounds(lines, 'bench-against-');
        const both = [...ours].filter((i) => theirs.has(i));
        const mine = results[COMMANDS.sessionStart] as Run[];
        const other = results[againstLabel('sessionStart')] as Run[];
        const paired = both.map((i) => (mine[i] as Run).wall_ms / (other[i] as Run).wall_ms);
        return {
          snapshot: count('snapshot'),
          database: count('database'),
          bothSnapshotRounds: both.length,
          snapshotOverSnapshot: paired.length > 0 ? round3(median(paired)) : null,
        };
      })()
    : null;
  const vsAgainst = against
    ? Object.fromEntries(
        hookKinds.map((k) => {
          const theirs = results[againstLabel(k)] as Run[];
          const ours = results[COMMANDS[k]] as Run[];
          const budget =
            k === 'atCap'
              ? BUDGETS.captureAtCap
              : k === 'sessionStart' || k === 'userPromptSubmit'
                ? BUDGETS[k]
                : BUDGETS.capture;
          const paired = ours.map((r, i) => r.wall_ms / (theirs[i] as Run).wall_ms);
          // A context hook of the other build that printed nothing where this one printed context did
          // not do the same work (a store migrated past the schema it knows is refused): no comparison.
          const silent =
            (k === 'sessionStart' || k === 'userPromptSubmit') &&
            theirs.every((r) => r.stdout_bytes === 0) &&
            ours.some((r) => r.stdout_bytes > 0);
          return [
            k,
            {
              ...rounded(figures(theirs, baseline, budget)),
              thisOverAgainst: silent ? null : round3(median(paired)),
            },
          ];
        }),
      )
    : null;
  // The other hosts' hooks, each beside Claude Code's of the same kind (same budget).
  const budgetOf = (k: ClaudeKind) => (k === 'bash' || k === 'stop' ? BUDGETS.capture : BUDGETS[k]);
  const claudeRatio = (k: ClaudeKind) =>
    k === 'sessionStart'
      ? sessionStart.ratio
      : k === 'userPromptSubmit'
        ? userPromptSubmit.ratio
        : byPayload[k].ratio;
  // CPU time over Claude Code's hook of the same kind, paired by round: what the hook itself does
  // beyond Claude Code's, whatever else the machine was doing.
  const claudeRuns: Record<ClaudeKind, string> = {
    sessionStart: COMMANDS.sessionStart,
    userPromptSubmit: COMMANDS.userPromptSubmit,
    bash: COMMANDS.bash,
    stop: COMMANDS.stop,
  };
  const cpuOverClaudeCode = (label: string, k: ClaudeKind) => {
    const claude = results[claudeRuns[k]] as Run[];
    return median((results[label] as Run[]).map((r, i) => r.cpu_ms / Math.max(1, (claude[i] as Run).cpu_ms)));
  };
  const hostFigures = p.hosts.map((h) => ({
    host: h.host,
    label: h.label,
    kinds: h.kinds.map((k) => ({
      label: k.label,
      versus: k.versus,
      ...figures(results[k.label] as Run[], baseline, budgetOf(k.versus)),
      cpuOverClaudeCode: cpuOverClaudeCode(k.label, k.versus),
    })),
  }));
  const control = {
    ...figures(results[CONTROL] as Run[], baseline, BUDGETS.sessionStart),
    cpuOverClaudeCode: cpuOverClaudeCode(CONTROL, 'sessionStart'),
  };
  const baseWall = baseline.map((r) => r.wall_ms);
  const base = {
    p50: median(baseWall),
    p95: quantile(baseWall, 0.95),
    peakRss: Math.max(...baseline.map((r) => r.rss_mb)),
  };
  const conditions = {
    runs,
    workerAutostart: true,
    /** CPU the running worker used while the hooks ran (importing and distilling their turns). */
    workerCpuMs,
    workersStopped: stopped.length,
    loadAverage: { before: round3(load.loadAverage[0]), after: round3(loadAfter.loadAverage[0]) },
    cores: load.cores,
    machine: { before: load, after: loadAfter },
  };

  if (json) {
    console.log(
      JSON.stringify({
        capture: {
          ...rounded(capture),
          payloads: Object.fromEntries(Object.entries(byPayload).map(([k, v]) => [k, rounded(v)])),
        },
        sessionStart: rounded(sessionStart),
        sessionStartControl: {
          ...rounded(control),
          overClaudeCode: round3(control.ratio / sessionStart.ratio),
        },
        userPromptSubmit: rounded(userPromptSubmit),
        userPromptSubmitFallback: rounded(userPromptSubmitFallback),
        hosts: Object.fromEntries(
          hostFigures.map((h) => [
            h.host,
            Object.fromEntries(
              h.kinds.map(({ label: _label, versus, ...f }) => [
                versus,
                { ...rounded(f), overClaudeCode: round3(f.ratio / claudeRatio(versus)) },
              ]),
            ),
          ]),
        ),
        baseline: { command: 'node -e 0', ...rounded(base) },
        ...(vsAgainst ? { against: { dist: againstDir, ...vsAgainst } } : {}),
        ...conditions,
      }),
    );
  } else {
    const row = (
      label: string,
      f: { p50: number; p95: number; peakRss: number; ratioP95?: number; failed?: number },
      ratio?: number,
    ) =>
      out(
        `  ${label.padEnd(58)} ${ratio === undefined ? ' '.repeat(21) : `${fmt(ratio, 3)}x (p95 ${fmt(f.ratioP95 ?? NaN, 2)}x)`}  p50 ${fmt(f.p50).padStart(6)} ms  p95 ${fmt(f.p95).padStart(6)} ms  peak RSS ${fmt(f.peakRss).padStart(6)} MB${f.failed ? `  (${f.failed} exited non-zero)` : ''}`,
      );
    out(
      `\nHook processes vs node -e 0: ${runs} rounds, alternating; worker autostart on, a worker running` +
        ` (it used ${workerCpuMs === null ? 'n/a' : `${Math.round(workerCpuMs)} ms`} CPU meanwhile)\n` +
        `Machine: before ${describeLoad(load)}; after ${describeLoad(loadAfter)}`,
    );
    row(COMMANDS.baseline, base);
    row(`${COMMANDS.sessionStart} (${contextChars} chars)`, sessionStart, sessionStart.ratio);
    out(
      `  ${''.padEnd(58)} ${sessionStart.fromSnapshotAlone} of its ${sessionStart.fromSnapshotAlone + sessionStart.fromDatabase} runs (warm-up included) read the worker's snapshot without opening the database`,
    );
    row(CONTROL, control, control.ratio);
    row(
      `${COMMANDS.userPromptSubmit} (${userPromptSubmit.injectedRuns}/${runs} injected)`,
      userPromptSubmit,
      userPromptSubmit.ratio,
    );
    row(
      `${COMMANDS.userPromptSubmitFallback} (${userPromptSubmitFallback.injectedRuns}/${runs} injected)`,
      userPromptSubmitFallback,
      userPromptSubmitFallback.ratio,
    );
    out(
      `  ${''.padEnd(58)} the worker answered ${userPromptSubmit.answeredByWorker} of the first row's ${userPromptSubmit.answeredByWorker + userPromptSubmit.readTheStore} runs (warm-up included)` +
        ` (the fallback's sessions had no SessionStart before, so they were told less: not the same text)`,
    );
    for (const k of captureKinds)
      row(`${COMMANDS[k]} (${(byPayload[k].bytes / 1024).toFixed(1)} KB)`, byPayload[k], byPayload[k].ratio);
    if (vsAgainst) {
      out(`\nThe same hooks of ${againstDir}, in the same rounds (sessions of their own):`);
      for (const k of hookKinds) {
        const f = vsAgainst[k] as Figures & { thisOverAgainst: number | null };
        row(`${COMMANDS[k]} [against]`, f, f.ratio);
        if (k === 'sessionStart' && againstSnapshotAlone !== null) {
          out(
            `  ${''.padEnd(58)} ${againstSnapshotAlone.snapshot} of its ${againstSnapshotAlone.snapshot + againstSnapshotAlone.database} runs (warm-up included) read the worker's snapshot without opening the database`,
          );
          if (againstSnapshotAlone.snapshotOverSnapshot !== null)
            out(
              `  ${''.padEnd(58)} this build / that build where both read the snapshot alone: ${fmt(againstSnapshotAlone.snapshotOverSnapshot, 3)}x (${againstSnapshotAlone.bothSnapshotRounds} rounds)`,
            );
        }
        out(
          f.thisOverAgainst === null
            ? `  ${''.padEnd(58)} not compared: that build printed no context on this store (a schema newer than it knows?)`
            : `  ${''.padEnd(58)} this build / that build: ${fmt(f.thisOverAgainst, 3)}x (median of paired runs)`,
        );
      }
    }
    for (const h of hostFigures) for (const k of h.kinds) row(k.label, k, k.ratio);
    const failed =
      capture.failed +
      sessionStart.failed +
      userPromptSubmit.failed +
      userPromptSubmitFallback.failed +
      hostFigures.reduce((n, h) => n + h.kinds.reduce((m, k) => m + k.failed, 0), 0);
    if (failed > 0) out(`  WARNING: ${failed} hook runs exited non-zero`);
    out('\nBudgets (DESIGN.md §4; ratio = median over rounds of hook / node -e 0 of the same round):');
    const verdict = (label: string, value: string, ok: string) =>
      out(`  ${label.padEnd(40)} ${value.padStart(9)}  ${ok}`);
    for (const k of captureKinds)
      verdict(
        `capture ${k} ≤ ${byPayload[k].budget}x`,
        `${fmt(byPayload[k].ratio, 3)}x`,
        byPayload[k].verdict,
      );
    verdict(
      'capture peak RSS ≤ 60 MB',
      `${fmt(capture.peakRss)} MB`,
      capture.peakRss <= 60 ? 'PASS' : 'OVER',
    );
    verdict(
      `SessionStart ≤ ${BUDGETS.sessionStart}x`,
      `${fmt(sessionStart.ratio, 3)}x`,
      sessionStart.verdict,
    );
    verdict(
      `UserPromptSubmit ≤ ${BUDGETS.userPromptSubmit}x`,
      `${fmt(userPromptSubmit.ratio, 3)}x`,
      userPromptSubmit.verdict,
    );
    verdict(
      `UserPromptSubmit fallback ≤ ${BUDGETS.userPromptSubmitFallback}x`,
      `${fmt(userPromptSubmitFallback.ratio, 3)}x`,
      userPromptSubmitFallback.verdict,
    );
    const CLAUDE_NAMES: Record<ClaudeKind, string> = {
      sessionStart: 'SessionStart',
      userPromptSubmit: 'UserPromptSubmit',
      bash: 'capture (Bash)',
      stop: 'capture (Stop)',
    };
    const cpuNote = (x: number) => `(CPU ${fmt(x, 3)}x)`;
    out(
      `  ${"Claude Code's SessionStart, again (control)".padEnd(40)} ${`${fmt(control.ratio / sessionStart.ratio, 3)}x`.padStart(9)}  ${cpuNote(control.cpuOverClaudeCode)}: the noise under the comparisons`,
    );
    // Slower only when the hook is slower beyond the noise this run measured (the control's distance
    // from 1, at least 2 %) and does more itself (its CPU time, paired by round, over 1.02×).
    const noise = Math.max(0.02, Math.abs(control.ratio / sessionStart.ratio - 1));
    for (const h of hostFigures)
      for (const k of h.kinds) {
        const mine = k.ratio / claudeRatio(k.versus);
        const slower = mine > 1 + noise && k.cpuOverClaudeCode > 1.02;
        verdict(
          `${h.label} ${CLAUDE_NAMES[k.versus]} vs Claude Code's`,
          `${fmt(mine, 3)}x`,
          `${slower ? 'SLOWER' : `NOT SLOWER (wall ≤ ${fmt(1 + noise, 3)}x, the control's noise, or CPU ≤ 1.02x)`} ${cpuNote(k.cpuOverClaudeCode)}`,
        );
      }
    out(`  (workers stopped at the end, by pid: ${stopped.join(', ') || 'none'})`);
  }
} finally {
  if (worker) await stopWorkers(worker, env); // after a failure: still only what this bench started
  if (againstWorker) await stopWorkers(againstWorker.child, againstWorker.env, againstWorker.cli);
  rmSync(work, { recursive: true, force: true });
  rmSync(join(root, `.bench-against-${process.pid}`), { recursive: true, force: true });
}

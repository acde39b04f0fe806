// npm run bench:hooks — the capture hook's wall time and peak RSS against `node -e 0`, measured side by
// side in one run (alternating), printed as ratios; then SessionStart context build time with 100k
// observations in the store, also against `node -e 0`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { fmt, median, quantile } from './lib/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const hook = join(root, 'dist', 'hook.cjs');
const runs = Number(process.env.BENCH_RUNS ?? 40);
const observationCount = Number(process.env.BENCH_OBSERVATIONS ?? 100_000);

function measure(commands, env) {
  const out = execFileSync('python3', [join(root, 'bench', 'lib', 'measure.py')], {
    input: JSON.stringify({ runs, warmup: 3, commands, env }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString());
}

function report(title, results, a, b) {
  const wa = results[a].map((r) => r.wall_ms);
  const wb = results[b].map((r) => r.wall_ms);
  const ra = results[a].map((r) => r.rss_mb);
  const rb = results[b].map((r) => r.rss_mb);
  const pairRatios = wa.map((w, i) => w / wb[i]);
  const failed = results[a].filter((r) => r.status !== 0).length;
  console.log(`\n${title} (${runs} runs each, alternating)`);
  console.log(
    `  ${a.padEnd(28)} wall median ${fmt(median(wa))} ms  p95 ${fmt(quantile(wa, 0.95))} ms  peak RSS median ${fmt(median(ra))} MB max ${fmt(Math.max(...ra))} MB`,
  );
  console.log(
    `  ${b.padEnd(28)} wall median ${fmt(median(wb))} ms  p95 ${fmt(quantile(wb, 0.95))} ms  peak RSS median ${fmt(median(rb))} MB`,
  );
  console.log(
    `  ratio ${a}/${b}: wall median-of-pairs ${fmt(median(pairRatios), 3)}x  (ratio of medians ${fmt(median(wa) / median(wb), 3)}x)  RSS ${fmt(median(ra) / median(rb), 3)}x`,
  );
  if (failed > 0) console.log(`  WARNING: ${failed} runs exited non-zero`);
  return { ratio: median(pairRatios), rss: Math.max(...ra) };
}

const work = mkdtempSync(join(tmpdir(), 'engram-bench-hooks-'));
try {
  const home = join(work, 'engram-home');
  const project = join(work, 'project');
  mkdirSync(project, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: join(work, 'home'),
    ENGRAM_HOME: home,
    ENGRAM_WORKER_AUTOSTART: 'false',
  };
  const payload = (hookEventName, extra) =>
    JSON.stringify({
      session_id: 'bench-session',
      transcript_path: join(work, 't.jsonl'),
      cwd: project,
      hook_event_name: hookEventName,
      ...extra,
    });
  const toolPayload = payload('PostToolUse', {
    tool_name: 'Bash',
    tool_input: { command: 'npm test', description: 'Run the tests' },
    tool_response: {
      stdout: 'PASS src/a.test.ts\n'.repeat(40) + 'Tests: 40 passed, 40 total\n',
      stderr: '',
      interrupted: false,
    },
    tool_use_id: 'toolu_bench',
    duration_ms: 1200,
  });
  // Create and migrate the store once (a SessionStart does), as a user's store would already be.
  execFileSync(process.execPath, [hook], { input: payload('SessionStart', { source: 'startup' }), env });

  const node = process.execPath;
  const capture = measure(
    {
      'capture hook (PostToolUse)': { argv: [node, hook], stdin: toolPayload },
      'node -e 0': { argv: [node, '-e', '0'] },
    },
    env,
  );
  const cap = report('Capture hook vs node -e 0', capture, 'capture hook (PostToolUse)', 'node -e 0');

  // A payload that wakes every scrubber rule: code full of secret-ish names (tokens, keys, passwords).
  const editPayload = payload('PostToolUse', {
    tool_name: 'Edit',
    tool_input: {
      file_path: join(project, 'src/auth/token-store.ts'),
      old_string: 'export function readToken(key: string) {\n  return cache.get(key);\n}\n'.repeat(20),
      new_string:
        'export function readToken(key: string, password?: string) {\n  const auth = `Bearer ${cache.get(key)}`;\n  return { auth, secret: process.env.SECRET };\n}\n'.repeat(
          20,
        ),
    },
    tool_response: { filePath: join(project, 'src/auth/token-store.ts'), structuredPatch: [] },
    tool_use_id: 'toolu_bench_edit',
    duration_ms: 12,
  });
  const editRuns = measure(
    {
      'capture hook (Edit, secret-ish code)': { argv: [node, hook], stdin: editPayload },
      'node -e 0': { argv: [node, '-e', '0'] },
    },
    env,
  );
  const capEdit = report(
    'Capture hook on secret-ish code vs node -e 0',
    editRuns,
    'capture hook (Edit, secret-ish code)',
    'node -e 0',
  );

  // Fill the store with 100k observations for the same project (directly, in one transaction).
  const db = new Database(join(home, 'engram.db'));
  const projectId = db.prepare('SELECT id FROM projects LIMIT 1').get().id;
  const insert =
    db.prepare(`INSERT INTO observations (id, project_id, session_id, type, title, narrative, facts, files_modified, source, created_at, modified_at, content_hash, tokens, last_seen_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'hook', ?, ?, ?, ?, ?)`);
  // The newest memories are anchored to real files (the SessionStart hook stats them).
  const anchor =
    db.prepare(`INSERT INTO anchors (memory_id, project_id, first_path, path, blob_hash, size, scope, part_hash,
    file_mtime_ms, created_at, checked_at) VALUES (?, ?, ?, ?, 'b', 1, '{"kind":"file"}', 'p', ?, ?, ?)`);
  mkdirSync(join(project, 'src'), { recursive: true });
  const types = ['bugfix', 'feature', 'change', 'discovery', 'refactor', 'decision'];
  const words =
    'token session parser cache worker queue schema router migration index search render config build test deploy'.split(
      ' ',
    );
  const t0 = Date.now();
  db.transaction(() => {
    for (let i = 0; i < observationCount; i++) {
      const w = (k) => words[(i * 7 + k * 13) % words.length];
      insert.run(
        `obs_${String(i).padStart(20, '0')}`,
        projectId,
        `s${Math.floor(i / 20)}`,
        types[i % types.length],
        `${w(1)} ${w(2)} fix in src/${w(3)}/${w(4)}.ts #${i}`,
        `Changed the ${w(5)} handling so that ${w(6)} no longer breaks ${w(7)}.`,
        JSON.stringify([`src/${w(3)}/${w(4)}.ts: changed ${w(8)}`]),
        JSON.stringify([`src/${w(3)}/${w(4)}.ts`]),
        t0 - (observationCount - i) * 1000,
        t0,
        `hash${i}`,
        80,
        t0,
      );
      if (i >= observationCount - 200) {
        const file = `src/file${i % 50}.ts`;
        writeFileSync(join(project, file), `export const v${i} = ${i};\n`);
        anchor.run(
          `obs_${String(i).padStart(20, '0')}`,
          projectId,
          file,
          file,
          statSync(join(project, file)).mtimeMs,
          t0,
          t0,
        );
      }
    }
  })();
  db.close();

  const startPayload = payload('SessionStart', { source: 'startup' });
  const ctxOut = execFileSync(process.execPath, [hook], { input: startPayload, env }).toString();
  const start = measure(
    {
      'SessionStart hook (100k obs)': { argv: [node, hook], stdin: startPayload },
      'node -e 0': { argv: [node, '-e', '0'] },
    },
    env,
  );
  const ss = report(
    `SessionStart context with ${observationCount} observations vs node -e 0`,
    start,
    'SessionStart hook (100k obs)',
    'node -e 0',
  );
  const injected = JSON.parse(ctxOut).hookSpecificOutput.additionalContext;
  console.log(`  injected context: ${injected.length} chars, ~${Math.ceil(injected.length / 4)} tokens`);

  console.log('\nBudgets (DESIGN.md §4):');
  console.log(
    `  capture hook wall ≤ 1.3x node -e 0: ${fmt(cap.ratio, 3)}x ${cap.ratio <= 1.3 ? 'OK' : 'OVER'} (test output); ${fmt(capEdit.ratio, 3)}x ${capEdit.ratio <= 1.3 ? 'OK' : 'OVER'} (code full of secret-ish names)`,
  );
  console.log(
    `  capture hook RSS ≤ 60 MB: ${fmt(Math.max(cap.rss, capEdit.rss))} MB ${Math.max(cap.rss, capEdit.rss) <= 60 ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  SessionStart ≤ 1.5x node -e 0 at 100k observations: ${fmt(ss.ratio, 3)}x ${ss.ratio <= 1.5 ? 'OK' : 'OVER'}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

// LLM distillation cost: tokens per stored observation on the real fixture transcripts, with the real
// LLM step (prompt building, input cap, budgets, ledger) against a loopback fake of the Anthropic
// Messages API that counts tokens as ~chars/4 of the actual request and reply and answers plausible
// structured JSON. Target (DESIGN.md §4): <= 3,000 tokens per stored observation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readJsonlFrom } from '../src/capture/transcript/read-jsonl.ts';
import { createTranscriptParser } from '../src/capture/transcript/transcript-entries.ts';
import { peekSkippedType } from '../src/capture/transcript/skipped-lines.ts';
import { projectIdFromKey } from '../src/core/ids.ts';
import type { Project } from '../src/core/model.ts';
import { createMemoryLogger } from '../src/core/ports.ts';
import { createHeuristicDistiller } from '../src/distill/heuristic-distiller.ts';
import { splitTranscriptTurns, turnEvents } from '../src/distill/transcript-turns.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { findTranscripts } from '../src/worker/backfill.ts';
import { drainOnceAsync } from '../src/worker/drain.ts';
import { plausibleReply, startFakeLlmServer } from '../test/support/fake-llm-server.ts';
import { fakeLlmConfig, fakeLlmPreparer } from './lib/fake-llm-step.ts';

const fixtures =
  process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'transcripts');
const work = mkdtempSync(join(tmpdir(), 'engram-bench-distill-'));
const server = await startFakeLlmServer((r) => ({ text: plausibleReply(r.prompt) }));
const store = createStore(openDatabase(join(work, 'engram.db')));
try {
  const project: Project = {
    id: projectIdFromKey('bench'),
    name: 'bench',
    key: 'bench',
    root: '/home/USER/project',
  };
  const files = findTranscripts(fixtures).filter((f) => !f.subagent);
  let turns = 0;
  let events = 0;
  for (const f of files) {
    const parser = createTranscriptParser();
    for (const line of readJsonlFrom(f.path, 0, { peek: peekSkippedType }).lines)
      if (line.skipped === undefined) parser.add(line.value);
      else parser.skip(line.skipped);
    const parsed = parser.result();
    const sessionId = `bench-${basename(f.path, '.jsonl')}`;
    const cwd = parsed.cwd ?? project.root;
    store.transaction(() => {
      for (const turn of splitTranscriptTurns(parsed.entries)) {
        const evs = turnEvents(turn);
        if (evs.length === 0) continue;
        turns++;
        for (const e of evs) {
          events++;
          store.sessions.touch(project, { id: sessionId, cwd, transcriptPath: f.path }, 'bench', e.at);
          store.events.append({
            sessionId,
            projectId: project.id,
            hook: 'bench',
            cwd,
            transcriptPath: f.path,
            at: e.at,
            event: e.event,
          });
        }
      }
    });
  }
  const config = fakeLlmConfig(server.url);
  const logger = createMemoryLogger();
  const prepare = fakeLlmPreparer(store, config, work);
  // As the worker does: after each turn the transcript is ingested (its offset stored), so the next
  // turn's prompt gets only the transcript extracts that are new.
  const deps = { store, distiller: createHeuristicDistiller(), logger, readTranscripts: true };
  const options = { force: true, now: Date.now(), staleTurnMs: 0, maxAttempts: 3 };
  let drained = 0;
  for (let round = 0; round < 100; round++) {
    const r = await drainOnceAsync(deps, { ...options, now: Date.now() }, prepare);
    drained += r.turns;
    if (r.events === 0 && r.failures === 0) break;
  }
  const t = store.llmLedger.totals('all')[0];
  const reported = server.reported();
  const tokens = (t?.inputTokens ?? 0) + (t?.outputTokens ?? 0);
  const stored = t?.observations ?? 0;
  const perObs = stored > 0 ? tokens / stored : NaN;
  const bySource = store.db
    .prepare(`SELECT source, COUNT(*) AS n FROM observations GROUP BY source`)
    .all() as { source: string; n: number }[];
  console.log(
    `LLM distillation of ${files.length} fixture transcripts (${turns} prompts, ${events} events), fake Anthropic Messages server counting ~chars/4`,
  );
  console.log(
    `  LLM calls              : ${t?.calls ?? 0} (${Object.entries(t?.outcomes ?? {})
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}); ${drained} queue turns drained, ${drained - (t?.calls ?? 0)} of them trivial (no call)`,
  );
  console.log(
    `  tokens                 : in ${t?.inputTokens ?? 0}, out ${t?.outputTokens ?? 0} (server reported in ${reported.input}, out ${reported.output}) · $${(t?.costUsd ?? 0).toFixed(4)} at haiku prices`,
  );
  console.log(
    `  observations stored    : ${stored} from the LLM; all sources: ${bySource.map((s) => `${s.source} ${s.n}`).join(', ')}`,
  );
  console.log(
    `  tokens per stored observation: ${perObs.toFixed(0)} (target <= 3000) ${perObs <= 3000 ? 'OK' : 'OVER'}`,
  );
} finally {
  store.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

// LoCoMo retrieval benchmark: each dialog turn becomes one memory (text, speaker, date; nothing the
// dataset generated), every question of categories 1-4 goes through engram's search, and evidence
// recall@5/@10 (turn and session level), MRR and latency are reported beside a plain SQLite FTS5 BM25
// baseline (porter) over the same text engram indexes for each turn (speaker, text, date, turn id).
// Evidence corrected by the public audit is used where it applies.
// With embedders (`--embedder ollama:MODEL@URL`, `--embedder openai:MODEL@URL` (key from
// OPENAI_API_KEY), `--embedder local:MODEL[@MODEL_DIR]`, repeatable, or the same specs comma-separated
// in ENGRAM_BENCH_EMBEDDERS), every memory is embedded and two more rows are reported per embedder:
// `vector` (nearest vectors alone) and `hybrid` (engram's hybridSearch: lexical + vectors by RRF).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectIdFromKey } from '../src/core/ids.ts';
import { contentTerms } from '../src/recall/fts-query.ts';
import type { Embedder } from '../src/core/ports.ts';
import { embedMemories } from '../src/recall/embed-memories.ts';
import { createLocalEmbedder } from '../src/recall/embedders/local-embedder.ts';
import { createOllamaEmbedder } from '../src/recall/embedders/ollama-embedder.ts';
import { createOpenAiEmbedder } from '../src/recall/embedders/openai-embedder.ts';
import { hybridSearch } from '../src/recall/hybrid.ts';
import { searchMemories } from '../src/recall/search.ts';
import { openDatabase } from '../src/store/database.ts';
import { loadSqliteVec } from '../src/store/sqlite-vec-loader.ts';
import { createStore, type Store } from '../src/store/store.ts';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Qa {
  question: string;
  evidence?: string[];
  category: number;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Qa[];
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const embedderSpecs = [
  ...args.flatMap((a, i) => (a === '--embedder' && args[i + 1] ? [args[i + 1] as string] : [])),
  ...(process.env['ENGRAM_BENCH_EMBEDDERS'] ?? '').split(',').filter((x) => x.trim() !== ''),
];
/** "ollama:nomic-embed-text@http://127.0.0.1:11434" → an embedder (the part after @ is optional). */
function embedderFrom(spec: string): Embedder {
  const m = /^(ollama|openai|local):([^@]+)(?:@(.+))?$/.exec(spec.trim());
  if (!m)
    throw new Error(
      `--embedder ${spec}: expected ollama:MODEL[@URL], openai:MODEL[@URL] or local:MODEL[@DIR]`,
    );
  const [, kind, model = '', where] = m;
  if (kind === 'ollama')
    return createOllamaEmbedder({ model, ...(where ? { url: where } : {}), timeoutMs: 120_000 });
  if (kind === 'openai')
    return createOpenAiEmbedder({
      model,
      ...(where ? { url: where } : {}),
      apiKey: process.env['OPENAI_API_KEY'],
      timeoutMs: 120_000,
    });
  return createLocalEmbedder({
    model,
    modelPath: where ?? join(tmpdir(), 'engram-models'),
    allowDownload: false,
  });
}
const embedders = embedderSpecs.map(embedderFrom);
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--embedder');
const file =
  positional[0] ?? join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'locomo', 'locomo-dev.json');
const auditFile = join(file, '..', 'locomo-dev-audit-errors.json');
const samples = JSON.parse(readFileSync(file, 'utf8')) as Sample[];
let audit = new Map<string, string[]>();
try {
  const rows = JSON.parse(readFileSync(auditFile, 'utf8')) as {
    question_id: string;
    correct_evidence?: string[];
  }[];
  audit = new Map(
    rows
      .filter((r) => Array.isArray(r.correct_evidence))
      .map((r) => [r.question_id, r.correct_evidence as string[]]),
  );
} catch {
  // no audit beside the file: the dataset's own evidence is used
}

/** "D8:6; D9:17" → ["D8:6", "D9:17"]; "D:11:26" → "D11:26"; "D30:05" → "D30:5". */
function normaliseEvidence(list: string[]): string[] {
  return list
    .flatMap((e) => e.split(/[;,\s]+/))
    .map((e) => e.replace(/^D:/, 'D').replace(/:0+(\d)/, ':$1'))
    .filter((e) => /^D\d+:\d+$/.test(e));
}
const sessionOf = (dia: string) => dia.split(':')[0] as string;

function parseDate(text: unknown): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})/i.exec(String(text ?? ''));
  if (!m) return 0;
  const t = Date.parse(
    `${m[4]} ${m[5]} ${m[6]} ${(Number(m[1]) % 12) + (m[3]?.toLowerCase() === 'pm' ? 12 : 0)}:${m[2]} UTC`,
  );
  return Number.isFinite(t) ? t : 0;
}

interface Score {
  turn5: number;
  turn10: number;
  sess5: number;
  sess10: number;
  rr: number;
}
const empty = (): { n: number; sum: Score } => ({
  n: 0,
  sum: { turn5: 0, turn10: 0, sess5: 0, sess10: 0, rr: 0 },
});

function score(ranked: string[], evidence: string[]): Score {
  if (evidence.length === 0) return { turn5: 1, turn10: 1, sess5: 1, sess10: 1, rr: 1 };
  const at = (k: number) => evidence.filter((e) => ranked.slice(0, k).includes(e)).length / evidence.length;
  const sessAt = (k: number) => {
    const sessions = new Set(ranked.slice(0, k).map(sessionOf));
    return evidence.filter((e) => sessions.has(sessionOf(e))).length / evidence.length;
  };
  const first = ranked.findIndex((r) => evidence.includes(r));
  return {
    turn5: at(5),
    turn10: at(10),
    sess5: sessAt(5),
    sess10: sessAt(10),
    rr: first === -1 ? 0 : 1 / (first + 1),
  };
}

const work = mkdtempSync(join(tmpdir(), 'engram-locomo-'));
type Agg = Map<number, ReturnType<typeof empty>>;
const results = {
  lexical: new Map() as Agg,
  bm25: new Map() as Agg,
};
const perEmbedder = new Map(
  embedders.map((e) => [
    e.id,
    {
      vector: new Map() as Agg,
      hybrid: new Map() as Agg,
      vectorMs: [] as number[],
      hybridMs: [] as number[],
      embedMs: 0,
    },
  ]),
);
const latencies: number[] = [];
let turns = 0;
function add(map: Agg, category: number, s: Score): void {
  const agg = map.get(category) ?? empty();
  agg.n++;
  for (const k of Object.keys(s) as (keyof Score)[]) agg.sum[k] += s[k];
  map.set(category, agg);
}
/** Embed every memory of the store (what the worker does in the background), timed. */
async function embedAll(store: Store, embedder: Embedder): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const batch = store.vectors.missing(embedder.id, 32);
    if (batch.length === 0) break;
    await embedMemories(store, embedder, batch, { at: 0 });
  }
  return performance.now() - t0;
}
try {
  for (const [sampleIndex, sample] of samples.entries()) {
    const store = createStore(openDatabase(join(work, `${sample.sample_id}.db`)), {
      loadVectorExtension: loadSqliteVec,
    });
    const projectId = projectIdFromKey(`locomo:${sample.sample_id}`);
    store.db.exec(
      `CREATE VIRTUAL TABLE bm25 USING fts5(dia_id UNINDEXED, text, tokenize = 'porter unicode61')`,
    );
    const bm25Insert = store.db.prepare('INSERT INTO bm25 (dia_id, text) VALUES (?, ?)');
    store.transaction(() => {
      for (const key of Object.keys(sample.conversation).filter((k) => /^session_\d+$/.test(k))) {
        const list = sample.conversation[key];
        if (!Array.isArray(list)) continue;
        const date = parseDate(sample.conversation[`${key}_date_time`]);
        const dateText = String(sample.conversation[`${key}_date_time`] ?? '');
        (list as Turn[]).forEach((t, i) => {
          turns++;
          const draft = {
            type: 'fact' as const,
            title: `${t.speaker}: ${t.text}`.slice(0, 300),
            subtitle: dateText,
            narrative: t.text,
            facts: [`said by ${t.speaker} on ${dateText} (${t.dia_id})`],
            concepts: [t.speaker.toLowerCase()],
            filesRead: [],
            filesModified: [],
          };
          // The baseline indexes the same text engram does (speaker, date, turn id, …), in one column.
          bm25Insert.run(
            t.dia_id,
            [draft.title, draft.subtitle, draft.narrative, ...draft.facts, ...draft.concepts].join('\n'),
          );
          store.memory.create(
            {
              projectId,
              sessionId: `${sample.sample_id}-${key}`,
              source: 'import',
              createdAt: date + i * 1000,
              provenance: [t.dia_id],
              draft,
            },
            { origin: 'hook', at: date + i * 1000 },
          );
        });
      }
    });
    const bm25Search = store.db.prepare('SELECT dia_id FROM bm25 WHERE bm25 MATCH ? ORDER BY rank LIMIT 10');
    for (const e of embedders)
      (perEmbedder.get(e.id) as { embedMs: number }).embedMs += await embedAll(store, e);
    for (const [qi, qa] of sample.qa.entries()) {
      if (qa.category < 1 || qa.category > 4) continue;
      const evidence = normaliseEvidence(audit.get(`locomo_${sampleIndex}_qa${qi}`) ?? qa.evidence ?? []);
      const t0 = performance.now();
      const hits = searchMemories(store, { query: qa.question, projectId, limit: 10, now: Date.now() });
      latencies.push(performance.now() - t0);
      const ranked = hits.map((h) => h.observation.provenance[0] ?? '');
      const terms = contentTerms(qa.question);
      const baseline =
        terms.length > 0
          ? (bm25Search.all(terms.map((w) => `"${w}"`).join(' OR ')) as { dia_id: string }[]).map(
              (r) => r.dia_id,
            )
          : [];
      add(results.lexical, qa.category, score(ranked, evidence));
      add(results.bm25, qa.category, score(baseline, evidence));
      const diaOf = (id: string) => store.observations.get(id)?.provenance[0] ?? '';
      for (const e of embedders) {
        const r = perEmbedder.get(e.id) as NonNullable<ReturnType<typeof perEmbedder.get>>;
        const t1 = performance.now();
        const [q] = await e.embed([qa.question], 'query');
        const near = store.vectors.knn(e.id, q as Float32Array, projectId, 10);
        r.vectorMs.push(performance.now() - t1);
        add(
          r.vector,
          qa.category,
          score(
            near.map((n) => diaOf(n.observationId)),
            evidence,
          ),
        );
        const t2 = performance.now();
        const fused = await hybridSearch(store, e, {
          query: qa.question,
          projectId,
          limit: 10,
          now: Date.now(),
          queryTimeoutMs: 120_000,
        });
        r.hybridMs.push(performance.now() - t2);
        if (fused.vectorError) throw new Error(`${e.id}: ${fused.vectorError}`);
        add(
          r.hybrid,
          qa.category,
          score(
            fused.hits.map((h) => h.observation.provenance[0] ?? ''),
            evidence,
          ),
        );
      }
    }
    store.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

function summarise(map: Map<number, ReturnType<typeof empty>>) {
  const total = empty();
  const perCategory: Record<string, Record<string, number>> = {};
  for (const [cat, agg] of [...map].sort((a, b) => a[0] - b[0])) {
    total.n += agg.n;
    for (const k of Object.keys(agg.sum) as (keyof Score)[]) total.sum[k] += agg.sum[k];
    perCategory[cat] = {
      questions: agg.n,
      turn_recall_at_10: agg.sum.turn10 / agg.n,
      session_recall_at_10: agg.sum.sess10 / agg.n,
      mrr: agg.sum.rr / agg.n,
    };
  }
  const r = (k: keyof Score) => total.sum[k] / total.n;
  return {
    questions: total.n,
    turn: { recall_at_5: r('turn5'), recall_at_10: r('turn10') },
    session: { recall_at_5: r('sess5'), recall_at_10: r('sess10') },
    mrr: r('rr'),
    per_category: perCategory,
  };
}
function percentiles(list: number[]) {
  const sorted = [...list].sort((a, b) => a - b);
  const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: pct(0.5), p95: pct(0.95) };
}
const report = {
  file,
  samples: samples.length,
  turns,
  lexical: { ...summarise(results.lexical), latency_ms: percentiles(latencies) },
  bm25_baseline: summarise(results.bm25),
  embedders: Object.fromEntries(
    [...perEmbedder].map(([id, r]) => [
      id,
      {
        embed_all_ms: r.embedMs,
        vector: { ...summarise(r.vector), latency_ms: percentiles(r.vectorMs) },
        hybrid: { ...summarise(r.hybrid), latency_ms: percentiles(r.hybridMs) },
      },
    ]),
  ),
};
if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const f = (n: number) => n.toFixed(3);
  console.log(
    `LoCoMo retrieval on ${file}: ${report.samples} samples, ${turns} turns, ${report.lexical.questions} questions (categories 1-4)`,
  );
  const rows: [string, ReturnType<typeof summarise>][] = [
    ['engram lexical', report.lexical],
    ['BM25 baseline', report.bm25_baseline],
  ];
  for (const [id, r] of Object.entries(report.embedders))
    rows.push([`${id} vector`, r.vector], [`${id} hybrid`, r.hybrid]);
  const width = Math.max(15, ...rows.map(([name]) => name.length));
  for (const [name, s] of rows) {
    console.log(
      `  ${name.padEnd(width)} turn R@5 ${f(s.turn.recall_at_5)}  R@10 ${f(s.turn.recall_at_10)} · session R@5 ${f(s.session.recall_at_5)}  R@10 ${f(s.session.recall_at_10)} · MRR ${f(s.mrr)}`,
    );
    for (const [cat, c] of Object.entries(s.per_category)) {
      console.log(
        `      category ${cat}: ${c['questions']} q · turn R@10 ${f(c['turn_recall_at_10'] ?? 0)} · session R@10 ${f(c['session_recall_at_10'] ?? 0)} · MRR ${f(c['mrr'] ?? 0)}`,
      );
    }
  }
  console.log(
    `  search latency p50 ${report.lexical.latency_ms.p50.toFixed(2)} ms, p95 ${report.lexical.latency_ms.p95.toFixed(2)} ms`,
  );
  for (const [id, r] of Object.entries(report.embedders)) {
    console.log(
      `  ${id}: embedding all ${turns} memories took ${(r.embed_all_ms / 1000).toFixed(1)} s; query latency (embedding included) vector p50 ${r.vector.latency_ms.p50.toFixed(1)} ms p95 ${r.vector.latency_ms.p95.toFixed(1)} ms, hybrid p50 ${r.hybrid.latency_ms.p50.toFixed(1)} ms p95 ${r.hybrid.latency_ms.p95.toFixed(1)} ms`,
    );
  }
  if (embedders.length === 0)
    console.log(
      '  (no embedder given: --embedder ollama:MODEL@URL | openai:MODEL@URL | local:MODEL@DIR adds vector and hybrid rows)',
    );
}

// LoCoMo retrieval benchmark: each dialog turn becomes one memory (text, speaker, date; nothing the
// dataset generated), every question of categories 1-4 goes through engram's search, and evidence
// recall@5/@10 (turn and session level), MRR and latency are reported beside a plain SQLite FTS5 BM25
// baseline over the raw turns. Evidence corrected by the public audit is used where it applies.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectIdFromKey } from '../src/core/ids.ts';
import { contentTerms } from '../src/recall/fts-query.ts';
import { searchMemories } from '../src/recall/search.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';

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
const file =
  args.find((a) => !a.startsWith('--')) ??
  join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'locomo', 'locomo-dev.json');
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
const results = {
  lexical: new Map<number, ReturnType<typeof empty>>(),
  bm25: new Map<number, ReturnType<typeof empty>>(),
};
const latencies: number[] = [];
let turns = 0;
try {
  samples.forEach((sample, sampleIndex) => {
    const store = createStore(openDatabase(join(work, `${sample.sample_id}.db`)));
    const projectId = projectIdFromKey(`locomo:${sample.sample_id}`);
    store.db.exec(`CREATE VIRTUAL TABLE bm25 USING fts5(dia_id UNINDEXED, text, tokenize = 'porter unicode61')`);
    const bm25Insert = store.db.prepare('INSERT INTO bm25 (dia_id, text) VALUES (?, ?)');
    store.transaction(() => {
      for (const key of Object.keys(sample.conversation).filter((k) => /^session_\d+$/.test(k))) {
        const list = sample.conversation[key];
        if (!Array.isArray(list)) continue;
        const date = parseDate(sample.conversation[`${key}_date_time`]);
        const dateText = String(sample.conversation[`${key}_date_time`] ?? '');
        (list as Turn[]).forEach((t, i) => {
          turns++;
          bm25Insert.run(t.dia_id, t.text);
          store.observations.insert({
            projectId,
            sessionId: `${sample.sample_id}-${key}`,
            source: 'import',
            createdAt: date + i * 1000,
            provenance: [t.dia_id],
            draft: {
              type: 'fact',
              title: `${t.speaker}: ${t.text}`.slice(0, 300),
              subtitle: dateText,
              narrative: t.text,
              facts: [`said by ${t.speaker} on ${dateText} (${t.dia_id})`],
              concepts: [t.speaker.toLowerCase()],
              filesRead: [],
              filesModified: [],
            },
          });
        });
      }
    });
    const bm25Search = store.db.prepare('SELECT dia_id FROM bm25 WHERE bm25 MATCH ? ORDER BY rank LIMIT 10');
    sample.qa.forEach((qa, qi) => {
      if (qa.category < 1 || qa.category > 4) return;
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
      for (const [map, r] of [
        [results.lexical, ranked],
        [results.bm25, baseline],
      ] as const) {
        const s = score(r, evidence);
        const agg = map.get(qa.category) ?? empty();
        agg.n++;
        for (const k of Object.keys(s) as (keyof Score)[]) agg.sum[k] += s[k];
        map.set(qa.category, agg);
      }
    });
    store.close();
  });
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
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const report = {
  file,
  samples: samples.length,
  turns,
  lexical: { ...summarise(results.lexical), latency_ms: { p50: pct(0.5), p95: pct(0.95) } },
  bm25_baseline: summarise(results.bm25),
};
if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const f = (n: number) => n.toFixed(3);
  console.log(
    `LoCoMo retrieval on ${file}: ${report.samples} samples, ${turns} turns, ${report.lexical.questions} questions (categories 1-4)`,
  );
  for (const [name, s] of [
    ['engram lexical', report.lexical],
    ['BM25 baseline', report.bm25_baseline],
  ] as const) {
    console.log(
      `  ${name.padEnd(15)} turn R@5 ${f(s.turn.recall_at_5)}  R@10 ${f(s.turn.recall_at_10)} · session R@5 ${f(s.session.recall_at_5)}  R@10 ${f(s.session.recall_at_10)} · MRR ${f(s.mrr)}`,
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
  console.log('  (no embedder configured: vector and hybrid rows are not reported)');
}

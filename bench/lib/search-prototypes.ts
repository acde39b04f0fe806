// bench:search --prototypes: where project-scoped search spends its time (FTS match and BM25 over every
// matching row, the JOIN, row decoding, the coverage re-rank) and the effect of candidate fixes, measured
// on the same queries. Prototypes only: src/recall/search.ts and the observations repo are unchanged.
// Each variant's "top10" is the share of the real search's top 10 it also returns (1 = same results).
import type { ProjectId } from '../../src/core/ids.ts';
import type { Observation } from '../../src/core/model.ts';
import { buildFtsQuery, contentTerms } from '../../src/recall/fts-query.ts';
import { termCoverage } from '../../src/recall/render-context.ts';
import { searchMemories } from '../../src/recall/search.ts';
import type { Store } from '../../src/store/store.ts';

const BM25 = 'bm25(observations_fts, 8.0, 4.0, 1.0, 3.0, 2.0, 1.0, 2.0)';
const CANDIDATES = 50;

interface Row {
  rowid: number;
  id: string;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string;
  concepts: string;
  files_read: string;
  files_modified: string;
  rank: number;
}

/** The same coverage re-rank as src/recall/search.ts, over candidate rows. */
/** termCoverage's words with a plain ASCII regex (the real one matches \\p{L}\\p{N}, several times slower). */
function asciiCoverage(terms: string[], r: Row): number {
  const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '');
  const text = [r.title, r.subtitle, r.narrative, r.facts, r.concepts, r.files_read, r.files_modified].join(
    ' ',
  );
  const words = new Set((text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).map(stem));
  return terms.filter((t) => words.has(stem(t))).length / Math.max(1, terms.length);
}

function rerank(rows: Row[], terms: string[], ascii = false): string[] {
  return rows
    .map((r) => {
      if (ascii) return { id: r.id, rank: r.rank, coverage: asciiCoverage(terms, r) };
      const o = {
        title: r.title,
        subtitle: r.subtitle,
        narrative: r.narrative,
        facts: JSON.parse(r.facts) as string[],
        concepts: JSON.parse(r.concepts) as string[],
        filesRead: JSON.parse(r.files_read) as string[],
        filesModified: JSON.parse(r.files_modified) as string[],
      } as Observation;
      return { id: r.id, rank: r.rank, coverage: termCoverage(terms, o) };
    })
    .sort((a, b) => b.coverage - a.coverage || a.rank - b.rank)
    .slice(0, 10)
    .map((r) => r.id);
}

export function prototypes<S>(
  store: Store,
  projectId: ProjectId,
  qs: { text: string }[],
  stats: (xs: number[]) => S,
): Record<string, S & { top10?: number; cpu_p50?: number; cpu_p95?: number }> {
  const db = store.db;
  const cols =
    'o.rowid, o.id, o.title, o.subtitle, o.narrative, o.facts, o.concepts, o.files_read, o.files_modified';
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab USING fts5vocab(main, observations_fts, 'row')`,
  );
  const st = {
    count: db.prepare('SELECT COUNT(*) AS n FROM observations_fts WHERE observations_fts MATCH ?'),
    ftsOnly: db.prepare(
      `SELECT rowid, ${BM25} AS rank FROM observations_fts WHERE observations_fts MATCH ? ORDER BY rank LIMIT ${CANDIDATES}`,
    ),
    real: db.prepare(
      `SELECT ${cols}, ${BM25} AS rank FROM observations_fts JOIN observations o ON o.rowid = observations_fts.rowid
       WHERE observations_fts MATCH ? AND o.status = 'active' AND o.project_id = ? ORDER BY rank LIMIT ${CANDIDATES}`,
    ),
    // FTS ranks first; only the best few hundred rows are joined and filtered.
    ftsFirst: db.prepare(
      `SELECT ${cols}, f.rank FROM (SELECT rowid, ${BM25} AS rank FROM observations_fts WHERE observations_fts MATCH ?
         ORDER BY rank LIMIT ?) f JOIN observations o ON o.rowid = f.rowid
       WHERE o.status = 'active' AND o.project_id = ? ORDER BY f.rank LIMIT ${CANDIDATES}`,
    ),
    // BM25 only over the W most recent matches (FTS5 walks rowids newest first and stops).
    window: db.prepare(
      `SELECT ${cols}, f.rank FROM (SELECT rowid, ${BM25} AS rank FROM observations_fts WHERE observations_fts MATCH ?
         ORDER BY rowid DESC LIMIT ?) f JOIN observations o ON o.rowid = f.rowid
       WHERE o.status = 'active' AND o.project_id = ? ORDER BY f.rank LIMIT ${CANDIDATES}`,
    ),
  };
  // Variants are registered first, then run query by query in turn, so machine noise hits them alike.
  type Variant = (q: string, fts: string, terms: string[]) => string[] | number;
  const variants: [string, Variant][] = [];
  const run = (name: string, fn: Variant) => variants.push([name, fn]);
  const out: Record<string, S & { top10?: number; cpu_p50?: number; cpu_p95?: number }> = {};
  const matches: number[] = [];
  run('diag: real searchMemories', (q) =>
    searchMemories(store, q, projectId, 10).map((h) => h.observation.id),
  );
  run('diag: COUNT of FTS matches', (_q, fts) => {
    matches.push((st.count.get(fts) as { n: number }).n);
    return 0;
  });
  run('diag: FTS MATCH + BM25 sort, no JOIN', (_q, fts) => st.ftsOnly.all(fts).length);
  run('diag: real SQL (JOIN, filter), no decode', (_q, fts) => st.real.all(fts, projectId).length);
  run('diag: real SQL + coverage re-rank', (_q, fts, terms) =>
    rerank(st.real.all(fts, projectId) as Row[], terms),
  );
  for (const k of [500, 2000])
    run(`fix: FTS-first top ${k}, then JOIN`, (_q, fts, terms) =>
      rerank(st.ftsFirst.all(fts, k, projectId) as Row[], terms),
    );
  for (const w of [2000, 10000])
    run(`fix: BM25 over newest ${w} matches`, (_q, fts, terms) =>
      rerank(st.window.all(fts, w, projectId) as Row[], terms),
    );
  // Document frequency of every query term, computed once outside the timings: it stands for a small
  // table of common terms the worker would keep (fts5vocab counts by walking the doclist: too slow per query).
  const df = new Map<string, number>();
  for (const q of qs)
    for (const t of contentTerms(q.text))
      if (!df.has(t)) df.set(t, (st.count.get(`"${t.replace(/"/g, '""')}"`) as { n: number }).n);
  const quoted = (ts: string[], op: string) => ts.map((t) => `"${t.replace(/"/g, '""')}"`).join(op);
  // Terms in more than K memories carry little BM25 weight: match on the rarer terms only (the coverage
  // re-rank still counts every term); all common → match them all (AND).
  for (const k of [1000, 5000])
    run(`fix: match only terms in <= ${k} memories`, (_q, _fts, terms) => {
      const rare = terms.filter((t) => (df.get(t) ?? 0) <= k);
      const fts = rare.length > 0 ? quoted(rare, ' OR ') : quoted(terms, ' AND ');
      return rerank(st.real.all(fts, projectId) as Row[], terms);
    });
  // Combined: the rare terms (<= 1000 memories) ranked in full when the query has any; otherwise (only
  // common words) BM25 over the newest 2000 matches. Both are bounded whatever the store's size.
  run('fix: rare terms, else newest 2000', (_q, fts, terms) => {
    const rare = terms.filter((t) => (df.get(t) ?? 0) <= 1000);
    const rows =
      rare.length > 0 ? st.real.all(quoted(rare, ' OR '), projectId) : st.window.all(fts, 2000, projectId);
    return rerank(rows as Row[], terms);
  });
  // The same, stateless: each term is classed by a bounded probe (at most 1001 doclist entries read)
  // instead of a table of document frequencies; the probes are inside the timing.
  const probe = db.prepare(
    'SELECT COUNT(*) AS n FROM (SELECT 1 FROM observations_fts WHERE observations_fts MATCH ? LIMIT 1001)',
  );
  run('fix: same, terms classed by LIMIT probe', (_q, fts, terms) => {
    const rare = terms.filter((t) => (probe.get(quoted([t], '')) as { n: number }).n <= 1000);
    const rows =
      rare.length > 0 ? st.real.all(quoted(rare, ' OR '), projectId) : st.window.all(fts, 2000, projectId);
    return rerank(rows as Row[], terms);
  });
  // The same, but common-only queries are ranked among the matches in the newest 5000 memories: a rowid
  // range FTS5 seeks to (ORDER BY rowid DESC makes FTS5 reverse every whole doclist first).
  const maxRowid = (db.prepare('SELECT MAX(rowid) AS m FROM observations').get() as { m: number }).m;
  const recentRange = db.prepare(
    `SELECT ${cols}, f.rank FROM (SELECT rowid, ${BM25} AS rank FROM observations_fts WHERE observations_fts MATCH ?
       AND rowid > ?) f JOIN observations o ON o.rowid = f.rowid
     WHERE o.status = 'active' AND o.project_id = ? ORDER BY f.rank LIMIT ${CANDIDATES}`,
  );
  run('fix: probe; rare terms, else newest 5000 rows', (_q, fts, terms) => {
    const rare = terms.filter((t) => (probe.get(quoted([t], '')) as { n: number }).n <= 1000);
    const rows =
      rare.length > 0
        ? st.real.all(quoted(rare, ' OR '), projectId)
        : recentRange.all(fts, maxRowid - 5000, projectId);
    return rerank(rows as Row[], terms);
  });
  run('fix: real SQL + ASCII-fast coverage re-rank', (_q, fts, terms) =>
    rerank(st.real.all(fts, projectId) as Row[], terms, true),
  );
  const times = variants.map(() => [] as number[]);
  const cpu = variants.map(() => [] as number[]);
  const agree = variants.map(() => ({ overlap: 0, compared: 0 }));
  for (const q of qs) {
    const fts = buildFtsQuery(q.text);
    if (!fts) continue;
    const terms = contentTerms(q.text);
    const ref = searchMemories(store, q.text, projectId, 10).map((h) => h.observation.id as string);
    variants.forEach(([, fn], i) => {
      const c0 = process.cpuUsage();
      const t = performance.now();
      const ids = fn(q.text, fts, terms);
      times[i]!.push(performance.now() - t);
      const c = process.cpuUsage(c0);
      cpu[i]!.push((c.user + c.system) / 1000);
      if (Array.isArray(ids) && ref.length > 0) {
        agree[i]!.compared++;
        agree[i]!.overlap += ids.filter((id) => ref.includes(id)).length / ref.length;
      }
    });
  }
  variants.forEach(([name], i) => {
    const a = agree[i]!;
    const c = stats(cpu[i]!) as { p50: number; p95: number };
    out[name] = {
      ...stats(times[i]!),
      cpu_p50: c.p50,
      cpu_p95: c.p95,
      ...(a.compared > 0 ? { top10: a.overlap / a.compared } : {}),
    };
  });
  const sorted = [...matches].sort((a, b) => a - b);
  out['info: FTS matches per query (count, not ms)'] = stats(sorted) as S & { top10?: number };
  return out;
}

/**
 * Prints the `labelled` set's figures (`labelled-set.ts`): per session and in total, per gold kind,
 * SessionStart and prompt-time, each beside its target; with `verbose`, every memory with its verdict
 * and the facets it stated, every gold item, every question.
 */
import { GOLD_KINDS } from '../labelled/gold-file.ts';
import type { GoldCounts, LabelledReport, RecallFigures, SessionFigures } from './labelled-set.ts';

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
const weighted = (c: GoldCounts) => c.fully + c.partly / 2;
const yes = (ok: boolean) => (ok ? 'met' : 'NOT met');

export const LABELLED_TARGETS =
  'targets: gold fully >= 60 %, weighted >= 80 %, no kind below 40 % (weighted); useful >= 85 %, duplicates <= 3 %, wrong <= 2 %; 0 false "Still failing"/"Next steps" lines injected';

function sessionRow(s: SessionFigures): string {
  return [
    s.label.padEnd(20),
    String(s.stored).padStart(6),
    `${s.useful} (${pct(s.useful, s.stored)})`.padEnd(13),
    `${s.duplicate} (${pct(s.duplicate, s.stored)})`.padEnd(12),
    `${s.wrong} (${pct(s.wrong, s.stored)})`.padEnd(12),
    String(s.unmatched).padStart(5),
    String(s.gold.total).padStart(4),
    `${s.gold.fully} (${pct(s.gold.fully, s.gold.total)})`.padEnd(12),
    String(s.gold.partly).padStart(6),
    String(s.gold.missed).padStart(6),
    pct(weighted(s.gold), s.gold.total).padStart(8),
    `${s.startWrong} (${s.startOpenProblem})`.padStart(10),
    `${s.promptWrong}`.padStart(6),
  ].join(' | ');
}

function recallRow(label: string, r: RecallFigures): string {
  return [
    label.padEnd(20),
    `${r.questions} (${r.answerable})`.padStart(9),
    `${pct(r.searchAt1, r.questions)} / ${pct(r.searchAt5, r.questions)}`.padEnd(17),
    `${pct(r.promptAt1, r.questions)} / ${pct(r.promptAt5, r.questions)}`.padEnd(17),
    `${r.promptEmpty} (${pct(r.promptEmpty, r.questions)})`.padEnd(12),
    `${r.promptWrongLines}/${r.promptLines}`,
  ].join(' | ');
}

export function printLabelled(r: LabelledReport, verbose: boolean): void {
  const t = r.total;
  console.log(
    `Labelled real sessions (${r.datasetDir}): ${r.sessions.length} sessions through engram backfill (${r.backfill.files} files, ${r.backfill.created} memories created, ${r.backfill.errors} errors), ${t.gold.total} gold items, ${r.mustNeverCount} must-never items, ${r.recall.questions} questions`,
  );
  console.log(`${LABELLED_TARGETS}\n`);
  console.log(
    'session              | stored | useful        | dupl.        | wrong        | unm. | gold | fully        | partly | missed | weighted | start wrong (open) | prompt wrong',
  );
  for (const s of [...r.sessions, t]) console.log(sessionRow(s));

  console.log(
    '\nby kind (items with two kinds count in both): kind | items | fully | partly | missed | weighted',
  );
  for (const k of GOLD_KINDS) {
    const c = t.byKind[k];
    console.log(
      `  ${k} | ${c.total} | ${c.fully} (${pct(c.fully, c.total)}) | ${c.partly} | ${c.missed} | ${pct(weighted(c), c.total)}`,
    );
  }
  console.log('per session, kind fully/partly/missed:');
  for (const s of r.sessions) {
    const kinds = GOLD_KINDS.filter((k) => s.byKind[k].total > 0).map(
      (k) => `${k} ${s.byKind[k].fully}/${s.byKind[k].partly}/${s.byKind[k].missed}`,
    );
    console.log(`  ${s.label}: ${kinds.join(' · ')}`);
  }
  const startLines = r.sessionStart.reduce((n, s) => n + s.lines, 0);
  const startWrong = r.sessionStart.reduce((n, s) => n + s.wrong.length, 0);
  const startOpen = r.sessionStart.reduce((n, s) => n + s.wrong.filter((w) => w.openProblem).length, 0);
  console.log(
    `\nSessionStart (${r.sessionStart.length} projects, now after the last session): ${startWrong} wrong of ${startLines} lines (${pct(startWrong, startLines)}), ${startOpen} false "Still failing"/"Next steps" lines`,
  );
  console.log(
    '\nprompt time: session | questions (answerable) | search recall@1 / @5 | prompt-time recall@1 / @5 | injects nothing | wrong lines / injected',
  );
  for (const [label, rec] of Object.entries(r.recallBySession)) console.log(recallRow(label, rec));
  console.log(recallRow('total', r.recall));

  const kindsOk = GOLD_KINDS.every(
    (k) => t.byKind[k].total === 0 || weighted(t.byKind[k]) / t.byKind[k].total >= 0.4,
  );
  console.log(
    `\ntargets: fully ${pct(t.gold.fully, t.gold.total)} (${yes(t.gold.fully / t.gold.total >= 0.6)}), weighted ${pct(weighted(t.gold), t.gold.total)} (${yes(weighted(t.gold) / t.gold.total >= 0.8)}), kinds >= 40 % (${yes(kindsOk)}), useful ${pct(t.useful, t.stored)} (${yes(t.useful / Math.max(1, t.stored) >= 0.85)}), duplicates ${pct(t.duplicate, t.stored)} (${yes(t.duplicate / Math.max(1, t.stored) <= 0.03)}), wrong ${pct(t.wrong, t.stored)} (${yes(t.wrong / Math.max(1, t.stored) <= 0.02)}), false open-problem lines at SessionStart ${startOpen} (${yes(startOpen === 0)})`,
  );

  console.log('');
  for (const j of r.memories.filter((m) => m.verdict === 'wrong'))
    console.log(`wrong memory: ${j.mustNever} [${j.memory.type}] ${j.memory.title.slice(0, 110)}`);
  for (const w of r.wrongSummaryFields)
    console.log(
      `wrong summary field: ${w.mustNever} ${w.field.sessionId.slice(0, 8)} ${w.field.field}: ${w.field.text.slice(0, 110)}`,
    );
  for (const s of r.sessionStart)
    for (const w of s.wrong)
      console.log(`wrong SessionStart line (${s.projectName}): ${w.reason}: ${w.line.trim().slice(0, 140)}`);
  console.log(
    `missed gold items: ${
      r.items
        .filter((i) => i.level === 'missed')
        .map((i) => i.id)
        .join(', ') || '-'
    }`,
  );
  if (!verbose) return;

  console.log('\n--- memories (oldest first): verdict [type] title <- facets stated (item#part:level)');
  for (const j of r.memories) {
    const facets = j.matches.map((m) => `${m.item}#${m.part}:${m.level}`).join(', ');
    console.log(
      `${j.verdict.padEnd(9)} ${j.memory.id} ${(j.memory.sessionId ?? '-').slice(0, 8)} [${j.memory.type}] ${j.memory.title.slice(0, 100)}${facets ? `  <- ${facets}` : ''}${j.note ? `  (${j.note.slice(0, 100)})` : ''}`,
    );
  }
  console.log('\n--- gold items: level id [kinds] facets (level by …)');
  for (const i of r.items) {
    const parts = i.parts
      .map((p, n) => `#${n}:${p.level}${p.by.length ? ` by ${p.by.slice(0, 3).join(' ')}` : ''}`)
      .join('; ');
    console.log(`${i.level.padEnd(6)} ${i.id} [${i.kinds.join('/')}] ${parts}`);
  }
  console.log('\n--- questions: item | holders | search top 5 | prompt-time injected');
  for (const q of r.questions) {
    const mark = (ids: string[]) =>
      ids.map((id) => (q.holders.includes(id) ? `*${id}` : id)).join(' ') || '-';
    console.log(
      `${q.item} "${q.question}"\n    holders ${q.holders.length} | search ${mark(q.search)} | prompt ${mark(q.prompt)}`,
    );
    for (const w of q.promptWrong) console.log(`    wrong line: ${w.reason}: ${w.line.trim().slice(0, 120)}`);
  }
  for (const s of r.sessionStart) console.log(`\n--- SessionStart text of ${s.projectName}:\n${s.text}`);
}

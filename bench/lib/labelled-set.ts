/**
 * The `labelled` set of `bench:quality`: the five real sessions of `../shared/datasets/labelled-sessions`
 * copied to a temp dir, ingested by engram's real backfill into a fresh store, then judged
 * (`labelled-judge.ts`) on what the next session would see: the memories, the session summaries, the
 * SessionStart text, and what prompt-time recall and search return for questions about each gold item.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../src/core/config.ts';
import type { ProjectId } from '../../src/core/ids.ts';
import { createHeuristicDistiller } from '../../src/distill/heuristic-distiller.ts';
import { renderPromptContext, renderSessionContext } from '../../src/recall/render-context.ts';
import { searchMemories } from '../../src/recall/search.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createStore, type Store } from '../../src/store/store.ts';
import { backfill } from '../../src/worker/backfill.ts';
import { LABELLED } from '../labelled/annotations.ts';
import { GOLD_KINDS, readGoldFile, type GoldKind } from '../labelled/gold-file.ts';
import {
  holdersOf,
  judgeLabelled,
  wrongLines,
  type JudgedItem,
  type JudgedMemory,
  type LabelledMemory,
  type LabelledSession,
  type LabelledSummaryField,
  type LineVerdict,
  type SummaryField,
  type WrongSummaryField,
} from './labelled-judge.ts';

/** Where the dataset sits next to the repository. */
export const labelledDatasetDir = (repoRoot: string) =>
  join(repoRoot, '..', 'shared', 'datasets', 'labelled-sessions');

/** Whether the dataset is there (the tests never need it; the bench skips it when absent). */
export function labelledDatasetPresent(dir: string): boolean {
  return ['README.md', 'gold', 'projects'].every((p) => existsSync(join(dir, p)));
}

/** Backfill time, after the last session (2026-02-09); the next session starts an hour later. */
const BACKFILLED_AT = Date.parse('2026-03-01T00:00:00Z');
const NEXT_SESSION_AT = BACKFILLED_AT + 3_600_000;
const NEXT_SESSION = 'bench-next-session';

export interface GoldCounts {
  total: number;
  fully: number;
  partly: number;
  missed: number;
}

export interface SessionFigures {
  label: string;
  sessionId: string;
  stored: number;
  useful: number;
  duplicate: number;
  wrong: number;
  unmatched: number;
  gold: GoldCounts;
  byKind: Record<GoldKind, GoldCounts>;
  /** Wrong lines of the SessionStart text that belong to this session (its memories, its summary). */
  startWrong: number;
  startOpenProblem: number;
  questions: number;
  promptWrong: number;
}

export interface QuestionResult {
  projectId: string;
  item: string;
  sessionId: string;
  question: string;
  holders: string[];
  search: string[];
  prompt: string[];
  promptWrong: LineVerdict[];
  /** What the same prompt injects in another project of the set (where nothing answers it: all noise). */
  elsewhere: string[];
}

export interface RecallFigures {
  questions: number;
  answerable: number;
  searchAt1: number;
  searchAt5: number;
  promptAt1: number;
  promptAt5: number;
  promptEmpty: number;
  promptWrongLines: number;
  promptLines: number;
}

export interface StartText {
  projectId: string;
  projectName: string;
  text: string;
  lines: number;
  wrong: LineVerdict[];
}

export interface LabelledReport {
  datasetDir: string;
  /** The store's folder, when kept (`engram.db` in it). */
  storeDir?: string;
  backfill: { files: number; sessions: number; created: number; errors: number };
  sessions: SessionFigures[];
  total: SessionFigures;
  recall: RecallFigures;
  recallBySession: Record<string, RecallFigures>;
  sessionStart: StartText[];
  memories: JudgedMemory[];
  items: JudgedItem[];
  wrongSummaryFields: WrongSummaryField[];
  questions: QuestionResult[];
  mustNeverCount: number;
}

const emptyCounts = (): GoldCounts => ({ total: 0, fully: 0, partly: 0, missed: 0 });

function toMemory(o: ReturnType<Store['observations']['recent']>[number]): LabelledMemory {
  return {
    id: o.id,
    sessionId: o.sessionId,
    projectId: o.projectId,
    type: o.type,
    title: o.title,
    subtitle: o.subtitle,
    narrative: o.narrative,
    facts: o.facts,
    createdAt: o.createdAt,
  };
}

const SUMMARY_FIELDS: SummaryField[] = ['request', 'completed', 'learned', 'nextSteps'];

function recallOf(results: readonly QuestionResult[]): RecallFigures {
  const at = (ids: readonly string[], k: number, holders: readonly string[]) =>
    ids.slice(0, k).some((id) => holders.includes(id));
  return {
    questions: results.length,
    answerable: results.filter((r) => r.holders.length > 0).length,
    searchAt1: results.filter((r) => at(r.search, 1, r.holders)).length,
    searchAt5: results.filter((r) => at(r.search, 5, r.holders)).length,
    promptAt1: results.filter((r) => at(r.prompt, 1, r.holders)).length,
    promptAt5: results.filter((r) => at(r.prompt, 5, r.holders)).length,
    promptEmpty: results.filter((r) => r.prompt.length === 0).length,
    promptWrongLines: results.reduce((n, r) => n + r.promptWrong.length, 0),
    promptLines: results.reduce((n, r) => n + r.prompt.length, 0),
  };
}

/**
 * Backfill the dataset into a fresh store and judge it. `keep`: leave the store's folder (its path in
 * `storeDir`; the caller removes it) so other surfaces can be asked the same questions.
 */
/** `config`: settings other than the defaults (`{ 'context.promptMinScore': 0.3 }`), as a config file gives them. */
export function runLabelled(
  datasetDir: string,
  options: { keep?: boolean; config?: Record<string, unknown> } = {},
): LabelledReport {
  const work = mkdtempSync(join(tmpdir(), 'engram-bench-labelled-'));
  const store = createStore(openDatabase(join(work, 'engram.db')));
  try {
    const root = join(work, 'projects');
    cpSync(join(datasetDir, 'projects'), root, { recursive: true });
    const report = backfill(store, { root, distiller: createHeuristicDistiller(), now: () => BACKFILLED_AT });
    const config = resolveConfig({ env: {}, ...(options.config ? { file: options.config } : {}) });

    const sessions: LabelledSession[] = LABELLED.map((annotation) => {
      const s = store.sessions.get(annotation.sessionId);
      if (!s) throw new Error(`backfill did not record session ${annotation.sessionId}`);
      return { annotation, gold: readGoldFile(datasetDir, annotation.goldFile), projectId: s.projectId };
    });
    const projectIds = [...new Set(sessions.map((s) => s.projectId))];
    const memories = projectIds.flatMap((p) =>
      store.observations.recent(p as ProjectId, 100_000).map(toMemory),
    );
    const summaryFields: LabelledSummaryField[] = sessions.flatMap(({ annotation }) => {
      const s = store.summaries.get(annotation.sessionId);
      if (!s) return [];
      return SUMMARY_FIELDS.map((field) => ({
        sessionId: s.sessionId,
        projectId: s.projectId,
        field,
        text: s[field],
      })).filter((f) => f.text.trim() !== '');
    });
    const judged = judgeLabelled(sessions, memories, summaryFields);
    const mustNeverOf = (projectId: string) =>
      sessions.filter((s) => s.projectId === projectId).flatMap((s) => s.annotation.mustNever);

    const sessionStart: StartText[] = projectIds.map((projectId) => {
      const project = store.sessions.project(projectId as ProjectId);
      if (!project) throw new Error(`no project ${projectId}`);
      const rendered = renderSessionContext(store, {
        project,
        sessionId: NEXT_SESSION,
        source: 'startup',
        now: NEXT_SESSION_AT,
        budgetTokens: config['context.sessionStartTokens'],
        recentCount: config['context.recentCount'],
        standingShare: config['context.standingShare'],
      });
      const shown = store.summaries.latest(project.id, NEXT_SESSION, 1)[0]?.sessionId ?? null;
      return {
        projectId,
        projectName: project.name,
        text: rendered.text,
        lines: rendered.text === '' ? 0 : rendered.text.split('\n').filter((l) => l.trim() !== '').length,
        wrong: wrongLines(rendered.text, judged.memories, mustNeverOf(projectId), shown),
      };
    });

    /** What UserPromptSubmit would inject for `prompt` in `projectId`, with the configured limits. */
    const promptRecall = (projectId: string, prompt: string) =>
      renderPromptContext(store, {
        projectId: projectId as ProjectId,
        sessionId: NEXT_SESSION,
        prompt,
        now: NEXT_SESSION_AT,
        budgetTokens: config['context.promptTokens'],
        maxItems: config['context.promptMaxItems'],
        minScore: config['context.promptMinScore'],
      });
    const questions: QuestionResult[] = sessions.flatMap(({ annotation, projectId }) =>
      annotation.items.flatMap((item) =>
        item.ask.map((question) => {
          const prompt = promptRecall(projectId, question);
          const others = projectIds.filter((p) => p !== projectId);
          const other = others[(projectIds.indexOf(projectId) + others.length) % others.length];
          const elsewhere = other ? promptRecall(other, question).observationIds : [];
          const hits = searchMemories(store, {
            query: question,
            projectId: projectId as ProjectId,
            limit: 5,
            now: NEXT_SESSION_AT,
          });
          return {
            projectId,
            item: item.id,
            sessionId: annotation.sessionId,
            question,
            holders: [...holdersOf(judged.memories, item.id)],
            search: hits.map((h) => h.observation.id),
            prompt: prompt.observationIds,
            promptWrong: wrongLines(prompt.text, judged.memories, mustNeverOf(projectId), null),
            elsewhere,
          };
        }),
      ),
    );

    const figures = (label: string, sessionId: string | null): SessionFigures => {
      const mine = (id: string | null) => sessionId === null || id === sessionId;
      const ms = judged.memories.filter((j) => mine(j.memory.sessionId));
      const its = judged.items.filter((i) => mine(i.sessionId));
      const byKind = Object.fromEntries(GOLD_KINDS.map((k) => [k, emptyCounts()])) as Record<
        GoldKind,
        GoldCounts
      >;
      const gold = emptyCounts();
      for (const i of its) {
        for (const c of [gold, ...i.kinds.map((k) => byKind[k])]) {
          c.total++;
          c[i.level]++;
        }
      }
      const startWrong = sessionStart
        .flatMap((s) => s.wrong)
        .filter((w) => sessionId === null || w.sessionId === sessionId);
      const qs = questions.filter((q) => mine(q.sessionId));
      return {
        label,
        sessionId: sessionId ?? '',
        stored: ms.length,
        useful: ms.filter((j) => j.verdict === 'useful').length,
        duplicate: ms.filter((j) => j.verdict === 'duplicate').length,
        wrong: ms.filter((j) => j.verdict === 'wrong').length,
        unmatched: ms.filter((j) => j.verdict === 'unmatched').length,
        gold,
        byKind,
        startWrong: startWrong.length,
        startOpenProblem: startWrong.filter((w) => w.openProblem).length,
        questions: qs.length,
        promptWrong: qs.reduce((n, q) => n + q.promptWrong.length, 0),
      };
    };

    return {
      datasetDir,
      ...(options.keep ? { storeDir: work } : {}),
      backfill: {
        files: report.files,
        sessions: report.sessions,
        created: report.created,
        errors: report.errors.length,
      },
      sessions: LABELLED.map((a) => figures(a.label, a.sessionId)),
      total: figures('total', null),
      recall: recallOf(questions),
      recallBySession: Object.fromEntries(
        LABELLED.map((a) => [a.label, recallOf(questions.filter((q) => q.sessionId === a.sessionId))]),
      ),
      sessionStart,
      memories: judged.memories,
      items: judged.items,
      wrongSummaryFields: judged.wrongSummaryFields,
      questions,
      mustNeverCount: LABELLED.reduce((n, a) => n + a.mustNever.length, 0),
    };
  } finally {
    store.close();
    if (!options.keep) rmSync(work, { recursive: true, force: true });
  }
}

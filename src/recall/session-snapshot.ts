/**
 * A SessionStart snapshot: what a project's index reads from the store (session-context.ts'
 * `SessionInputs`), read in one transaction with the store's context epoch, plus the summary lines the
 * current instruction screen judged clear. The worker takes one per project in use after its rounds
 * (store/context-snapshot.ts keeps it on file); the context hook renders from it — the same rendering
 * as the live index, at the hook's own time, with its own stat of the anchored files, its own told
 * ledger and its host's rules files — only while the store's epoch is still the one it was read at,
 * and for sessions that start fresh (`startup`, `clear`): a resumed or compacted session reads what
 * was told to it, so it renders live. A shared project always renders live (its teammates' state
 * changes outside what the epoch covers).
 */
import { SCREEN_VERSION, screenText } from '../core/instruction-screen.ts';
import type { TrustClass } from '../core/trust.ts';
import { readContextEpoch } from '../store/context-snapshot.ts';
import type { ReadStore } from '../store/read-store.ts';
import { earlierSessionLine, summaryBlock } from './context-lines.ts';
import type { ScreenMemo } from './injection-gate.ts';
import {
  gatherSessionInputs,
  SESSION_ANCHOR_FIELDS,
  SESSION_MEMORY_FIELDS,
  type SessionInputs,
  type StartSource,
} from './session-context.ts';

/** 2: a memory's `subject` kept (a commands card's title is shown whole). */
const FORMAT = 2;

export interface SessionSnapshot {
  format: typeof FORMAT;
  /** The instruction screen that judged `clear`. */
  screenVersion: number;
  /** The store's context epoch the inputs were read at. */
  epoch: string;
  projectId: string;
  /** The settings the inputs depend on (context.recentCount, graph.keyFiles). */
  recentCount: number;
  keyFiles: number;
  /** Read for no session in particular: the hook leaves its own session's summary out. */
  inputs: SessionInputs;
  /** `<trust>\t<line>` of each summary line the screen judged clear. */
  clear: string[];
}

const memoKey = (line: string, trust: TrustClass) => `${trust}\t${line}`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WEEK = 7 * 24 * HOUR;

/**
 * Ages (ms) from `age` to a week later, one within each step of recall/format-age's wording (minutes
 * while it counts minutes, hours while it counts hours, then days), so every wording of the week ahead
 * is among them.
 */
function agesAhead(age: number): number[] {
  const out: number[] = [];
  for (let t = Math.max(0, age); t <= age + WEEK;) {
    out.push(t);
    t += t < 2 * HOUR ? 30_000 : t < 48 * HOUR ? 30 * MINUTE : 12 * HOUR;
  }
  return out;
}

/**
 * Read a project's snapshot from the store, or null for a shared project or a store without an epoch.
 * One read transaction: the epoch and the inputs are of the same moment.
 */
export function takeSessionSnapshot(
  store: ReadStore,
  projectId: string,
  settings: { recentCount: number; keyFiles: number; now: number },
): SessionSnapshot | null {
  return store.db.transaction((): SessionSnapshot | null => {
    const epoch = readContextEpoch(store.db);
    if (epoch === null || store.team.project(projectId)) return null;
    const inputs = gatherSessionInputs(store, {
      projectId,
      exceptSessionId: '',
      source: 'startup',
      recentCount: settings.recentCount,
      keyFiles: settings.keyFiles,
      anchors: true,
    });
    // Summary lines are screened at every injection (memories carry their own verdict). The worker
    // screens them here instead: a summary's block as it reads at any time (its heading, which holds
    // an age, is the user's and never screened), and an earlier session's line as it reads at each
    // age it shows in the week to come.
    const clear = new Set<string>();
    const judged = new Set<string>();
    const judge = (line: string, trust: TrustClass) => {
      const key = memoKey(line, trust);
      if (line === '' || judged.has(key)) return;
      judged.add(key);
      if (screenText(line, trust) === null) clear.add(key);
    };
    for (const s of inputs.latest) {
      for (const { line, trust } of summaryBlock('', s, settings.now))
        if (trust !== 'user') judge(line, trust);
      for (const at of agesAhead(settings.now - s.updatedAt))
        judge(earlierSessionLine(s, s.updatedAt + at), 'tool');
    }
    // Only what the rendering reads of each memory and anchor (its types hold it to these fields).
    const slim = <T extends object>(o: T, fields: readonly (keyof T)[]) =>
      Object.fromEntries(fields.map((f) => [f, o[f]])) as T;
    return {
      format: FORMAT,
      screenVersion: SCREEN_VERSION,
      epoch,
      projectId,
      recentCount: settings.recentCount,
      keyFiles: settings.keyFiles,
      inputs: {
        ...inputs,
        standing: inputs.standing.map((o) => slim(o, SESSION_MEMORY_FIELDS)),
        recent: inputs.recent.map((o) => slim(o, SESSION_MEMORY_FIELDS)),
        anchors: inputs.anchors?.map((a) => slim(a, SESSION_ANCHOR_FIELDS)) ?? null,
      },
      clear: [...clear],
    };
  })();
}

/**
 * The snapshot's inputs and screen verdicts when it may stand for the store now: same format, screen
 * version, project and settings, a session that starts fresh, and the store's epoch unchanged.
 */
export function usableSnapshot(
  raw: unknown,
  want: {
    epoch: string | null;
    projectId: string;
    recentCount: number;
    keyFiles: number;
    source: StartSource;
  },
): { inputs: SessionInputs; screened: ScreenMemo } | null {
  if (want.epoch === null || (want.source !== 'startup' && want.source !== 'clear')) return null;
  const s = raw as Partial<SessionSnapshot> | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    s.format !== FORMAT ||
    s.screenVersion !== SCREEN_VERSION ||
    s.epoch !== want.epoch ||
    s.projectId !== want.projectId ||
    s.recentCount !== want.recentCount ||
    s.keyFiles !== want.keyFiles ||
    !s.inputs ||
    !Array.isArray(s.clear)
  )
    return null;
  const clear = new Set(s.clear);
  return { inputs: s.inputs, screened: { clear: (line, trust) => clear.has(memoKey(line, trust)) } };
}

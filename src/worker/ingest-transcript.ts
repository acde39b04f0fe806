/**
 * Reading one transcript file into memory, incrementally: from the stored offset (or from the start
 * when the file was rewritten), parse, distil, and store — memories, summary, usage, record-type
 * counts and the new offset in ONE transaction, so an interrupted read resumes without duplicates.
 */
import { basename } from 'node:path';
import { resolveProject } from '../capture/project-identity.ts';
import { fileFingerprint, fingerprintMatches, readJsonlFrom } from '../capture/transcript/read-jsonl.ts';
import type { HostName } from '../capture/hosts/host-port.ts';
import { transcriptReaderFor, transcriptSessionId } from '../capture/hosts/transcript-readers.ts';
import { mergeByTime, subagentToolCalls } from '../capture/hosts/subagent-activity.ts';
import type { Project, ProjectLinks, SummaryDraft } from '../core/model.ts';
import type { ChainLink, Rewind, TranscriptEntry, UsageRecord } from '../core/transcript.ts';
import type { Resolution } from '../distill/gotchas.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import {
  distilTranscript,
  type TimedDroppedText,
  type TranscriptMemory,
} from '../distill/transcript-distiller.ts';
import type { Store } from '../store/store.ts';
import { withoutCarried } from '../distill/work-state.ts';
import { storeKnowledge } from '../app/store-knowledge.ts';

/** How many entries are carried to the next read as context. */
const TAIL_ENTRIES = 8;
/** How many of the assistant's messages the context keeps, however far back (options offered earlier). */
const TAIL_MESSAGES = 3;

/**
 * What the next read is read against: the last entries, and the assistant's last few messages even
 * when tool calls pushed them out of those (the user's "A" may pick an option offered two messages back).
 */
export function contextTail(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const last = entries.slice(-TAIL_ENTRIES);
  const keep = TAIL_MESSAGES - last.filter((e) => e.kind === 'assistant_text').length;
  if (keep <= 0) return last;
  const earlier = entries
    .slice(0, -TAIL_ENTRIES)
    .filter((e) => e.kind === 'assistant_text')
    .slice(-keep);
  return [...earlier, ...last];
}

export interface IngestOptions {
  /**
   * Backfill: distil whole turns too (of sessions the hooks never saw). Live: the hooks captured the
   * turns; only the extractors run. Repair: distil whole turns even of sessions the hooks saw (a
   * database restored from a backup lost the hook events after it; the transcript still holds them).
   */
  mode: 'backfill' | 'live' | 'repair';
  distiller: Distiller;
  now: number;
  dryRun?: boolean;
  /** Only keep sessions whose working directory is under this path. */
  projectFilter?: string;
  /** Subagent files contribute usage and counts, not memories of their own. */
  subagent?: boolean;
  /** Known session id (live use); otherwise read from the records or the file name. */
  sessionId?: string;
  /** The session's working directory when the records do not say (live use). */
  cwd?: string;
  /** Confirmed `.engram.json` overrides (see capture/project-identity). */
  projectLinks?: ProjectLinks;
}

export interface IngestReport {
  path: string;
  sessionId: string | null;
  records: number;
  badLines: number;
  oversizeLines: number;
  skipped: Record<string, number>;
  created: number;
  usageMessages: number;
  restarted: boolean;
  filtered: boolean;
  /** Another reader (the worker, flush, backfill) stored this range first: nothing was stored. */
  raced: boolean;
}

/** Everything a read needs from the store, gathered before the (store-free) preparation. */
export interface IngestPlan {
  path: string;
  offset: number;
  context: TranscriptEntry[];
  /** The end of the record chain read before (to recognise a rewind to it). */
  chain: ChainLink[];
  restarted: boolean;
  previousRecords: number;
  previousBadLines: number;
  /** The hooks captured this session: only the extractors run. */
  live: boolean;
  previousSummary: SummaryDraft | null;
  subagent: boolean;
  dryRun: boolean;
  projectFilter: string | null;
  sessionId: string | null;
  /** The session as the file's host names it (its name, folder or header), when the records do not say. */
  fileSessionId: string;
  cwd: string | null;
  now: number;
  projectLinks: ProjectLinks;
  /** The stored progress this read starts from (null: never read): committing claims the range only if it is unchanged. */
  claim: { offset: number; fingerprint: string } | null;
}

/** The outcome of reading and distilling one file, ready to commit (plain data: it crosses threads). */
export interface PreparedIngest {
  report: IngestReport;
  /** Nothing to store (no new lines, filtered out, or a dry run). */
  nothingToStore: boolean;
  sessionId: string;
  cwd: string;
  /** The host that wrote the transcript (a session first seen here is recorded as its). */
  host: HostName;
  project: Project;
  memories: TranscriptMemory[];
  resolutions: Resolution[];
  finishedTasks: { subject: string; at: number; done?: string[] }[];
  removedFiles: { path: string; at: number; to?: string }[];
  droppedText: TimedDroppedText[];
  notFixed: { said: string; at: number }[];
  /** Branches the user rewound away from; what was stored of them is invalidated. */
  rewinds: Rewind[];
  summary: SummaryDraft | null;
  live: boolean;
  usage: UsageRecord[];
  types: [string, { seen: number; skipped: number }][];
  progress: {
    offset: number;
    fingerprint: string;
    records: number;
    badLines: number;
    tail: TranscriptEntry[];
    chain: ChainLink[];
  };
  firstAt: number;
  lastAt: number;
  claim: IngestPlan['claim'];
}

export function planIngest(
  store: Store,
  path: string,
  options: Omit<IngestOptions, 'distiller'>,
): IngestPlan {
  const previous = store.transcripts.progress(path);
  const restarted = previous !== null && !fingerprintMatches(path, previous.fingerprint);
  const keep = previous !== null && !restarted;
  const fileSessionId = transcriptSessionId(path) ?? basename(path, '.jsonl');
  const sessionKey = options.sessionId ?? fileSessionId;
  return {
    path,
    offset: keep ? previous.offset : 0,
    context: keep ? previous.tail : [],
    chain: keep ? previous.chain : [],
    restarted,
    previousRecords: keep ? previous.records : 0,
    previousBadLines: keep ? previous.badLines : 0,
    live: options.mode === 'live' || (options.mode === 'backfill' && store.events.hasEventsFor(sessionKey)),
    previousSummary: options.subagent ? null : store.summaries.get(sessionKey),
    subagent: options.subagent === true,
    dryRun: options.dryRun === true,
    projectFilter: options.projectFilter ?? null,
    sessionId: options.sessionId ?? null,
    fileSessionId,
    // A later read of a file whose records name the cwd only at its start: the session's own.
    cwd: options.cwd ?? store.sessions.cwdOf(sessionKey),
    now: options.now,
    projectLinks: options.projectLinks ?? {},
    claim: previous ? { offset: previous.offset, fingerprint: previous.fingerprint } : null,
  };
}

/** Read the appended part of a transcript and distil it. Touches no store (runs on any thread). */
export function prepareIngest(plan: IngestPlan, distiller: Distiller): PreparedIngest {
  const reader = transcriptReaderFor(plan.path);
  const chunk = readJsonlFrom(plan.path, plan.offset, { peek: reader.peek });
  const parser = reader.parser(plan.context, plan.chain);
  for (const line of chunk.lines) {
    if (line.skipped !== undefined) parser.skip(line.skipped);
    else parser.add(line.value);
  }
  const parsed = parser.result();
  const sessionId = plan.sessionId ?? parsed.sessionId ?? plan.fileSessionId;
  const cwd = parsed.cwd ?? plan.cwd ?? '/';
  const report: IngestReport = {
    path: plan.path,
    sessionId,
    records: chunk.lines.length,
    badLines: chunk.badLines,
    oversizeLines: chunk.oversizeLines,
    skipped: Object.fromEntries(
      [...parsed.types].filter(([, c]) => c.skipped > 0).map(([t, c]) => [t, c.skipped]),
    ),
    created: 0,
    usageMessages: 0,
    restarted: plan.restarted,
    filtered: false,
    raced: false,
  };
  const links = plan.projectLinks;
  const project: Project = resolveProject(cwd, () => links);
  const own = plan.subagent ? [] : parsed.entries;
  // What the session's subagents did meanwhile, where the host keeps it in files of their own.
  const until = own.reduce((max, e) => Math.max(max, e.at), -Infinity);
  const entries =
    own.length === 0
      ? own
      : mergeByTime(own, subagentToolCalls(reader, plan.path, plan.context.at(-1)?.at ?? -Infinity, until));
  const base = {
    report,
    sessionId,
    cwd,
    host: reader.host,
    project,
    live: plan.live,
    usage: parsed.usage,
    types: [...parsed.types],
    claim: plan.claim,
    firstAt: parsed.entries[0]?.at || parsed.usage[0]?.at || plan.now,
    lastAt: parsed.entries[parsed.entries.length - 1]?.at || parsed.entries[0]?.at || plan.now,
    progress: {
      offset: chunk.nextOffset,
      fingerprint: fileFingerprint(plan.path),
      records: plan.previousRecords + chunk.lines.length,
      badLines: plan.previousBadLines + chunk.badLines + chunk.oversizeLines,
      tail: contextTail([...plan.context, ...own]),
      chain: parsed.chain,
    },
    rewinds: plan.subagent ? [] : parsed.rewinds,
  };
  const empty = chunk.lines.length === 0 && chunk.badLines === 0 && chunk.oversizeLines === 0;
  if (empty || (plan.projectFilter !== null && !cwd.startsWith(plan.projectFilter))) {
    report.filtered = !empty;
    return {
      ...base,
      nothingToStore: true,
      memories: [],
      resolutions: [],
      finishedTasks: [],
      removedFiles: [],
      droppedText: [],
      notFixed: [],
      summary: null,
    };
  }
  const distilled = distilTranscript(entries, plan.context, {
    distiller: plan.live ? null : distiller,
    projectRoot: project.root,
    sessionId,
    previousSummary: plan.previousSummary,
  });
  if (plan.dryRun) report.created = distilled.memories.length;
  return {
    ...base,
    nothingToStore: plan.dryRun,
    memories: distilled.memories,
    resolutions: distilled.resolutions,
    finishedTasks: distilled.finishedTasks,
    removedFiles: distilled.removedFiles,
    droppedText: distilled.droppedText,
    notFixed: distilled.notFixed,
    summary: distilled.summary,
  };
}

/** Store a prepared read: memories, summary, usage, counts and the new offset in ONE transaction. */
export function commitIngest(store: Store, p: PreparedIngest, subagent: boolean, now: number): IngestReport {
  const { report } = p;
  if (p.nothingToStore) return report;
  store.transaction(() => {
    // Compare-and-swap on the stored progress: the range is ours only if nobody stored it meanwhile
    // (the worker, `flush` and `backfill` may read the same transcript at once).
    const current = store.transcripts.progress(report.path);
    const unchanged =
      current === null
        ? p.claim === null
        : p.claim !== null &&
          current.offset === p.claim.offset &&
          current.fingerprint === p.claim.fingerprint;
    if (!unchanged) {
      report.raced = true;
      report.created = 0;
      return;
    }
    if (!subagent) {
      store.sessions.touch(
        p.project,
        { id: p.sessionId, cwd: p.cwd, transcriptPath: report.path, host: p.host },
        'transcript',
        p.firstAt,
        p.lastAt,
      );
      const ctx = { origin: 'transcript' as const, at: now };
      forgetRewound(store, p, ctx);
      const stored = storeKnowledge(
        store,
        {
          projectId: p.project.id,
          sessionId: p.sessionId,
          source: 'transcript',
          memories: p.memories.map((m) => ({
            draft: m.draft,
            createdAt: m.at || p.lastAt,
            provenance: [`session:${p.sessionId}`, ...m.provenance.map((uuid) => `transcript:${uuid}`)],
            ...(m.refutes ? { refutes: m.refutes } : {}),
          })),
          resolutions: p.resolutions,
          finishedTasks: p.finishedTasks,
          removedFiles: p.removedFiles,
          droppedText: p.droppedText,
          notFixed: p.notFixed,
        },
        ctx,
      );
      report.created += stored.created;
      if (p.summary)
        store.memory.saveSummary(p.sessionId, p.project.id, p.summary, !p.live, ctx, p.lastAt || now);
    }
    report.usageMessages = store.transcripts.addUsage(p.sessionId, p.project.id, p.usage);
    store.transcripts.countTypes(new Map(p.types));
    store.transcripts.saveProgress(
      { path: report.path, sessionId: p.sessionId, projectId: p.project.id, ...p.progress },
      now,
    );
  });
  return report;
}

/**
 * A rewind to a point read before: what was stored of the abandoned branch is invalidated — memories
 * read from its transcript records, and the memories the hooks' events of that stretch produced.
 */
function forgetRewound(store: Store, p: PreparedIngest, ctx: { origin: 'transcript'; at: number }): void {
  for (const rewind of p.rewinds) {
    const gone = new Set(rewind.abandoned.map((uuid) => `transcript:${uuid}`));
    for (const o of store.observations.ofSessionWithSuperseded(p.sessionId)) {
      // How the project is built and run stays true whatever branch it was seen on.
      if (/^(?:command|env|convention):/.test(o.subject ?? '')) continue;
      const span = o.provenance.map((x) => /^turn:(\d+)-(\d+)$/.exec(x)).find(Boolean);
      // The turn ended within the abandoned stretch: after the old prompt, before the new one (the new
      // prompt's own turn ends after it, whatever the clocks of hook and transcript say about its start).
      const inSpan = span ? Number(span[2]) >= rewind.since && Number(span[2]) < rewind.at : false;
      if (!(o.provenance.some((x) => gone.has(x)) || inSpan)) continue;
      store.memory.invalidate(o.id, 'the conversation was rewound past it', ctx);
      // Work restated by a later turn before the rewind was known: take back what it carried over.
      const successor = /^superseded by (\S+)$/.exec(o.statusReason ?? '')?.[1];
      const later = successor ? store.observations.get(successor) : null;
      if (later && later.status === 'active') store.memory.edit(later.id, withoutCarried(later, o), ctx);
    }
  }
}

export function ingestTranscript(store: Store, path: string, options: IngestOptions): IngestReport {
  const plan = planIngest(store, path, options);
  return commitIngest(store, prepareIngest(plan, options.distiller), plan.subagent, options.now);
}

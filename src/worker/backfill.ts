/**
 * Backfill: read the transcripts of earlier sessions into memory — every Claude Code transcript under a
 * projects folder (`<slug>/<session>.jsonl`, and `<slug>/<session>/subagents/agent-*.jsonl`), and each
 * other host's under its own folders, found by its finder (`capture/hosts/transcript-finders.ts`). Resumable and repeatable: each file's
 * progress is committed with what it produced, so an interrupted run continues and a second run adds
 * nothing.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { HostName } from '../capture/hosts/host-port.ts';
import { transcriptFinder, type TranscriptFile } from '../capture/hosts/transcript-finders.ts';
import { transcriptReaderFor } from '../capture/hosts/transcript-readers.ts';
import type { ProjectLinks } from '../core/model.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import type { Store } from '../store/store.ts';
import { Worker } from 'node:worker_threads';
import {
  commitIngest,
  ingestTranscript,
  planIngest,
  type IngestReport,
  type PreparedIngest,
} from './ingest-transcript.ts';

export type { TranscriptFile } from '../capture/hosts/transcript-finders.ts';

/**
 * Transcript files under a folder laid out like `~/.claude/projects` (or one project folder of it):
 * every `*.jsonl` up to four levels down; those in a `subagents` folder are subagent transcripts.
 * Sessions come before subagents, oldest first. (Any host's transcripts found this way are read by
 * their own reader: the reader is picked by the file, and names the file's host.)
 */
export function findTranscripts(root: string): TranscriptFile[] {
  // Each file counted as the host its reader names (a Codex rollout there is Codex's).
  return (transcriptFinder('claude-code')?.find(root) ?? []).map((f) => ({
    ...f,
    host: transcriptReaderFor(f.path).host,
  }));
}

/** A folder of one host's transcripts, laid out as that host lays them out. */
export interface TranscriptSource {
  host: HostName;
  root: string;
}

export interface BackfillOptions {
  /** A folder laid out like Claude Code's projects folder (every `*.jsonl` under it is read). */
  root?: string;
  /** Hosts' transcript folders, each searched by its host's finder. */
  sources?: readonly TranscriptSource[];
  /** Where a host whose sessions are in a store (opencode) has them written out as logs to read. */
  logDir?: string;
  /** A dry run's own folder for such logs (nothing is written into `logDir` then); removed by the caller. */
  scratchDir?: string;
  since?: number;
  project?: string;
  dryRun?: boolean;
  distiller: Distiller;
  now: () => number;
  onProgress?: (done: number, total: number, bytesDone: number, bytesTotal: number) => void;
  /** Stop after this many files (tests simulate an interrupted run with it). */
  limitFiles?: number;
  /** Confirmed `.engram.json` project links. */
  projectLinks?: ProjectLinks;
  /** Repairing a restored database: distil every turn read, even of sessions the hooks saw. */
  repair?: boolean;
  /** Transcript files to read besides those under `root` (paths the store knows). */
  extraFiles?: readonly string[];
}

export interface BackfillReport {
  files: number;
  records: number;
  badLines: number;
  skipped: Record<string, number>;
  created: number;
  sessions: number;
  usageMessages: number;
  /** Files read per host. */
  hosts: Record<string, number>;
  errors: { path: string; error: string }[];
}

function selectFiles(options: BackfillOptions): TranscriptFile[] {
  const found: TranscriptFile[] = [];
  const seen = new Set<string>();
  const lists = [
    ...(options.root !== undefined ? [findTranscripts(options.root)] : []),
    ...(options.sources ?? []).map(
      (s) => transcriptFinder(s.host)?.find(s.root, options.logDir, options.scratchDir) ?? [],
    ),
  ];
  for (const f of lists.flat()) {
    if (seen.has(f.path)) continue;
    seen.add(f.path);
    found.push(f);
  }
  for (const path of options.extraFiles ?? []) {
    if (seen.has(path) || !path.endsWith('.jsonl')) continue;
    try {
      const st = statSync(path);
      if (st.isFile())
        found.push({
          path,
          host: transcriptReaderFor(path).host,
          subagent: basename(dirname(path)) === 'subagents',
          bytes: st.size,
          mtimeMs: st.mtimeMs,
        });
    } catch {
      continue; // gone since: nothing to read
    }
  }
  // Sessions before subagents, oldest first, whichever host wrote them.
  found.sort(
    (a, b) =>
      Number(a.subagent) - Number(b.subagent) || a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path),
  );
  const files = found.filter((f) => options.since === undefined || f.mtimeMs >= options.since);
  return options.limitFiles === undefined ? files : files.slice(0, options.limitFiles);
}

function emptyReport(): BackfillReport {
  return {
    files: 0,
    records: 0,
    badLines: 0,
    skipped: {},
    created: 0,
    sessions: 0,
    usageMessages: 0,
    hosts: {},
    errors: [],
  };
}

function tally(report: BackfillReport, sessions: Set<string>, file: TranscriptFile, r: IngestReport): void {
  if (r.filtered) return;
  report.files++;
  report.hosts[file.host] = (report.hosts[file.host] ?? 0) + 1;
  report.records += r.records;
  report.badLines += r.badLines + r.oversizeLines;
  report.created += r.created;
  report.usageMessages += r.usageMessages;
  if (r.sessionId && !file.subagent && r.records > 0) sessions.add(r.sessionId);
  for (const [type, n] of Object.entries(r.skipped)) report.skipped[type] = (report.skipped[type] ?? 0) + n;
}

function ingestOptions(options: BackfillOptions, file: TranscriptFile) {
  return {
    mode: options.repair ? ('repair' as const) : ('backfill' as const),
    now: options.now(),
    subagent: file.subagent,
    ...(file.cwd ? { cwd: file.cwd } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
    ...(options.project ? { projectFilter: options.project } : {}),
    ...(options.projectLinks ? { projectLinks: options.projectLinks } : {}),
  };
}

/** Backfill on this thread, one file after another. */
export function backfill(store: Store, options: BackfillOptions): BackfillReport {
  const files = selectFiles(options);
  const report = emptyReport();
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  let bytesDone = 0;
  const sessions = new Set<string>();
  for (const [i, file] of files.entries()) {
    let r: IngestReport;
    try {
      r = ingestTranscript(store, file.path, {
        ...ingestOptions(options, file),
        distiller: options.distiller,
      });
    } catch (error) {
      report.errors.push({ path: file.path, error: (error as Error).message });
      continue;
    }
    bytesDone += file.bytes;
    options.onProgress?.(i + 1, files.length, bytesDone, bytesTotal);
    tally(report, sessions, file, r);
  }
  report.sessions = sessions.size;
  return report;
}

/**
 * Backfill with `threads` reader threads (reading, parsing, scrubbing and distilling in parallel)
 * while this thread commits each file's result in its own transaction, so it stays resumable.
 */
export async function backfillParallel(
  store: Store,
  options: BackfillOptions & { threadScript: string; threads: number },
): Promise<BackfillReport> {
  const files = selectFiles(options);
  const report = emptyReport();
  const sessions = new Set<string>();
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  let bytesDone = 0;
  let done = 0;
  let next = 0;
  const workers = Array.from(
    { length: Math.max(1, Math.min(options.threads, files.length)) },
    () => new Worker(options.threadScript),
  );
  try {
    await Promise.all(
      workers.map(async (worker) => {
        while (next < files.length) {
          const file = files[next++] as TranscriptFile;
          try {
            const plan = planIngest(store, file.path, ingestOptions(options, file));
            const answer = await new Promise<
              { ok: true; prepared: PreparedIngest } | { ok: false; error: string }
            >((resolve, reject) => {
              worker.once('message', resolve);
              worker.once('error', reject);
              worker.postMessage(plan);
            });
            worker.removeAllListeners('error');
            if (!answer.ok) throw new Error(answer.error);
            tally(report, sessions, file, commitIngest(store, answer.prepared, plan.subagent, options.now()));
          } catch (error) {
            report.errors.push({ path: file.path, error: (error as Error).message });
          }
          bytesDone += file.bytes;
          options.onProgress?.(++done, files.length, bytesDone, bytesTotal);
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  report.sessions = sessions.size;
  return report;
}

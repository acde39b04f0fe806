/**
 * Backfill: read every Claude Code transcript under a projects folder (`<slug>/<session>.jsonl`, and
 * `<slug>/<session>/subagents/agent-*.jsonl`) into memory. Resumable and repeatable: each file's
 * progress is committed with what it produced, so an interrupted run continues and a second run adds
 * nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import type { Store } from '../store/store.ts';
import { ingestTranscript, type IngestReport } from './ingest-transcript.ts';

export interface TranscriptFile {
  path: string;
  subagent: boolean;
  bytes: number;
  mtimeMs: number;
}

/**
 * Transcript files under a folder laid out like `~/.claude/projects` (or one project folder of it):
 * every `*.jsonl` up to four levels down; those in a `subagents` folder are subagent transcripts.
 * Sessions come before subagents, oldest first.
 */
export function findTranscripts(root: string): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return; // unreadable or vanished
    }
    for (const name of names) {
      const path = join(dir, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory() && depth < 4) walk(path, depth + 1);
      else if (st.isFile() && name.endsWith('.jsonl')) {
        out.push({ path, subagent: basename(dir) === 'subagents', bytes: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  if (existsSync(root)) walk(root, 0);
  return out.sort(
    (a, b) =>
      Number(a.subagent) - Number(b.subagent) || a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path),
  );
}

export interface BackfillOptions {
  root: string;
  since?: number;
  project?: string;
  dryRun?: boolean;
  distiller: Distiller;
  now: () => number;
  onProgress?: (done: number, total: number, bytesDone: number, bytesTotal: number) => void;
  /** Stop after this many files (tests simulate an interrupted run with it). */
  limitFiles?: number;
}

export interface BackfillReport {
  files: number;
  records: number;
  badLines: number;
  skipped: Record<string, number>;
  created: number;
  sessions: number;
  usageMessages: number;
  errors: { path: string; error: string }[];
}

export function backfill(store: Store, options: BackfillOptions): BackfillReport {
  const files = findTranscripts(options.root).filter(
    (f) => options.since === undefined || f.mtimeMs >= options.since,
  );
  const report: BackfillReport = {
    files: 0,
    records: 0,
    badLines: 0,
    skipped: {},
    created: 0,
    sessions: 0,
    usageMessages: 0,
    errors: [],
  };
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  let bytesDone = 0;
  const sessions = new Set<string>();
  for (const [i, file] of files.entries()) {
    if (options.limitFiles !== undefined && i >= options.limitFiles) break;
    let r: IngestReport;
    try {
      r = ingestTranscript(store, file.path, {
        mode: 'backfill',
        distiller: options.distiller,
        now: options.now(),
        subagent: file.subagent,
        ...(options.dryRun ? { dryRun: true } : {}),
        ...(options.project ? { projectFilter: options.project } : {}),
      });
    } catch (error) {
      report.errors.push({ path: file.path, error: (error as Error).message });
      continue;
    }
    bytesDone += file.bytes;
    options.onProgress?.(i + 1, files.length, bytesDone, bytesTotal);
    if (r.filtered) continue;
    report.files++;
    report.records += r.records;
    report.badLines += r.badLines + r.oversizeLines;
    report.created += r.created;
    report.usageMessages += r.usageMessages;
    if (r.sessionId && !file.subagent && r.records > 0) sessions.add(r.sessionId);
    for (const [type, n] of Object.entries(r.skipped)) report.skipped[type] = (report.skipped[type] ?? 0) + n;
  }
  report.sessions = sessions.size;
  return report;
}

/**
 * Reading one transcript file into memory, incrementally: from the stored offset (or from the start
 * when the file was rewritten), parse, distil, and store — memories, summary, usage, record-type
 * counts and the new offset in ONE transaction, so an interrupted read resumes without duplicates.
 */
import { basename } from 'node:path';
import { resolveProject } from '../capture/project-identity.ts';
import { fileFingerprint, fingerprintMatches, readJsonlFrom } from '../capture/transcript/read-jsonl.ts';
import { createTranscriptParser, peekSkippedType } from '../capture/transcript/transcript-entries.ts';
import type { Project } from '../core/model.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import { distilTranscript } from '../distill/transcript-distiller.ts';
import type { Store } from '../store/store.ts';

/** How many entries are carried to the next read as context. */
const TAIL_ENTRIES = 8;

export interface IngestOptions {
  /** Backfill: distil whole turns too. Live: the hooks captured the turns; only the extractors run. */
  mode: 'backfill' | 'live';
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
}

export function ingestTranscript(store: Store, path: string, options: IngestOptions): IngestReport {
  const previous = store.transcripts.progress(path);
  const restarted = previous !== null && !fingerprintMatches(path, previous.fingerprint);
  const offset = previous && !restarted ? previous.offset : 0;
  const chunk = readJsonlFrom(path, offset, { peek: peekSkippedType });
  const context = previous && !restarted ? previous.tail : [];
  const parser = createTranscriptParser(context);
  for (const line of chunk.lines) {
    if (line.skipped !== undefined) parser.skip(line.skipped);
    else parser.add(line.value);
  }
  const parsed = parser.result();
  const report: IngestReport = {
    path,
    sessionId: options.sessionId ?? parsed.sessionId ?? basename(path, '.jsonl'),
    records: chunk.lines.length,
    badLines: chunk.badLines,
    oversizeLines: chunk.oversizeLines,
    skipped: Object.fromEntries(
      [...parsed.types].filter(([, c]) => c.skipped > 0).map(([t, c]) => [t, c.skipped]),
    ),
    created: 0,
    usageMessages: 0,
    restarted,
    filtered: false,
  };
  if (chunk.lines.length === 0 && chunk.badLines === 0 && chunk.oversizeLines === 0) return report;
  const sessionId = report.sessionId as string;
  const cwd = parsed.cwd ?? options.cwd ?? '/';
  if (options.projectFilter && !cwd.startsWith(options.projectFilter)) {
    report.filtered = true;
    return report;
  }
  const project: Project = resolveProject(cwd);
  // A session the hooks captured already has its turns as memories: only the extractors add to it.
  const live = options.mode === 'live' || store.events.hasEventsFor(sessionId);
  const entries = options.subagent ? [] : parsed.entries;
  const distilled = distilTranscript(entries, context, {
    distiller: live ? null : options.distiller,
    projectRoot: project.root,
    sessionId,
    previousSummary: store.summaries.get(sessionId),
  });
  if (options.dryRun) {
    report.created = distilled.memories.length;
    return report;
  }
  const firstAt = parsed.entries[0]?.at || parsed.usage[0]?.at || options.now;
  const lastAt = parsed.entries[parsed.entries.length - 1]?.at || firstAt;
  store.transaction(() => {
    if (!options.subagent) {
      store.sessions.touch(project, { id: sessionId, cwd, transcriptPath: path }, 'transcript', firstAt);
      for (const m of distilled.memories) {
        const id = store.observations.insert({
          projectId: project.id,
          sessionId,
          source: 'transcript',
          createdAt: m.at || lastAt,
          provenance: m.provenance.map((uuid) => `transcript:${uuid}`),
          draft: m.draft,
        });
        if (id) report.created++;
      }
      if (distilled.summary) store.summaries.save(sessionId, project.id, distilled.summary, !live, lastAt);
    }
    report.usageMessages = store.transcripts.addUsage(sessionId, project.id, parsed.usage);
    store.transcripts.countTypes(parsed.types);
    store.transcripts.saveProgress(
      {
        path,
        sessionId,
        projectId: project.id,
        offset: chunk.nextOffset,
        fingerprint: fileFingerprint(path),
        records: (previous && !restarted ? previous.records : 0) + chunk.lines.length,
        badLines: (previous && !restarted ? previous.badLines : 0) + chunk.badLines + chunk.oversizeLines,
        tail: [...context, ...entries].slice(-TAIL_ENTRIES),
      },
      options.now,
    );
  });
  return report;
}

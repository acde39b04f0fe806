/**
 * Claude Code deletes a transcript `cleanupPeriodDays` after its last activity (30 by default) and
 * keeps none at all when the setting is 0. engram reads transcripts as sessions go, but what it has
 * not read by then is gone — for a later backfill, and for `engram doctor --repair`, which reads back
 * what happened since the last backup from them. This says when the setting will lose something.
 */
import type { TranscriptFile } from './backfill.ts';

/** Claude Code's default when the setting is absent. */
export const DEFAULT_CLEANUP_DAYS = 30;
/** Warn this long before an unread transcript is due to be deleted. */
const NOTICE_DAYS = 3;
const DAY_MS = 86_400_000;

export interface RetentionInput {
  /** The effective `cleanupPeriodDays` (null: not set) and the settings file it came from. */
  cleanupPeriodDays: number | null;
  source: string;
  /** Transcripts on disk (from `findTranscripts`). */
  transcripts: readonly TranscriptFile[];
  /** How far engram has read a transcript (bytes), or null when never. */
  readUpTo: (path: string) => number | null;
  now: number;
  /** backup.intervalHours (0: backups off). */
  backupIntervalHours: number;
}

export interface RetentionFinding {
  severity: 'warn' | 'fail';
  message: string;
  fix: string;
}

/** What the transcript retention setting will cost engram (empty: nothing). */
export function transcriptRetention(input: RetentionInput): RetentionFinding[] {
  const days = input.cleanupPeriodDays ?? DEFAULT_CLEANUP_DAYS;
  const set = (n: number) => `set "cleanupPeriodDays": ${n} in ${input.source}`;
  if (days <= 0)
    return [
      {
        severity: 'fail',
        message: `Claude Code keeps no transcripts (cleanupPeriodDays is ${days} in ${input.source}): engram sees only what the hooks send, and backfill and repair find nothing to read`,
        fix: `In Claude Code's settings, ${set(90)} (any number of days engram may read them in; 30 is the default).`,
      },
    ];
  const out: RetentionFinding[] = [];
  const unread = input.transcripts.filter((f) => !f.subagent && (input.readUpTo(f.path) ?? -1) < f.bytes);
  const due = unread.filter((f) => input.now - f.mtimeMs > (days - NOTICE_DAYS) * DAY_MS);
  if (due.length > 0) {
    const oldest = Math.min(...due.map((f) => f.mtimeMs));
    const left = Math.max(0, Math.ceil((oldest + days * DAY_MS - input.now) / DAY_MS));
    out.push({
      severity: 'warn',
      message: `${due.length} Claude Code ${due.length === 1 ? 'transcript' : 'transcripts'} engram has not read (all) yet ${due.length === 1 ? 'is' : 'are'} deleted by Claude Code ${left === 0 ? 'at its next start' : `within ${left} ${left === 1 ? 'day' : 'days'}`} (cleanupPeriodDays ${days}${input.cleanupPeriodDays === null ? ', the default' : ` in ${input.source}`})`,
      fix: `Read them now with "engram backfill"; to keep transcripts longer, ${set(Math.max(90, days * 3))}.`,
    });
  }
  if (input.backupIntervalHours > 0 && days * 24 < 2 * input.backupIntervalHours)
    out.push({
      severity: 'warn',
      message: `Claude Code deletes transcripts after ${days} days, sooner than two of engram's backup intervals (${input.backupIntervalHours} h): a repair could not read back everything since the last backup`,
      fix: `Keep them longer (${set(30)}), or back up more often (engram config set backup.intervalHours ${Math.max(1, Math.floor(days * 12))}).`,
    });
  return out;
}

/**
 * How long Claude Code keeps transcripts, read from its settings (the user's `~/.claude/settings.json`,
 * then the project's `.claude/settings.json` and `.claude/settings.local.json`, the later winning), and
 * what that costs engram (worker/transcript-retention.ts) — for `engram doctor` and `engram status`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../store/store.ts';
import { findTranscripts } from '../../worker/backfill.ts';
import { transcriptRetention, type RetentionFinding } from '../../worker/transcript-retention.ts';
import type { Runtime } from '../runtime.ts';
import { loadSettings } from './settings-files.ts';

/** Where retention is read: the environment (HOME), the configuration, the project directory, the time. */
export interface RetentionContext {
  runtime: Pick<Runtime, 'env' | 'config'>;
  cwd: string;
  now: () => number;
}

/** The effective `cleanupPeriodDays` and the file that set it (null days: not set anywhere). */
export function cleanupPeriodOf(ctx: RetentionContext): { days: number | null; source: string } {
  const home = ctx.runtime.env['HOME'] || homedir();
  const user = join(home, '.claude', 'settings.json');
  let found: { days: number | null; source: string } = { days: null, source: user };
  for (const path of [
    user,
    join(ctx.cwd, '.claude', 'settings.json'),
    join(ctx.cwd, '.claude', 'settings.local.json'),
  ]) {
    let json: Record<string, unknown> | undefined;
    try {
      json = loadSettings(path)?.json;
    } catch {
      continue; // an unreadable settings file is the hooks check's to report
    }
    const v = json?.['cleanupPeriodDays'];
    if (typeof v === 'number' && Number.isFinite(v)) found = { days: v, source: path };
  }
  return found;
}

/** What Claude Code's transcript retention will cost; with no store, unread transcripts are not counted. */
export function retentionFindings(ctx: RetentionContext, store: Store | null): RetentionFinding[] {
  const { days, source } = cleanupPeriodOf(ctx);
  const root = join(ctx.runtime.env['HOME'] || homedir(), '.claude', 'projects');
  return transcriptRetention({
    cleanupPeriodDays: days,
    source,
    transcripts: store ? findTranscripts(root) : [],
    readUpTo: (path) => store?.transcripts.progress(path)?.offset ?? null,
    now: ctx.now(),
    backupIntervalHours: ctx.runtime.config['backup.intervalHours'],
  });
}

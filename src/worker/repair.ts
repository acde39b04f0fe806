/**
 * `engram doctor --repair`: bring the store back from what survives. The database is checked; a
 * damaged one (or one that lost committed changes, when a backup holds more) is set aside — renamed,
 * never deleted — and the newest backup that passes SQLite's integrity check is put in its place (no
 * good backup: a new, empty database). Then what the inbox still holds is imported and distilled, and
 * every transcript is read on from where the restored database had stopped, distilling the turns whose
 * hook events were lost with it. The report says exactly what came from where, and what could not be
 * recovered. The caller makes sure no other engram process holds the database open.
 */
import { chmodSync, copyFileSync, existsSync, renameSync } from 'node:fs';
import type { Config } from '../core/config.ts';
import type { ProjectLinks } from '../core/model.ts';
import type { Logger } from '../core/ports.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import { checkBackup, type BackupFile } from '../store/backup.ts';
import { openDatabase } from '../store/database.ts';
import { diagnoseDatabase, type DatabaseDiagnosis } from '../store/diagnose.ts';
import { highWaterOf, raiseMark } from '../store/store-mark.ts';
import { createStore, type Store } from '../store/store.ts';
import { backfill } from './backfill.ts';
import { drainOnce } from './drain.ts';
import { catchUpGraph } from './graph-pass.ts';
import { importInboxInto } from './import-inbox.ts';

export interface RepairOptions {
  dbPath: string;
  backupDir: string;
  inboxDir: string;
  /** Where Claude Code keeps transcripts (`~/.claude/projects`). */
  transcriptsRoot: string;
  distiller: Distiller;
  logger: Logger;
  config: Config;
  now: () => number;
  projectLinks?: ProjectLinks;
}

export interface RepairReport {
  /** What was found before repairing. */
  found: Pick<DatabaseDiagnosis, 'state' | 'detail' | 'seq' | 'memories'>;
  /** kept: the database was whole; restored: a backup replaced it; fresh: no good backup was left. */
  base: 'kept' | 'restored' | 'fresh';
  restoredFrom: { path: string; at: number; seq: number; memories: number } | null;
  /** Backups passed over, and why (newest first). */
  badBackups: { path: string; reason: string }[];
  /** Where the damaged database was moved (kept for you), or null. */
  setAside: string | null;
  inbox: { imported: number; rejected: number; turns: number; memories: number };
  transcripts: { files: number; records: number; memories: number; errors: string[] };
  after: { memories: number; seq: number };
  /** What could not be recovered, in sentences. */
  lost: string[];
}

const countActive = (store: Store): number =>
  store.db.prepare(`SELECT count(*) FROM observations WHERE status = 'active'`).pluck().get() as number;

/** The newest backup that passes its checks; the ones passed over are collected with their reason. */
function newestGoodBackup(
  backups: readonly BackupFile[],
  bad: RepairReport['badBackups'],
): BackupFile | null {
  for (const b of backups) {
    const check = checkBackup(b.path);
    if (check.ok) return b;
    bad.push({ path: b.path, reason: check.reason });
  }
  return null;
}

/** Move the database and its WAL files aside (`<db>.damaged-<time>`); returns the new name. */
function setAside(dbPath: string, at: number): string | null {
  if (!existsSync(dbPath)) return null;
  const aside = `${dbPath}.damaged-${new Date(at).toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${dbPath}${suffix}`)) renameSync(`${dbPath}${suffix}`, `${aside}${suffix}`);
  return aside;
}

export async function repairStore(options: RepairOptions): Promise<RepairReport> {
  const { dbPath, logger } = options;
  const found = diagnoseDatabase(dbPath, options.backupDir);
  if (found.state === 'foreign' || found.state === 'newer' || found.state === 'unreadable')
    throw new Error(`not repairable here: ${found.detail}`);
  const at = options.now();
  const report: RepairReport = {
    found: { state: found.state, detail: found.detail, seq: found.seq, memories: found.memories },
    base: 'kept',
    restoredFrom: null,
    badBackups: [],
    setAside: null,
    inbox: { imported: 0, rejected: 0, turns: 0, memories: 0 },
    transcripts: { files: 0, records: 0, memories: 0, errors: [] },
    after: { memories: 0, seq: 0 },
    lost: [],
  };
  const whole = found.state === 'ok' || found.state === 'missing' || found.state === 'lost-changes';
  const backup =
    whole && found.state !== 'lost-changes' ? null : newestGoodBackup(found.backups, report.badBackups);
  // A whole database stays, unless it lost changes a good backup still holds.
  const restore = !whole || (backup !== null && backup.seq > (found.seq ?? 0));
  if (restore) {
    report.setAside = setAside(dbPath, at);
    if (backup) {
      copyFileSync(backup.path, dbPath);
      chmodSync(dbPath, 0o600);
      report.base = 'restored';
    } else report.base = 'fresh';
  }
  const store = createStore(openDatabase(dbPath));
  try {
    const held = found.mark?.seq ?? found.seq ?? 0;
    const baseSeq = store.changes.lastSeq();
    if (report.base === 'restored' && backup)
      report.restoredFrom = {
        path: backup.path,
        at: backup.at,
        seq: backup.seq,
        memories: countActive(store),
      };
    const start = countActive(store);

    // What the inbox still holds: captured events not imported before the damage.
    const inbox = importInboxInto(store, options.inboxDir, logger);
    report.inbox.imported = inbox.imported;
    report.inbox.rejected = inbox.rejected;
    for (let round = 0; round < 1000; round++) {
      const r = drainOnce(
        // Transcripts are read below, from the restored offsets (a live read here would skip turns).
        { store, distiller: options.distiller, logger, readTranscripts: false, inboxDir: options.inboxDir },
        {
          force: true,
          now: options.now(),
          staleTurnMs: 0,
          maxAttempts: options.config['worker.maxAttempts'],
        },
      );
      report.inbox.turns += r.turns;
      if (r.events === 0 && r.failures === 0) break;
    }
    const afterInbox = countActive(store);
    report.inbox.memories = afterInbox - start;

    // Every transcript, read on from where this database had stopped.
    const read = backfill(store, {
      root: options.transcriptsRoot,
      extraFiles: store.transcripts.knownPaths(),
      distiller: options.distiller,
      now: options.now,
      repair: true,
      ...(options.projectLinks ? { projectLinks: options.projectLinks } : {}),
    });
    report.transcripts = {
      files: read.files,
      records: read.records,
      memories: countActive(store) - afterInbox,
      errors: read.errors.map((e) => `${e.path}: ${e.error}`),
    };
    catchUpGraph(store, options.config, options.now());
    const now = highWaterOf(store.db);
    report.after = { memories: countActive(store), seq: now?.seq ?? store.changes.lastSeq() };
    // The repaired database is the one the mark speaks for from now on.
    if (now) raiseMark(dbPath, now.storeId, now.seq, options.now(), true);

    if (report.base === 'fresh')
      report.lost.push(
        `no good backup was left: everything the database held that no transcript or inbox file holds is lost (${held > 0 ? `it had ${held} changes` : 'its size is unknown'})`,
      );
    if (report.base === 'restored' && backup && held > backup.seq)
      report.lost.push(
        `${held - backup.seq} changes made after the backup of ${new Date(backup.at).toISOString()} (#${backup.seq} to #${held}) were only in the damaged database: what transcripts and the inbox held of them came back; memories written by hand (remember, the viewer, MCP) and edits, pins, invalidations and forgets made since then did not`,
      );
    if (report.base === 'kept' && found.state === 'lost-changes' && found.mark && baseSeq < found.mark.seq)
      report.lost.push(
        `${found.mark.seq - baseSeq} committed changes were missing from the database: what transcripts and the inbox held of them came back; memories written by hand and edits made in that span did not`,
      );
    if (report.setAside)
      report.lost.push(`the damaged database is kept at ${report.setAside} (delete it once you are content)`);
    for (const e of report.transcripts.errors) report.lost.push(`a transcript could not be read: ${e}`);
  } finally {
    store.close();
  }
  return report;
}

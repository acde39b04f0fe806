/**
 * The store's part of `engram doctor`: engram's home, the database (read without changing it: whose it
 * is, whole or damaged, every change still in it), its backups; and `engram doctor --repair`, which
 * restores what survives and says what came back from where.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatAge } from '../../../recall/render-context.ts';
import { diagnoseDatabase, type DatabaseDiagnosis } from '../../../store/diagnose.ts';
import { fileInTheWay } from '../../../store/make-dirs.ts';
import { ownStamp } from '../../../store/process-identity.ts';
import { createHeuristicDistiller } from '../../../distill/heuristic-distiller.ts';
import { repairStore, type RepairReport } from '../../../worker/repair.ts';
import { createFileLogger } from '../../file-logger.ts';
import { removeWorkerPidFile, stopWorker, writeWorkerPidFile } from '../../worker-launcher.ts';
import { printJson, type CliContext } from '../context.ts';

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const ok = (name: string, detail: string): Check => ({ name, status: 'ok', detail });
const warn = (name: string, detail: string, fix: string): Check => ({ name, status: 'warn', detail, fix });
const fail = (name: string, detail: string, fix: string): Check => ({ name, status: 'fail', detail, fix });

const REPAIR =
  'Run "engram doctor --repair": it restores the newest good backup (the damaged file is kept aside) and reads back what the inbox and transcripts hold.';

/** ENGRAM_HOME itself: a folder (or not made yet), never a file. */
export function homeCheck(ctx: CliContext): Check | null {
  const blocker = fileInTheWay(ctx.runtime.home);
  return blocker === null
    ? null
    : fail(
        'home',
        `ENGRAM_HOME ${ctx.runtime.home} cannot be a folder: ${blocker} is a file`,
        'Point ENGRAM_HOME at a folder (or unset it to use ~/.engram).',
      );
}

/** The database as found (never migrated or written here) and its backups. */
export function databaseChecks(ctx: CliContext, d: DatabaseDiagnosis): Check[] {
  const { config } = ctx.runtime;
  const checks: Check[] = [];
  switch (d.state) {
    case 'missing':
    case 'ok':
      checks.push(ok('database', `${d.path}: ${d.detail}`));
      break;
    case 'foreign':
      checks.push(
        fail(
          'database',
          `${d.path} is ${d.detail.replace(/^not engram's database: it is /, '')}; engram leaves it untouched`,
          'Give engram a folder of its own: set ENGRAM_HOME (e.g. ~/.engram-memory) where you and Claude Code run.',
        ),
      );
      break;
    case 'newer':
      checks.push(fail('database', d.detail, 'Upgrade engram.'));
      break;
    case 'unreadable':
      checks.push(fail('database', d.detail, `Check the permissions of ${d.path} and its folder.`));
      break;
    case 'damaged':
      checks.push(fail('database', `${d.path}: ${d.detail}`, REPAIR));
      break;
    case 'lost-changes':
      checks.push(
        fail(
          'database',
          `${d.path}: ${d.detail}`,
          'Run "engram doctor --repair": it reads back what the inbox and transcripts still hold of them (and restores a backup if one holds more).',
        ),
      );
      break;
  }
  const newest = d.backups[0];
  const hours = config['backup.intervalHours'];
  if (hours === 0)
    checks.push(
      warn(
        'backups',
        'backups are off (backup.intervalHours is 0)',
        'engram config set backup.intervalHours 24',
      ),
    );
  else if (!newest)
    checks.push(
      d.state === 'missing'
        ? ok('backups', 'none yet (the worker makes the first once there is a database)')
        : warn(
            'backups',
            `no backup yet; the worker makes one every ${hours} h while it runs`,
            'Nothing to do: it comes with the next capture.',
          ),
    );
  else {
    const age = ctx.now() - newest.at;
    const line = `${d.backups.length} in ${ctx.runtime.paths.backupDir}, newest ${formatAge(age)} (changes up to #${newest.seq})`;
    checks.push(
      age > 3 * hours * 3_600_000
        ? warn('backups', line, 'The worker backs up while it runs; any capture starts it.')
        : ok('backups', line),
    );
  }
  return checks;
}

/** Whether the store is in a state other checks may open it in. */
export const storeUsable = (d: DatabaseDiagnosis): boolean => d.state === 'ok' || d.state === 'missing';

/** Diagnose the database of this home (reads only). */
export const diagnose = (ctx: CliContext): DatabaseDiagnosis =>
  diagnoseDatabase(ctx.runtime.paths.db, ctx.runtime.paths.backupDir);

const day = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

function describeRepair(r: RepairReport): string {
  const lines = [`found: ${r.found.detail}`];
  if (r.base === 'kept') lines.push('kept the database (it is whole)');
  if (r.restoredFrom)
    lines.push(
      `restored the backup of ${day(r.restoredFrom.at)} UTC (${r.restoredFrom.memories} active memories, changes up to #${r.restoredFrom.seq}): ${r.restoredFrom.path}`,
    );
  if (r.base === 'fresh') lines.push('started a new database (no good backup)');
  for (const b of r.badBackups) lines.push(`passed over backup ${b.path}: ${b.reason}`);
  lines.push(
    `inbox: ${r.inbox.imported} captured events imported (${r.inbox.rejected} unreadable), ${r.inbox.turns} turns distilled, ${r.inbox.memories} memories`,
    `transcripts: ${r.transcripts.files} files read on from where the database had stopped (${r.transcripts.records} records), ${r.transcripts.memories} memories`,
    `now: ${r.after.memories} active memories, changes up to #${r.after.seq}`,
  );
  if (r.lost.length === 0) lines.push('nothing was lost');
  else lines.push('not recovered:', ...r.lost.map((l) => `  - ${l}`));
  return `${lines.join('\n')}\n`;
}

/**
 * `engram doctor --repair`: stop the worker, keep hooks from starting another (this process holds the
 * worker's pid file meanwhile), repair, and report.
 */
export async function repairCommand(ctx: CliContext, json: boolean): Promise<number> {
  const { paths, config, env } = ctx.runtime;
  const found = diagnose(ctx);
  if (!['damaged', 'lost-changes', 'ok', 'missing'].includes(found.state)) {
    ctx.io.err(`engram: cannot repair: ${found.detail}\n`);
    return found.state === 'foreign' ? 2 : 1;
  }
  await stopWorker(paths);
  const stamp = ownStamp();
  writeWorkerPidFile(paths, stamp);
  let report: RepairReport;
  try {
    report = await repairStore({
      dbPath: paths.db,
      backupDir: paths.backupDir,
      inboxDir: paths.inboxDir,
      transcriptsRoot: join(env['HOME'] || homedir(), '.claude', 'projects'),
      distiller: createHeuristicDistiller(),
      logger: createFileLogger(paths.workerLog, config['log.level'], 'repair'),
      config,
      now: ctx.now,
      projectLinks: ctx.runtime.projectLinks(),
    });
  } finally {
    removeWorkerPidFile(paths, stamp.pid);
  }
  if (json) printJson(ctx, report);
  else ctx.io.out(describeRepair(report));
  return 0;
}

/**
 * The fallback queue: when the database cannot take an event (locked past the timeout, disk trouble),
 * the hook appends it, already scrubbed, to a spool file; the worker moves spooled events into the
 * database later. One file per hook process, so concurrent hooks never interleave lines.
 */
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import type { NewEvent } from './events-repo.ts';

export interface SpooledEvent extends NewEvent {
  project: { id: string; name: string; key: string; root: string };
}

export function spoolEvent(spoolDir: string, event: SpooledEvent): string {
  mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  const file = join(spoolDir, `${Date.now()}-${process.pid}.jsonl`);
  appendFileSync(file, `${JSON.stringify(event)}\n`, { mode: 0o600 });
  return file;
}

/**
 * Hand every spooled event to `accept` (which stores it); a file is deleted only after all its events
 * were accepted. A file is claimed first by renaming it, so two workers never import it twice.
 */
export function drainSpool(
  spoolDir: string,
  accept: (events: SpooledEvent[]) => void,
  now: number,
): { files: number; events: number; bad: number } {
  const report = { files: 0, events: 0, bad: 0 };
  let names: string[];
  try {
    names = readdirSync(spoolDir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return report; // no spool directory: nothing was ever spooled
  }
  for (const name of names.sort()) {
    const claimed = join(spoolDir, `${name}.claimed`);
    try {
      // Leave files a hook may still be writing (each hook writes once and exits within a second).
      if (now - statSync(join(spoolDir, name)).mtimeMs < 2000) continue;
      renameSync(join(spoolDir, name), claimed);
    } catch {
      continue; // another worker claimed it
    }
    const events: SpooledEvent[] = [];
    for (const line of readFileSync(claimed, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        events.push(JSON.parse(line) as SpooledEvent);
      } catch {
        report.bad++;
      }
    }
    try {
      accept(events);
    } catch (error) {
      renameSync(claimed, join(spoolDir, name)); // put it back for the next round
      throw error;
    }
    unlinkSync(claimed);
    report.files++;
    report.events += events.length;
  }
  return report;
}

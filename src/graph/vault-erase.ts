/**
 * Erasing from vaults what `engram forget` erases from the store: a memory's note (by id) in every
 * vault engram keeps, with its stored base and conflict revisions; or every trace of a phrase — notes
 * of engram's that hold it are deleted (the store renders them again without it), notes people wrote
 * have the phrase cut out (the rest of their text stays), revisions holding it are dropped.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import { writeAtomically } from './vault-files.ts';
import { scanVault } from './vault-scan.ts';

export type EraseTarget = { id: string } | { phrase: string };

export interface EraseReport {
  deleted: string[];
  redacted: string[];
}

/**
 * Erase from the vault at `dir` (or, with `dir` null, from every vault the store knows). Run it after
 * the store's own erasure, in the same command.
 */
export function eraseFromVault(store: Store, dir: string | null, target: EraseTarget): EraseReport {
  const report: EraseReport = { deleted: [], redacted: [] };
  const dirs = dir === null ? store.vaults.list().map((v) => v.dir) : [dir];
  if ('id' in target) {
    for (const where of store.vaults.whereIs(target.id)) {
      if (!dirs.includes(where.dir)) continue;
      rmSync(join(where.dir, where.path), { force: true });
      report.deleted.push(join(where.dir, where.path));
    }
    // Files copied or moved by hand still carry the id: they go too.
    for (const d of dirs)
      for (const f of scanVault(d))
        if (f.id === target.id) {
          rmSync(join(d, f.path), { force: true });
          if (!report.deleted.includes(join(d, f.path))) report.deleted.push(join(d, f.path));
        }
    store.transaction(() => store.vaults.dropNode(target.id));
    return report;
  }
  const phrase = target.phrase;
  if (phrase.trim() === '') return report;
  for (const d of dirs) {
    const owned = new Map(store.vaults.notes(d).map((n) => [n.path, n.nodeId]));
    for (const f of scanVault(d)) {
      if (!f.text.includes(phrase)) continue;
      const nodeId = f.id !== null ? owned.get(f.path) : undefined;
      if (nodeId !== undefined) {
        rmSync(join(d, f.path), { force: true });
        store.transaction(() => store.vaults.dropNote(d, nodeId));
        report.deleted.push(join(d, f.path));
      } else {
        writeAtomically(join(d, f.path), f.text.split(phrase).join('[forgotten]'));
        report.redacted.push(join(d, f.path));
      }
    }
    store.transaction(() => store.vaults.dropRevisionsHolding(d, phrase));
  }
  return report;
}

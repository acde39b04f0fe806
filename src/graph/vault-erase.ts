/**
 * Erasing from vaults what `engram forget` erases from the store: a memory's note (by id) in every
 * vault engram keeps, with its stored base and conflict revisions; or every trace of a phrase (any
 * letter case, as `engram forget --match` finds it) — notes of engram's that hold it are deleted (the
 * next sync renders them again from the erased store; deleted first, so a sync cannot take the phrase
 * back in as a human edit), notes people wrote have it replaced by "[erased]" (the rest of their text
 * stays), revisions holding it are dropped.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { countPhrase, erasePhrase, phrasePattern } from '../core/phrase.ts';
import type { Store } from '../store/store.ts';
import { writeAtomically } from './vault-files.ts';
import { scanVault } from './vault-scan.ts';

/** A memory by id, or a phrase (in one project's notes, or everywhere when `projectId` is absent or null). */
export type EraseTarget = { id: string } | { phrase: string; projectId?: string | null };

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
  const pattern = phrasePattern(phrase);
  const only = target.projectId ?? null;
  for (const d of dirs) {
    const notes = store.vaults.notes(d);
    const owned = new Map(notes.map((n) => [n.path, n.nodeId]));
    const projectOfPath = new Map(notes.map((n) => [n.path, n.projectId]));
    const folder = only === null ? null : (store.vaults.folders(d).get(only) ?? null);
    const inScope = (path: string) =>
      only === null || projectOfPath.get(path) === only || (folder !== null && path.startsWith(`${folder}/`));
    for (const f of scanVault(d)) {
      if (!inScope(f.path) || countPhrase(f.text, pattern) === 0) continue;
      const nodeId = f.id !== null ? owned.get(f.path) : undefined;
      if (nodeId !== undefined) {
        rmSync(join(d, f.path), { force: true });
        store.transaction(() => store.vaults.dropNote(d, nodeId));
        report.deleted.push(join(d, f.path));
      } else {
        writeAtomically(join(d, f.path), erasePhrase(f.text, pattern));
        report.redacted.push(join(d, f.path));
      }
    }
  }
  return report;
}

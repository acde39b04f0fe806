/**
 * The `parentUuid` chain of a transcript, to tell what happened from what was abandoned. When the
 * user rewinds (edits an earlier prompt, or restores a checkpoint), the host attaches the new prompt
 * where the old one was; the old branch stays in the file. Such a branch is recognised as the records
 * that descend from the new prompt's parent and came before it — when any of them said or did
 * something. Side branches the host writes in normal use (hook progress records, the results of
 * parallel tool calls, system records after a turn) hold nothing of the kind and are not rewinds.
 *
 * Progress records are not kept: a record whose parent is one is linked to that record's nearest kept
 * ancestor, so the chain carried from one read to the next stays small.
 */

import type { ChainLink, Rewind } from '../../core/transcript.ts';

/** How many links a read carries to the next (a rewind rarely goes further back). */
const KEEP = 400;

/** The start of the conversation: records without a parent hang from it (a rewind to the first prompt). */
const ROOT = '(root)';

export function createRecordChain(previous: readonly ChainLink[] = []) {
  const links = new Map<string, ChainLink>([[ROOT, { uuid: ROOT, parent: null, at: 0, entry: false }]]);
  const order: string[] = [ROOT];
  /** A progress record → its nearest kept ancestor. */
  const alias = new Map<string, string | null>();
  for (const l of previous) {
    if (l.uuid === ROOT || links.has(l.uuid)) continue;
    links.set(l.uuid, { ...l });
    order.push(l.uuid);
  }
  const resolve = (uuid: string | null): string => {
    let u = uuid;
    for (let guard = 0; u !== null && alias.has(u) && guard < 10_000; guard++) u = alias.get(u) ?? null;
    return u ?? ROOT;
  };

  return {
    /** A record engram does not keep (hook progress): records under it hang from its parent. */
    pass(uuid: string, parent: string | null): void {
      if (uuid !== '' && !links.has(uuid)) alias.set(uuid, resolve(parent));
    },
    /** A kept record, in file order. */
    add(uuid: string, parent: string | null, at: number): void {
      if (uuid === '' || links.has(uuid)) return;
      links.set(uuid, { uuid, parent: resolve(parent), at, entry: false });
      order.push(uuid);
    },
    /** The record made an entry (a prompt, assistant text, a tool call or its result). */
    markEntry(uuid: string): void {
      const l = links.get(uuid);
      if (l) l.entry = true;
    },
    /**
     * For a new prompt attached to `parent`: the branch it abandons, or null. Only a branch in which
     * something was said or done counts.
     */
    rewindBy(parent: string | null, at: number): Rewind | null {
      const from = resolve(parent);
      if (!links.has(from)) return null;
      const start = order.indexOf(from);
      const branch = new Set([from]);
      const abandoned: string[] = [];
      for (const uuid of order.slice(start + 1)) {
        const l = links.get(uuid);
        if (l && l.parent !== null && branch.has(l.parent)) {
          branch.add(uuid);
          abandoned.push(uuid);
        }
      }
      if (!abandoned.some((u) => links.get(u)?.entry)) return null;
      for (const u of abandoned) {
        const l = links.get(u);
        if (l) l.entry = false; // read as abandoned once, never again
      }
      return { from, abandoned, since: links.get(abandoned[0] ?? '')?.at ?? at, at };
    },
    /** The last links, for the next read. */
    tail(): ChainLink[] {
      return order.slice(-KEEP).flatMap((u) => {
        const l = links.get(u);
        return l && u !== ROOT ? [{ ...l }] : [];
      });
    },
  };
}

export type RecordChain = ReturnType<typeof createRecordChain>;

/**
 * Derived regions: what engram computes for a note (backlinks, files, related lists, stale banners)
 * lives between `%% engram:begin %%` and `%% engram:end %%` — Obsidian comments, hidden in reading
 * view. engram rewrites them freely and never reads them back.
 */

export const DERIVED_BEGIN = '%% engram:begin %%';
export const DERIVED_END = '%% engram:end %%';

const REGION = /^%% engram:begin %%[ \t]*\r?\n[\s\S]*?^%% engram:end %%[ \t]*(?:\r?\n|$)/gm;

/** The body without its derived regions (what a human wrote). */
export function stripDerived(body: string): string {
  return body.replace(REGION, '');
}

/** A derived region holding `lines` (empty → no region at all). */
export function derivedBlock(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${DERIVED_BEGIN}\n${lines.join('\n')}\n${DERIVED_END}\n`;
}

/**
 * Put `block` where the body's first derived region is (other regions are dropped); a body without
 * one gets it at the end, after a blank line.
 */
export function replaceDerived(body: string, block: string): string {
  let placed = false;
  const out = body.replace(REGION, () => {
    if (placed) return '';
    placed = true;
    return block;
  });
  if (placed || block === '') return out;
  const trimmed = out.replace(/\s+$/, '');
  return trimmed === '' ? block : `${trimmed}\n\n${block}`;
}

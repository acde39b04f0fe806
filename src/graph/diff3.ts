/**
 * A line-based three-way merge: the changes each side made to a common base are combined; where both
 * changed the same lines differently (an overlapping hunk), the first side's lines are kept and the
 * hunk is counted as a conflict.
 */

/** Pairs of equal lines of `a` and `b` in a longest common subsequence: match[i] = j, or -1. */
function lcsMatch(a: readonly string[], b: readonly string[]): Int32Array {
  const match = new Int32Array(a.length).fill(-1);
  let lo = 0;
  let hiA = a.length;
  let hiB = b.length;
  // Common prefix and suffix are matched directly; the table covers only the middle.
  while (lo < hiA && lo < hiB && a[lo] === b[lo]) {
    match[lo] = lo;
    lo++;
  }
  while (hiA > lo && hiB > lo && a[hiA - 1] === b[hiB - 1]) {
    hiA--;
    hiB--;
    match[hiA] = hiB;
  }
  const n = hiA - lo;
  const m = hiB - lo;
  if (n === 0 || m === 0) return match;
  // lengths[i][j] = LCS length of a[lo+i..hiA) and b[lo+j..hiB)
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[lo + i] === b[lo + j]
          ? (lengths[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[lo + i] === b[lo + j]) {
      match[lo + i] = lo + j;
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) i++;
    else j++;
  }
  return match;
}

const same = (x: readonly string[], y: readonly string[]) =>
  x.length === y.length && x.every((line, i) => line === y[i]);

export interface Merge3Result {
  lines: string[];
  /** Hunks both sides changed differently (the first side's version was kept). */
  conflicts: number;
}

/** Merge `ours` and `theirs`, both derived from `base`; on overlapping changes `ours` wins. */
export function merge3(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): Merge3Result {
  const mOurs = lcsMatch(base, ours);
  const mTheirs = lcsMatch(base, theirs);
  const out: string[] = [];
  let conflicts = 0;
  let o = 0;
  let a = 0;
  let b = 0;
  const chunk = (oEnd: number, aEnd: number, bEnd: number) => {
    const baseChunk = base.slice(o, oEnd);
    const oursChunk = ours.slice(a, aEnd);
    const theirsChunk = theirs.slice(b, bEnd);
    if (same(oursChunk, baseChunk)) out.push(...theirsChunk);
    else if (same(theirsChunk, baseChunk) || same(oursChunk, theirsChunk)) out.push(...oursChunk);
    else {
      out.push(...oursChunk);
      conflicts++;
    }
  };
  while (o < base.length) {
    // The next base line both sides kept, at or after where each side stands.
    let stable = o;
    while (stable < base.length && !((mOurs[stable] as number) >= a && (mTheirs[stable] as number) >= b))
      stable++;
    if (stable === base.length) break;
    const aAt = mOurs[stable] as number;
    const bAt = mTheirs[stable] as number;
    if (stable > o || aAt > a || bAt > b) chunk(stable, aAt, bAt);
    out.push(base[stable] as string);
    o = stable + 1;
    a = aAt + 1;
    b = bAt + 1;
  }
  if (o < base.length || a < ours.length || b < theirs.length) chunk(base.length, ours.length, theirs.length);
  return { lines: out, conflicts };
}

/** merge3 over text (lines split on \n; a final newline is kept if either side has one). */
export function merge3Text(base: string, ours: string, theirs: string): { text: string; conflicts: number } {
  const split = (s: string) => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));
  const r = merge3(split(base), split(ours), split(theirs));
  const newline = ours.endsWith('\n') || theirs.endsWith('\n');
  return { text: r.lines.join('\n') + (newline && r.lines.length > 0 ? '\n' : ''), conflicts: r.conflicts };
}

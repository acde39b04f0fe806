/**
 * Personalised PageRank over an undirected weighted graph: a random walk that follows edges with
 * probability `damping` and otherwise jumps back to the personalisation nodes (in proportion to their
 * weight). Dangling mass jumps the same way.
 */

export interface PageRankOptions {
  damping?: number;
  iterations?: number;
  tolerance?: number;
}

export function personalisedPageRank(
  nodes: readonly string[],
  edges: readonly (readonly [string, string, number])[],
  personalisation: ReadonlyMap<string, number>,
  options: PageRankOptions = {},
): Map<string, number> {
  const damping = options.damping ?? 0.85;
  const n = nodes.length;
  if (n === 0) return new Map();
  const index = new Map(nodes.map((id, i) => [id, i]));
  // Each node's neighbours in flat arrays (CSR: node i's are at start[i] … start[i + 1] - 1), in the
  // order the edges give them: the walk adds the same terms in the same order as a list per node.
  const ends: number[] = [];
  const degree = new Int32Array(n + 1);
  const strength = new Float64Array(n);
  for (const [a, b, w] of edges) {
    const i = index.get(a);
    const j = index.get(b);
    if (i === undefined || j === undefined || i === j || !(w > 0)) continue;
    ends.push(i, j, w);
    degree[i + 1] = (degree[i + 1] as number) + 1;
    degree[j + 1] = (degree[j + 1] as number) + 1;
    strength[i] = (strength[i] as number) + w;
    strength[j] = (strength[j] as number) + w;
  }
  const start = degree;
  for (let i = 0; i < n; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, n);
  const to = new Int32Array(start[n] as number);
  const weight = new Float64Array(start[n] as number);
  for (let e = 0; e < ends.length; e += 3) {
    const i = ends[e] as number;
    const j = ends[e + 1] as number;
    const w = ends[e + 2] as number;
    let k = fill[i] as number;
    to[k] = j;
    weight[k] = w;
    fill[i] = k + 1;
    k = fill[j] as number;
    to[k] = i;
    weight[k] = w;
    fill[j] = k + 1;
  }
  const jump = new Float64Array(n);
  let total = 0;
  for (const [id, w] of personalisation) {
    const i = index.get(id);
    if (i !== undefined && w > 0) {
      jump[i] = (jump[i] as number) + w;
      total += w;
    }
  }
  if (total === 0) jump.fill(1 / n);
  else for (let i = 0; i < n; i++) jump[i] = (jump[i] as number) / total;

  let rank = Float64Array.from(jump);
  for (let iter = 0; iter < (options.iterations ?? 100); iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const r = rank[i] as number;
      const s = strength[i] as number;
      if (s === 0) {
        dangling += r;
        continue;
      }
      for (let k = start[i] as number, end = start[i + 1] as number; k < end; k++) {
        const j = to[k] as number;
        next[j] = (next[j] as number) + (damping * r * (weight[k] as number)) / s;
      }
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const value = (next[i] as number) + (1 - damping + damping * dangling) * (jump[i] as number);
      delta += Math.abs(value - (rank[i] as number));
      next[i] = value;
    }
    rank = next;
    if (delta < (options.tolerance ?? 1e-10)) break;
  }
  return new Map(nodes.map((id, i) => [id, rank[i] as number]));
}

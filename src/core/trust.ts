/**
 * How far a memory's text can be trusted, from where its evidence came: the user's own words, the
 * repository (files in git, its hooks, CI), local tool output (commands the agent ran, the agent's
 * own words), or external content (web pages, search results, dependencies, a teammate's memory).
 * Mixed evidence takes the lowest. Pure; used by the mutation path, recall's injection gate and the
 * surfaces that show it.
 */

export const TRUST_CLASSES = ['user', 'repository', 'tool', 'external'] as const;
export type TrustClass = (typeof TRUST_CLASSES)[number];

/** Higher is more trusted. */
const RANK: Readonly<Record<TrustClass, number>> = { user: 3, repository: 2, tool: 1, external: 0 };

export const isTrustClass = (value: unknown): value is TrustClass =>
  typeof value === 'string' && (TRUST_CLASSES as readonly string[]).includes(value);

/** The lowest of some trust classes (mixed evidence takes the lowest); `fallback` when there are none. */
export function lowestTrust(
  classes: readonly (TrustClass | undefined | null)[],
  fallback: TrustClass = 'tool',
): TrustClass {
  let low: TrustClass | null = null;
  for (const c of classes) if (c && (low === null || RANK[c] < RANK[low])) low = c;
  return low ?? fallback;
}

/** Whether `a` is trusted less than `b`. */
export const trustBelow = (a: TrustClass, b: TrustClass): boolean => RANK[a] < RANK[b];

/** How the class reads in a sentence ("from the repository"). */
export const TRUST_LABELS: Readonly<Record<TrustClass, string>> = {
  user: "the user's own words",
  repository: 'the repository',
  tool: 'local tool output',
  external: 'external content',
};

/**
 * The review state of a memory's text: `clear` (screened, nothing found), `held` (quarantined:
 * instruction-like text from below the user's trust; never injected, never standing, never pushed,
 * until a person approves it), `approved` (a person let it through after review).
 */
export const REVIEW_STATES = ['clear', 'held', 'approved'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

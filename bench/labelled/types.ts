/**
 * Annotation types for the labelled real sessions (`../shared/datasets/labelled-sessions`): the gold
 * lists stay there (ids, kinds, text); what lives here is how a memory is recognised as stating an item
 * — keyword groups written from the gold item and the transcript, never from engram's output — the
 * claims no memory may make (must-never), and the questions a later session would ask.
 *
 * Matching (see `bench/lib/labelled-judge.ts`): a text matches a `Groups` when every group has at least
 * one of its words in it (case-insensitive substring, or a RegExp). Alternatives (`Groups[]`) match when
 * any one of them does.
 */

/** A word: a case-insensitive substring, or a pattern tested against the lower-cased text. */
export type Word = string | RegExp;
/** At least one word of the group must occur. */
export type Group = readonly Word[];
/** Every group must match. */
export type Groups = readonly Group[];

/**
 * One facet of a gold item. An item with several facets (a decision and its reason, three commands, a
 * list of commits) is stated fully only when every facet is stated fully somewhere the next session
 * sees; at least partly when any facet's core (or full) is.
 */
export interface Part {
  /** Alternatives: the fragment that makes the facet "partly" there (the problem without its fix, …). */
  core: readonly Groups[];
  /** Alternatives: what a text must hold to state the facet fully (what + why, symptom + fix, …). */
  full: readonly Groups[];
}

export interface ItemAnnotation {
  /** The gold item's id in `gold/<file>.md` (e.g. `A1-7`). */
  id: string;
  parts: readonly Part[];
  /** One or two questions a later session would plausibly ask about the item, in its own words. */
  ask: readonly string[];
}

/** A false or stale claim a memory (or a summary field, or an injected line) could make. */
export interface MustNever {
  id: string;
  /** What is false about it, and why (from the transcript). */
  what: string;
  /** Every group must match. */
  all: Groups;
  /** Not a match when any of these occurs (the text states the claim as refuted, or the truth). */
  unless?: readonly Word[];
  /** Only memories of these types (any type, and summary fields and lines, when absent). */
  types?: readonly string[];
}

export interface SessionAnnotation {
  /** The gold file under `gold/` (e.g. `01-streaming.md`). */
  goldFile: string;
  /** Short label for reports. */
  label: string;
  /** The session id (the transcript's file name). */
  sessionId: string;
  items: readonly ItemAnnotation[];
  mustNever: readonly MustNever[];
}

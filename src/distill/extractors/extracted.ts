/**
 * What an extractor returns: a typed memory draft with provenance (the transcript record it came
 * from), its time, and a confidence in [0, 1].
 */
import type { ObservationDraft, ObservationType } from '../../core/model.ts';
import type { TrustClass } from '../../core/trust.ts';
import { clip } from '../text.ts';

export interface Extracted {
  draft: ObservationDraft;
  uuid: string;
  at: number;
  confidence: number;
  /** The assistant's statements it shows were wrong (a correction's target): memories stating them are withdrawn. */
  refutes?: string[];
  /**
   * The assistant's words relaying a source of this trust (a rules file it quotes): the memory takes
   * it, or external when the turn took in external content. Absent, with no `draft.trust`: the
   * assistant's own words (local tool output).
   */
  relayed?: TrustClass;
}

export function extracted(
  type: ObservationType,
  title: string,
  narrative: string,
  source: { uuid: string; at: number },
  confidence: number,
  extra: Partial<ObservationDraft> = {},
): Extracted {
  return {
    draft: {
      type,
      title: clip(title, 90),
      subtitle: '',
      narrative: clip(narrative, 800),
      facts: [],
      concepts: [type.replace('_', ' ')],
      filesRead: [],
      filesModified: [],
      ...extra,
    },
    uuid: source.uuid,
    at: source.at,
    confidence,
  };
}

/** Split prose into sentences (keeps code spans intact enough for titles). */
export function sentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim().replace(/^[-*>#\d.)\s]+/, ''))
    .filter((s) => s.length >= 8);
}

/** A title cut at a word, never in the middle of one (see text.ts). */
export { clipWords } from '../text.ts';

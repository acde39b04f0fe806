/**
 * The text of a memory that gets embedded: title, subtitle, narrative, facts and concepts, capped
 * (embedding models read a few hundred tokens at most; the head of a memory says what it is about).
 */
import type { EmbeddingSource } from '../store/vectors-repo.ts';

export const EMBEDDING_TEXT_CHARS = 2000;

export function embeddingText(s: EmbeddingSource): string {
  const parts = [s.title, s.subtitle, s.narrative, s.facts.join('\n'), s.concepts.join(', ')];
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n')
    .slice(0, EMBEDDING_TEXT_CHARS);
}

/**
 * Standing preferences: durable "always / never / prefer / from now on" rules the user states about
 * tools, style or workflow. Descriptions of how things are ("it always fails") are not rules.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extracted, sentences, type Extracted } from './extracted.ts';

const RULE =
  /^(?:please\s+)?(?:always|never|from now on|going forward|in (?:the )?future|make sure (?:to|you)|don'?t ever|do not ever|i (?:always |really )?prefer|we (?:always|never|prefer)|prefer\b|use \S+ (?:rather than|instead of|over)\b)/i;
const INLINE = /\b(?:from now on|going forward|in (?:the )?future),? /i;

export function extractPreferences(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  for (const e of entries) {
    if (e.kind !== 'prompt') continue;
    for (const s of sentences(e.text)) {
      if (s.length > 300 || /\?\s*$/.test(s)) continue;
      if (!RULE.test(s) && !INLINE.test(s)) continue;
      out.push(
        extracted(
          'preference',
          s,
          `Standing preference stated by the user: "${s}"`,
          e,
          RULE.test(s) ? 0.85 : 0.65,
        ),
      );
    }
  }
  return out;
}

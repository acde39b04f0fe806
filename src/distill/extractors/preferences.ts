/**
 * Standing rules the user states: preferences ("always / never / prefer / from now on …" about tools,
 * style or workflow) and conventions of the project's workflow ("one commit per task", "run the linter
 * before committing"). Descriptions of how things are ("it always fails") and questions are not rules;
 * only the user's own prompts are read (never a skill's or command's expansion).
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extracted, sentences, type Extracted } from './extracted.ts';

const RULE =
  /^(?:please\s+)?(?:always|never|from now on|going forward|in (?:the )?future|make sure (?:to|you)|don'?t ever|do not ever|i (?:always |really )?prefer|we (?:always|never|prefer)|prefer\b|use \S+ (?:rather than|instead of|over)\b)/i;
const INLINE = /\b(?:from now on|going forward|in (?:the )?future),? /i;
const CONVENTION =
  /^(?:(?:one|a single|exactly one) \w+(?: \w+)? per \w+|(?:always )?(?:run|use) .{3,60} before (?:committing|each commit|every commit|pushing|merging)|commit (?:after|per) (?:each|every) \w+|(?:the )?(?:tests?|lint(?:er)?|ci|checks?) (?:must|should) (?:pass|be green) before)\b/i;

export function extractPreferences(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  for (const e of entries) {
    if (e.kind !== 'prompt' || e.command !== undefined) continue;
    for (const s of sentences(e.text)) {
      if (s.length > 300 || /\?\s*$/.test(s)) continue;
      if (CONVENTION.test(s)) {
        out.push(extracted('convention', s, `Convention stated by the user: "${s}"`, e, 0.8));
        continue;
      }
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

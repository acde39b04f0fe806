/**
 * Decisions stated by the assistant: "going with X because Y", "chose X over Y", "X instead of Y",
 * rejected alternatives — with their reason. Questions, offers, hypotheticals and the narration of a
 * step ("Now also replace X since we imported it") are not decisions.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extracted, sentences, type Extracted } from './extracted.ts';

const CHOICE =
  /\b(?:I(?:'ll| will)\b|I(?:'ll| will)? (?:go|went|am going) with|(?:replace|replacing|switch|move|keep|use)\b.*\b(?:since|because)\b|going with|decided to|(?:I|we) chose|chose to|opted (?:for|to)|settled on|I(?:'ll| will) use|we(?:'ll| will) use|switch(?:ed|ing)? to|the (?:better|right|best) (?:option|choice|approach) is)\b/i;
const REASON =
  /\b(?:because|since|as it|so that|which (?:avoids|keeps|means)|instead of|rather than|over\b|to avoid)\b/i;
const CONTRAST = /\b(?:instead of|rather than|over)\b/i;
const NOT_A_DECISION =
  /\?\s*$|^(?:if|should|would|could|do you|shall|want me|let me know|maybe|perhaps)\b|\b(?:if you (?:want|prefer|like)|I could|we could|might)\b/i;
/** A step being narrated: "Now also …", "Next I'll …", "Let me …", "First, …". */
const NARRATION = /^(?:now|also|next|then|first|finally|ok(?:ay)?|alright|so|let me|let's|good|great)\b/i;

/** Whether a sentence states a decision with its reason (not a step, question or offer). */
export function isDecision(s: string): boolean {
  if (s.length > 400 || NOT_A_DECISION.test(s) || NARRATION.test(s)) return false;
  const contrast = CONTRAST.test(s) && /\b(?:use|using|chose|pick|went|go|keep|prefer)\b/i.test(s);
  return (CHOICE.test(s) && REASON.test(s)) || contrast;
}

export function extractDecisions(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  for (const e of entries) {
    if (e.kind !== 'assistant_text') continue;
    for (const s of sentences(e.text)) {
      if (!isDecision(s)) continue;
      out.push(extracted('decision', s, s, e, CHOICE.test(s) && REASON.test(s) ? 0.8 : 0.6));
    }
  }
  return out;
}

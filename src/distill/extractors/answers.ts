/**
 * Choices the user made when the assistant asked (AskUserQuestion): "Which tools should we set up?"
 * → "Credo + Dialyxir + mix_audit". The user's own decision, in their words. A bare yes, no or "none"
 * is not one.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

const TRIVIAL = /^(?:yes|no|ok(?:ay)?|none|skip|n\/a|no rig|other|cancel|either|both|neither)\b[.!]?$/i;

export function extractAnswers(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.name !== 'AskUserQuestion' || !e.result || e.result.isError) continue;
    for (const m of e.result.text.matchAll(/"([^"]{5,300}\?)"="([^"]{1,300})"/g)) {
      const question = m[1]?.trim() ?? '';
      const answer = m[2]?.trim() ?? '';
      if (answer.length < 3 || TRIVIAL.test(answer)) continue;
      out.push(
        extracted(
          'decision',
          `${clip(answer, 60)} (${clip(question, 60)})`,
          `Asked "${question}", the user chose: ${answer}.`,
          { uuid: e.result.uuid || e.uuid, at: e.at },
          0.8,
          { facts: [`question: ${clip(question, 200)}`, `chosen: ${clip(answer, 200)}`] },
        ),
      );
    }
  }
  return out;
}

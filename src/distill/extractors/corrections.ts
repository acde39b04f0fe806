/**
 * Corrections: the user redirecting the assistant ("no, use …", "don't …", "actually …", an interrupt
 * followed by new instructions), paired with the approach that was rejected (what the assistant had
 * just said or done). Polite negatives ("no worries", "no, that's fine") are not corrections.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, firstSentence } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

const REDIRECT =
  /^(?:no\b|nope\b|don'?t\b|do not\b|stop\b|wait\b|actually\b|instead\b|that'?s (?:wrong|not (?:right|it|what))|wrong\b|not like that|not that\b|undo\b|revert\b|please don'?t\b|you (?:should(?:n'?t)?|need to|forgot)\b|i said\b|never\b)/i;
const INSIDE = /\b(?:use \S+ instead|instead of|not \S+, (?:but|use)|rather than|that'?s not what i)\b/i;
const BENIGN =
  /^(?:no (?:worries|problem|thanks|need)|no,? (?:that'?s|it'?s) (?:fine|ok|okay|good|great|perfect)|actually,? (?:that|it) (?:looks|works|is) (?:good|great|fine|perfect))/i;

function rejectedApproach(before: readonly TranscriptEntry[]): string {
  for (let i = before.length - 1; i >= 0; i--) {
    const e = before[i];
    if (!e || e.kind === 'prompt') break;
    if (e.kind === 'tool_call') {
      const input = e.input as Record<string, unknown> | null;
      const what =
        typeof input?.['command'] === 'string'
          ? input['command']
          : typeof input?.['file_path'] === 'string'
            ? input['file_path']
            : '';
      return `${e.name}${what ? ` ${clip(String(what), 100)}` : ''}`;
    }
    if (e.kind === 'assistant_text') return firstSentence(e.text, 160);
  }
  return '';
}

export function extractCorrections(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  let seenAssistant = false;
  let interrupted = false;
  entries.forEach((e, i) => {
    if (e.kind === 'assistant_text' || e.kind === 'tool_call') seenAssistant = true;
    if (e.kind === 'interrupt') interrupted = true;
    if (e.kind !== 'prompt') return;
    const text = e.text.trim();
    const afterInterrupt = interrupted;
    interrupted = false;
    if (!seenAssistant || BENIGN.test(text)) return;
    const redirect = REDIRECT.test(text) || INSIDE.test(text);
    if (!redirect && !afterInterrupt) return;
    // After an interrupt, new instructions are a redirect; a question is just a question.
    if (!redirect && (text.length < 12 || /\?\s*$/.test(text))) return;
    const rejected = rejectedApproach(entries.slice(0, i));
    const title = `Correction: ${firstSentence(text, 78)}`;
    const narrative = `The user corrected the assistant: "${clip(text, 400)}"${rejected ? ` — rejected approach: ${rejected}` : ''}${afterInterrupt ? ' (after interrupting it)' : ''}.`;
    out.push(
      extracted('correction', title, narrative, e, redirect ? 0.8 : 0.55, {
        facts: rejected
          ? [`rejected: ${rejected}`, `instead: ${clip(text, 200)}`]
          : [`instead: ${clip(text, 200)}`],
      }),
    );
  });
  return out;
}

/**
 * Corrections: the user rejecting an approach ("no, use …", "don't …", "that's wrong", "use X instead
 * of Y", or interrupting a step and saying how to do it instead), paired with the approach that was
 * rejected (what the assistant had just said or done). Only a rejection is a correction: approving a
 * plan ("go ahead and create the tickets"), a question, or a change of topic — even right after an
 * interrupt — is not, nor are polite negatives ("no worries") or a slash command.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, firstSentence } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

const REDIRECT =
  /^(?:no\b|nope\b|don'?t\b|do not\b|stop\b|that'?s (?:wrong|not (?:right|it|what))|wrong\b|not like that|not that\b|undo\b|revert\b|please don'?t\b|you (?:should(?:n'?t)?|need to|forgot)\b|i said\b|never\b|(?:actually|wait),? (?:no\b|don'?t\b|do not\b|not\b|use\b|instead\b))/i;
const INSIDE = /\b(?:use \S+ instead|instead of|not \S+, (?:but|use)|rather than|that'?s not what i)\b/i;
const BENIGN =
  /^(?:no (?:worries|problem|thanks|need)|no,? (?:that'?s|it'?s) (?:fine|ok|okay|good|great|perfect)|actually,? (?:that|it) (?:looks|works|is) (?:good|great|fine|perfect))/i;
/** A new subject announced as such. */
const NEW_TOPIC =
  /^(?:unrelated|different (?:topic|question)|btw|by the way|also|another (?:thing|question)|separately|side note)\b/i;

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z_][a-z0-9_]{3,}/g) ?? []).filter((w) => !COMMON.has(w)));
const COMMON = new Set(
  'this that with from have will would could should what when where which there their them then than your just also into only more some make sure been were does done here'.split(
    ' ',
  ),
);

/** Approval of what was proposed: the plan goes ahead, nothing is rejected. */
const APPROVAL =
  /^(?:(?:ok(?:ay)?|yes|yep|sure|great|perfect|good|lgtm|sounds good|looks good)[,.!]?\s+)*(?:please\s+)?(?:go ahead|do it|proceed|approved?|ship it|(?:now\s+)?(?:create|make|open|file|write|implement|build|start)\b)/i;

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
    if (!seenAssistant || e.command !== undefined || BENIGN.test(text) || APPROVAL.test(text)) return;
    if (NEW_TOPIC.test(text) || (/\?\s*$/.test(text) && !REDIRECT.test(text))) return;
    const rejected = rejectedApproach(entries.slice(0, i));
    const said = REDIRECT.test(text) || INSIDE.test(text);
    // After an interrupt, new instructions about what was interrupted reject it; anything else is a new topic.
    const about = [...words(text)].some((w) => words(rejected).has(w));
    if (!said && !(afterInterrupt && about && text.length >= 12)) return;
    const title = `Correction: ${firstSentence(text, 78)}`;
    const narrative = `The user corrected the assistant: "${clip(text, 400)}"${rejected ? ` — rejected approach: ${rejected}` : ''}${afterInterrupt ? ' (after interrupting it)' : ''}.`;
    out.push(
      extracted('correction', title, narrative, e, said ? 0.8 : 0.6, {
        facts: rejected
          ? [`rejected: ${rejected}`, `instead: ${clip(text, 200)}`]
          : [`instead: ${clip(text, 200)}`],
      }),
    );
  });
  return out;
}

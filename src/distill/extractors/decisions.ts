/**
 * Decisions stated by the assistant: "going with X because Y", "chose X over Y", "use X instead of Y"
 * — kept with their reason and the alternative rejected, whole. A sentence is a decision only when it
 * says why (or what it was chosen over), and it is kept only when the evidence supports it and nothing
 * refutes it:
 * - supported: the same turn acted on it (an edit, a write or a command that touches what it names);
 * - refuted: the user's next words correct it, or a later message of the assistant's says otherwise;
 * - outranked: the user made the decision themselves (a choice, an approval, a correction on the same
 *   subject) — the user's decision is kept, not the assistant's narration of it.
 * Questions, offers, hypotheticals and the narration of a step ("Now also replace X since we imported
 * it") are not decisions.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { isHostFile } from '../text.ts';
import { clipWords, extracted, sentences, type Extracted } from './extracted.ts';
import { negates } from './mood.ts';
import { contentWords, refersTo, sharedScore } from './shared-words.ts';
import type { UserReading } from './user-words.ts';

/** A choice named as one ("going with", "I'll use", "switched to"); a plain "I'll" is weaker: see isDecision. */
const CHOICE =
  /\b(?:I(?:'ll| will)? (?:go|went|am going) with|(?:replace|replacing|switch|move|keep|use)\b.*\b(?:since|because)\b|going with|decided to|(?:I|we) chose|chose to|opted (?:for|to)|settled on|I(?:'ll| will) use|we(?:'ll| will) use|switch(?:ed|ing)? to|the (?:better|right|best|simplest|safest) (?:option|choice|approach|fix|way) is)\b/i;
export const REASON =
  /\b(?:because|since|as it|so that|which (?:avoids|keeps|means)|instead of|rather than|to avoid)\b/i;
const CONTRAST = /\b(?:instead of|rather than)\b/i;
const NOT_A_DECISION =
  /\?\s*$|^(?:if|should|would|could|do you|shall|want me|let me know|maybe|perhaps)\b|\b(?:if you (?:want|prefer|like)|I could|we could|might)\b/i;
/** A step being narrated: "Now also …", "Next I'll …", "Let me …", "First, …". */
const NARRATION = /^(?:now|also|next|then|first|finally|ok(?:ay)?|alright|so|let me|let's|good|great)\b/i;
const ACTING_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'Bash']);

/** The sentence says every word of a tool's name (`EnterPlanMode`: "enter plan mode"). */
function namesTool(sentence: string, tool: string): boolean {
  const parts = tool
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((w) => w.length >= 3);
  const said = new Set(sentence.toLowerCase().match(/[a-z]+/g) ?? []);
  return parts.length > 0 && parts.every((w) => said.has(w));
}

/** A call that acted on the project: an acting tool that worked, not on the host's own files. */
const actsOnProject = (x: TranscriptEntry): x is Extract<TranscriptEntry, { kind: 'tool_call' }> =>
  x.kind === 'tool_call' &&
  ACTING_TOOLS.has(x.name) &&
  !(x.result?.isError ?? false) &&
  !isHostFile(String((x.input as Record<string, unknown> | undefined)?.file_path ?? ''));

/** Whether a sentence states a decision with its reason (not a step, question or offer). */
export function isDecision(s: string): boolean {
  // A sentence ending in a colon introduces the step that follows it (a plan for the next call).
  if (s.length > 400 || NOT_A_DECISION.test(s) || NARRATION.test(s) || /:\s*$/.test(s)) return false;
  const contrast =
    CONTRAST.test(s) &&
    /\b(?:use|used|using|chose|pick|picked|went|go|keep|kept|prefer|switch|switched|replace|replaced)\b/i.test(
      s,
    );
  if (contrast) return true;
  if (!REASON.test(s)) return false;
  if (CHOICE.test(s)) return true;
  // A plain "I'll …" is a choice when its reason follows it ("I'll remove X since Y covers it") or it
  // names what it replaces ("… instead"); opening on the circumstance ("Since no commands are
  // available, I'll split the work…") narrates how the next step goes.
  const plainWill = /\bI(?:'ll| will)\b/i.exec(s);
  return plainWill !== null && (s.search(REASON) > plainWill.index || /\binstead\b/i.test(s));
}

const unmark = (s: string) =>
  s
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The reason a decision gives, and the alternative it rejects. */
export function decisionParts(s: string): { reason: string; rejected: string } {
  const reason =
    /\b(?:because|since|so that|as it|which (?:avoids|keeps|means)|to avoid)\b\s*(.+)$/i.exec(s)?.[0] ?? '';
  const rejected =
    /\b(?:instead of|rather than)\s+(.+?)(?:[,;]|\s+(?:because|since|so that|as)\b|[.!]?$)/i.exec(s)?.[1] ??
    '';
  return { reason: reason.replace(/[.!]$/, ''), rejected: rejected.trim() };
}

function inputText(e: Extract<TranscriptEntry, { kind: 'tool_call' }>): string {
  const input = (e.input ?? {}) as Record<string, unknown>;
  return ['command', 'file_path', 'new_string', 'content', 'description']
    .map((k) => (typeof input[k] === 'string' ? (input[k] as string).slice(0, 4000) : ''))
    .join('\n');
}

/**
 * `readings`: the user's words of the same stretch (see `readUserWords`), which refute or outrank the
 * assistant's decisions. `context`: entries read before (not produced again). `unverified`: keep the
 * decisions nothing acted on too (candidates for a reader that judges them itself).
 */
export function extractDecisions(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
  readings: readonly UserReading[] = [],
  options: { unverified?: boolean } = {},
): Extracted[] {
  const old = new Set(context.map((e) => e.uuid));
  const all = [...context, ...entries];
  const userDecided = readings.filter((r) => r.role !== 'none').map((r) => r.utterance);
  const out: Extracted[] = [];
  const kept: string[] = [];
  all.forEach((e, i) => {
    if (e.kind !== 'assistant_text' || old.has(e.uuid)) return;
    // The rest of the turn (until the user speaks again) and the user's next words.
    const rest: TranscriptEntry[] = [];
    let next: TranscriptEntry | null = null;
    for (const later of all.slice(i + 1)) {
      if (later.kind === 'prompt' || (later.kind === 'interrupt' && later.reason)) {
        next = later;
        break;
      }
      rest.push(later);
    }
    const earlier = all.slice(0, i);
    for (const raw of sentences(e.text)) {
      const s = unmark(raw);
      if (!isDecision(s)) continue;
      // "I'll enter plan mode since …" right before the host's EnterPlanMode: the narration of a
      // step of the agent's own, not a decision about the project.
      const nextCall = rest.find((x) => x.kind === 'tool_call');
      if (nextCall?.kind === 'tool_call' && !ACTING_TOOLS.has(nextCall.name) && namesTool(s, nextCall.name))
        continue;
      const acted = rest.filter(actsOnProject);
      // Reported at the end of a turn: what the turn did before it.
      const before = earlier
        .slice(earlier.map((x) => x.kind).lastIndexOf('prompt') + 1)
        .filter(actsOnProject);
      const supported = [...acted, ...before].some((x) => sharedScore(s, inputText(x)) >= 1);
      if (!supported && options.unverified !== true) continue;
      // The user's next words correct it.
      const reading = next ? readings.find((r) => r.utterance.uuid === next?.uuid) : undefined;
      if (
        reading?.role === 'correction' &&
        (refersTo(reading.utterance.text, s) || refersTo(reading.rejected, s))
      )
        continue;
      // A later message of the assistant's says the opposite about the same thing.
      const later = rest.flatMap((x) => (x.kind === 'assistant_text' ? sentences(x.text).map(unmark) : []));
      if (
        later.some(
          (l) =>
            sharedScore(l, s) >= 3 &&
            negates(l) !== negates(s) &&
            /\b(?:actually|instead|wrong|revert|doesn'?t work|not work)\b/i.test(l),
        )
      )
        continue;
      // The user decided it: their decision is kept, not this narration of it.
      // (Only what the user decided before: a later confirmation of the assistant's decision keeps both.)
      if (userDecided.some((u) => u.at <= e.at && sharedScore(u.text, s) >= 3)) continue;
      // The same decision said twice in the stretch.
      if (kept.some((k) => sharedScore(k, s) >= Math.max(3, contentWords(s).size * 0.7))) continue;
      kept.push(s);
      const { reason, rejected } = decisionParts(s);
      // A report's label before the statement ("Key fix in this session: Resolved …") is no part of it.
      const stated = s.replace(/^[A-Z][\w-]*(?:\s+[\w-]+){0,4}:\s+(?=[A-Z`])/, '');
      out.push(
        extracted('decision', clipWords(stated, 110), s, e, CHOICE.test(s) && REASON.test(s) ? 0.8 : 0.6, {
          title: clipWords(stated, 110),
          facts: [...(reason ? [`reason: ${reason}`] : []), ...(rejected ? [`instead of: ${rejected}`] : [])],
        }),
      );
    }
  });
  return out;
}

/**
 * What kind of work a turn was: read off the request (its leading verb first, then keywords in its
 * first sentence), what the turn did (files changed, errors met and fixed) and whether the assistant's
 * final message states a choice.
 */
import type { ObservationType } from '../core/model.ts';

const LEAD =
  /^(?:(?:ok(?:ay)?|so|now|then|and|also|hey|hi|great|thanks)[,.!]?\s+)*(?:(?:please|pls|can you|could you|would you|will you|let'?s|we need to|i need you to|i want you to|go ahead and|try to)\s+)*(\w+)/i;
const LEAD_VERBS: Record<string, ObservationType> = {};
for (const v of 'fix fixes repair debug resolve patch correct troubleshoot diagnose'.split(' '))
  LEAD_VERBS[v] = 'bugfix';
for (const v of 'add implement create build introduce support write scaffold enable allow generate set setup wire hook integrate'.split(
  ' ',
))
  LEAD_VERBS[v] = 'feature';
for (const v of 'refactor rename extract clean cleanup simplify restructure reorganize reorganise split inline dedupe deduplicate tidy modularize consolidate decouple'.split(
  ' ',
))
  LEAD_VERBS[v] = 'refactor';

const BUGFIX =
  /\b(?:fix(?:e[sd])?|bugs?|broken|crash(?:es|ed|ing)?|fail(?:s|ed|ing|ure)?|regression|wrong|doesn'?t work|not working|isn'?t working|hangs?|flaky)\b|\b(?:an?|the|this|that|getting|got|seeing|throws?|raises?)\s+(?:\w+\s+)?(?:error|exception)s?\b|\w(?:Error|Exception)\b/i;
const REFACTOR =
  /\b(?:refactor\w*|renam\w*|extract\w*|clean(?:\s|-)?up|simplif\w*|restructur\w*|reorganis\w*|reorganiz\w*|move\s+\S+\s+(?:in)?to|split\s+\S+|dedup\w*)\b/i;
const FEATURE =
  /\b(?:add\w*|implement\w*|create\w*|support\w*|introduc\w*|build\w*|new|enable\w*|allow\w*|scaffold\w*)\b/i;

/** A stated choice: "decided to", "going with X", "chose X over Y", "use X instead of Y". */
const CHOICE =
  /\b(?:decided (?:to|on|against)|(?:am |I'm |we're |are )?going with|went with|(?:I|we) chose|chose \S+(?: \S+)? over|opted (?:for|to|against)|settled on|picked \S+|(?:we|I)(?:'ll| will) (?:use|go with|keep)|(?:use[sd]?|using|switch(?:ed)? to|kept|keep|prefer(?:red)?|replaced? \S+(?: \S+)? with)\b[^.]{0,80}\b(?:instead of|rather than|over)\b)/i;
/** Not a choice made: a question, a condition, or a sentence that leaves it to the user ("let me know …"). */
const NOT_A_CHOICE =
  /\?\s*$|^(?:if|should|would|could|do you|shall|want me|let me know|maybe|perhaps)\b|\bif you(?:'d| would)? (?:want|prefer|like)\b|\blet me know\b/i;

/** The sentence of `text` that states a decision, or ''. */
export function statedDecision(text: string): string {
  const sentences = text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim().replace(/^[-*>#\d.)\s]+/, ''));
  return (
    sentences.find((s) => s.length >= 12 && s.length <= 300 && CHOICE.test(s) && !NOT_A_CHOICE.test(s)) ?? ''
  );
}

/** The work type the request names, or null ("how does…", "update…", no verb we know). */
export function requestedType(prompt: string): ObservationType | null {
  const head = prompt.split(/(?<=[.!?])\s|\n/)[0]?.slice(0, 240) ?? '';
  const verb = LEAD.exec(head.trim())?.[1]?.toLowerCase() ?? '';
  const lead = LEAD_VERBS[verb];
  if (lead) return lead;
  if (BUGFIX.test(head)) return 'bugfix';
  if (REFACTOR.test(head)) return 'refactor';
  if (FEATURE.test(head)) return 'feature';
  return null;
}

export interface TurnShape {
  prompt: string;
  modified: boolean;
  committed: boolean;
  /** An error that mattered (a command, a test run, a build) was met and later fixed. */
  fixedError: boolean;
  decision: string;
}

export function classifyTurn(t: TurnShape): ObservationType {
  const changed = t.modified || t.committed;
  if (t.fixedError && t.modified) return 'bugfix';
  const requested = changed ? requestedType(t.prompt) : null;
  if (requested) return requested;
  if (t.decision !== '') return 'decision';
  return changed ? 'change' : 'discovery';
}

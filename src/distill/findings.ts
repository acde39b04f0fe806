/**
 * What a turn that only looked found: a research subagent's report, a cause the answer states, or —
 * when the turn looked hard enough to be an investigation — the answer it ended with.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { unsupportedClaim } from './claims.ts';
import { conceptsOf } from './concepts.ts';
import { isPlan, isStatusNote, proseSentences, statementSentences } from './narration.ts';
import { clip, informativeSentence, withoutFiller } from './text.ts';
import { purposeState } from './purpose-state.ts';
import { requestOf } from './turn-observations.ts';

const MAX_FILES = 30;
const FINDING =
  /\b(?:root cause|is caused by|caused by|the (?:problem|issue|bug|cause) (?:is|was)|turns out|the reason (?:is|was)|because)\b/i;

/**
 * A turn that only looked: a memory only when its answer states a finding (a cause, a reason), or a
 * research subagent reported one; titled by the finding.
 */
export function findingObservations(a: TurnAnalysis, sessionId = ''): ObservationDraft[] {
  if (a.segments.length > 0) return [];
  const out: ObservationDraft[] = [];
  for (const f of a.subagents.filter((x) => x.agentType !== 'Plan').slice(0, 2)) {
    const head = informativeSentence(f.findings, 100);
    if (head === '') continue;
    const bullets = f.findings
      .split('\n')
      .map((l) => /^\s*(?:[-*•]|\d+[.)])\s+(.{8,})$/.exec(l)?.[1] ?? '')
      .filter((l) => l !== '' && !/:\**$/.test(l.trim()))
      .slice(0, 5)
      .map((l) => clip(l.replace(/\*\*/g, ''), 140));
    out.push({
      type: 'discovery',
      title: head,
      subtitle: f.label && f.label !== f.agentType ? clip(f.label, 120) : '',
      narrative: clip(f.findings, 800),
      facts: bullets,
      concepts: conceptsOf({ prompt: `${f.label} ${head}`, files: [], commands: [], extra: ['subagent'] }),
      filesRead: a.filesRead.slice(0, MAX_FILES),
      filesModified: [],
    });
  }
  if (out.length > 0 || a.lastMessage === '') return out;
  // A cause stated after reading or searching; else, an investigation's answer (commands count there).
  if (a.filesRead.length + a.searches.length === 0) return investigated(a, sessionId);
  const finding = proseSentences(a.lastMessage).find(
    (s) => FINDING.test(s) && s.length >= 30 && s.length <= 260 && !unsupportedClaim(s, a),
  );
  if (!finding) return investigated(a, sessionId);
  return [
    {
      type: 'discovery',
      title: clip(finding, 110),
      subtitle: '',
      narrative: clip(withoutFiller(a.lastMessage), 800),
      facts: [],
      concepts: conceptsOf({ prompt: `${requestOf(a)} ${finding}`, files: a.filesRead, commands: [] }),
      filesRead: a.filesRead.slice(0, MAX_FILES),
      filesModified: [],
    },
  ];
}

/** The subject of a session's answer to what it investigated (one per session: the latest stands). */
export const answerSubject = (sessionId: string) => `answer:${sessionId}`;

/** A sentence handing the next move to the user: when they are ready, what they would like. */
const HANDS_OVER =
  /\b(?:whenever you(?:'re| are)? (?:ready|want|like)|when(?:ever)? you(?:'re| are) ready|let me know (?:if|when|whether|how)|if you(?:'d| would) like|ready for (?:the next|phase|step)\b)/i;

/** Reads, searches and commands: how much a look-only turn must do to be an investigation. */
const INVESTIGATION = 3;

/**
 * The answer an investigation ended with (the user asked; the turn read, searched and ran its way to
 * it, changing nothing): what it found, in the assistant's report — its statements only, not a status
 * note, a question back or a claim the turn's runs do not back.
 */
function investigated(a: TurnAnalysis, sessionId: string): ObservationDraft[] {
  if (a.filesRead.length + a.searches.length + a.commands.length < INVESTIGATION) return [];
  // A failure the turn leaves open is its memory (`openFailure`); the reply around it is about that.
  if (purposeState(a.commands).open.length > 0) return [];
  // The user asked something (a question of theirs, in any script): a chore's report is no finding.
  if (!/[?？]|^\s*(?:how|what|why|which|where|who|when|is|are|does|do|can|could)\b/i.test(requestOf(a)))
    return [];
  const all = statementSentences(withoutFiller(a.lastMessage));
  const spoken = proseSentences(a.lastMessage.replace(/^[ \t]*#.*$/gm, ''));
  // Ended on the way ("Now let me search for more …") or handing the question back ("Which one do
  // you want?"): not an answer yet.
  const end = spoken[spoken.length - 1] ?? '';
  if (isPlan(end) || /^(?:now |next,? )?let me\b/i.test(end) || /[?？]\s*\W*$/.test(end)) return [];
  // Statements of what is: no cheer ("✅ `npm run check` is now passing!"), status note or claim the
  // turn's runs do not back.
  const said = all.filter(
    (s) =>
      !/[!！]$/.test(s) &&
      !/^(?:next(?: steps?)?|to ?do|then)\s*[:—-]/i.test(s) &&
      // Handing over to the user ("Ready for Phase 4 whenever you want to start.") tells nothing found.
      !HANDS_OVER.test(s) &&
      !isStatusNote(s) &&
      !unsupportedClaim(s, a),
  );
  const answer = said.join(' ');
  const title = clip(said[0] ?? '', 110);
  if (answer.length < 60 || title === '') return [];
  return [
    {
      type: 'discovery',
      title,
      subtitle: clip(requestOf(a), 120),
      narrative: clip(answer, 800),
      facts: [`asked: ${clip(requestOf(a), 200)}`],
      // The session's latest answer stands: asked again ("really only that?"), the investigation's new
      // answer replaces the one before it.
      ...(sessionId !== '' ? { subject: answerSubject(sessionId) } : {}),
      concepts: conceptsOf({ prompt: `${requestOf(a)} ${title}`, files: a.filesRead, commands: [] }),
      filesRead: a.filesRead.slice(0, MAX_FILES),
      filesModified: [],
    },
  ];
}

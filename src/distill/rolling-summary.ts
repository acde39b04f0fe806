/**
 * The session's rolling summary: the previous one merged with what this turn adds, so it describes
 * the whole session so far. Every text field stays within ~600 characters (the latest kept).
 */
import type { SummaryDraft } from '../core/model.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { statedDecision } from './classify-request.ts';
import { mainPart } from './canonical-command.ts';
import { fixUnconfirmed, unsupportedClaim } from './claims.ts';
import { digestOpenItems } from './compact-summary.ts';
import { deniesOutcome, moodOf } from './extractors/mood.ts';
import { offerIn } from './extractors/offers.ts';
import { sharedScore } from './extractors/shared-words.ts';
import { userProse, proseSentences as userSentences } from './extractors/user-prose.ts';
import { gotchaObservations, shortError, unmetPredictions } from './gotchas.ts';
import {
  isFallbackItem,
  isStep,
  outcomeSentence,
  statedFallbacks,
  statedNextSteps,
  statementSentences,
  headline,
} from './narration.ts';
import { editedAfter, purposeState, type PurposeState } from './purpose-state.ts';
import { formatState, nextState, parseState, withState } from './session-state.ts';
import { clip, clipWords, findingSentence, isTrivialPrompt, unique, withoutFiller } from './text.ts';
import { ticketsClosed } from './tickets.ts';
import { dependencyFacts, modifiedFiles } from './turn-observations.ts';

const MAX_FIELD = 600;
const MAX_FILES = 30;

const listed = (items: readonly string[], max: number) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} (+${items.length - max} more)`;

const SEGMENT = ' | ';
const GAP = '…';

/**
 * Earlier text first, newest last, one segment per turn. When too long, whole segments are dropped
 * after the first: the session's beginning (what it set out to do) and its latest turns are what a
 * reader needs most, and a segment is kept whole or not at all (never cut again on every turn).
 */
/**
 * The request a prompt makes, for the summary: its start — unless the prompt is long (a pasted log or
 * an earlier session) and ends in a short line of prose, where a user puts the ask after what they paste.
 */
export function requestLine(prompt: string): string {
  const text = prompt.trim();
  if (text.length > 2000) {
    const last =
      text
        .split(/\n\s*\n|\n/)
        .pop()
        ?.trim() ?? '';
    // Words, not code, a path or a log line (`at main (src/index.ts:12:3)`).
    const prose =
      /^[\p{L}"'(][^{}<>;=`|/\\]*$/u.test(last) &&
      !/:\d/.test(last) &&
      (last.match(/\p{L}{2,}/gu) ?? []).length >= 2;
    if (last.length <= 200 && prose && !isTrivialPrompt(last) && !text.startsWith(last))
      return `${last} (the last line of a long prompt)`;
  }
  return clip(text, 300);
}

export function append(before: string | undefined, now: string, max = MAX_FIELD): string {
  const latest = clipWords(now, max / 2);
  const segments = (before ?? '')
    .split(SEGMENT)
    .map((x) => x.trim())
    .filter(Boolean);
  if (segments.length === 0) return latest;
  if (latest === '' || segments[segments.length - 1] === latest) return segments.join(SEGMENT);
  const all = [...segments, latest];
  if (all.join(SEGMENT).length <= max) return all.join(SEGMENT);
  const first = segments[0] === GAP ? '' : (segments[0] ?? '');
  const kept: string[] = [latest];
  let room =
    max - latest.length - (first ? Math.min(first.length, max / 4) + GAP.length + 2 * SEGMENT.length : 0);
  for (let i = segments.length - 1; i >= 1; i--) {
    const seg = segments[i] ?? '';
    if (seg === GAP) continue;
    if (seg.length + SEGMENT.length > room) break;
    kept.unshift(seg);
    room -= seg.length + SEGMENT.length;
  }
  return first ? [clipWords(first, max / 4), GAP, ...kept].join(SEGMENT) : kept.join(SEGMENT);
}

/** A file name or a path: what makes an answer with no code in it more than talk. */
const CONCRETE = /[\w-]\.[a-z]\w{0,4}\b|\w\/\w/i;
const nonAnswer = (m: string) => m.length < 40 || /^(?:let me|i'll|i will|now i'll|now let me)\b/i.test(m);

const CHECK_WORDS: Partial<Record<string, string>> = {
  test: 'tests pass',
  build: 'build passes',
  lint: 'lint passes',
  typecheck: 'typecheck passes',
  format: 'format passes',
  gate: 'checks pass',
};

/** "tests pass (87 passed)", "lint passes": the project's checks whose last run in the turn passed. */
function passingChecks(a: TurnAnalysis): string[] {
  const last = new Map<string, { ok: boolean; detail: string }>();
  for (const p of a.commands.flatMap((c) => c.parts)) {
    if (
      !CHECK_WORDS[p.purpose] ||
      p.where !== 'project' ||
      (p.outcome !== 'passed' && p.outcome !== 'failed')
    )
      continue;
    last.delete(p.purpose);
    last.set(p.purpose, { ok: p.outcome === 'passed', detail: p.purpose === 'test' ? p.detail : '' });
  }
  return [...last]
    .filter(([, r]) => r.ok)
    .map(([purpose, r]) => `${CHECK_WORDS[purpose] ?? purpose}${r.detail ? ` (${r.detail})` : ''}`);
}

/**
 * `relayed`: the turn took in external content (distill/evidence-trust), so the assistant's own
 * sentences may repeat what a page or a package told it. The summary then keeps only what happened
 * (files, commits, checks, failures, the user's prompts), never the assistant's account: a summary
 * is injected as it is, with no review between.
 */
export function mergeSummary(
  prev: SummaryDraft | null,
  a: TurnAnalysis,
  relayed = false,
): SummaryDraft | null {
  const files = modifiedFiles(a);
  const hasContent =
    a.prompts.length > 0 || files.length > 0 || a.lastMessage !== '' || a.toolCount > 0 || a.compacted;
  if (!hasContent) return prev && a.sessionEnded ? prev : null;

  const firstPrompt = a.prompts.find((p) => !isTrivialPrompt(p)) ?? a.prompts[0] ?? '';
  const request = prev?.request || requestLine(firstPrompt);
  // A command for the host (`/mcp`, `/model …`) that the agent never answered is not a request to it.
  const silent = a.toolCount === 0 && a.lastMessage.trim() === '' && a.narration.length === 0;
  const newPrompts = a.prompts.filter(
    (p) => !isTrivialPrompt(p) && clip(p, 300) !== request && !(silent && p.trimStart().startsWith('/')),
  );

  const investigated = [
    a.filesRead.length > 0 ? `read ${listed(a.filesRead, 6)}` : '',
    a.searches.length > 0 ? listed(unique(a.searches), 3) : '',
  ]
    .filter(Boolean)
    .join('; ');

  const decision = relayed ? '' : statedDecision(a.lastMessage);
  const learned = [
    // What a subagent found, in its words; an inventory (`File: …`, `Version: …`) is no finding.
    ...a.subagents.flatMap((s) => {
      const found = findingSentence(s.findings, 160);
      return found === '' ? [] : [`${clip(s.label || s.agentType || 'subagent', 60)}: ${found}`];
    }),
    ...[...gotchaObservations(a), ...unmetPredictions(a)].map((g) =>
      clip(g.title.replace(/^`([^`]+)` fails: /, '`$1`: '), 160),
    ),
    decision !== '' && !isStep(decision) ? `decided: ${clip(decision, 160)}` : '',
  ]
    .filter(Boolean)
    .join('; ');

  // The tracker's record of the work: what it was for, and that it is done there.
  const closed = closedTickets(a);
  const done = [
    ...a.commits.slice(0, 3).map((c) => `${c.reused ? 'amended' : 'committed'} "${clip(c.message, 80)}"`),
    a.commits.length > 3 ? `${a.commits.length - 3} more commits` : '',
    closed.length > 0 ? `closed ${listed(closed, 4)}` : '',
    files.length > 0 ? `changed ${listed(files, 5)}` : '',
    ...passingChecks(a),
    ...dependencyFacts(a),
    a.pushed ? 'pushed' : '',
  ].filter(Boolean);
  // A command that did something (not one that only looked) is work even when it left no file or
  // commit; a reply that names something concrete (a link, code) reports a result, and one to a
  // question answers it. Anything else the reply opens with (a poem, an idea) is only what was said.
  const acted =
    done.length > 0 ||
    a.commands.some((c) => c.parts.some((p) => p.outcome === 'passed' && p.purpose !== 'inspect')) ||
    /https?:\/\/\S|`[^`\n]+`/.test(a.lastMessage) ||
    // The user asked a question: the reply is its answer — when it names something of the code (a file
    // or a path; code and links count above), not when it only talks around it.
    (a.prompts.some((p) => /[?？]\s*$/.test(p.trim())) && CONCRETE.test(a.lastMessage));
  const supported = (x: string) => !unsupportedClaim(x, a);
  const said = outcomeSentence([a.lastMessage], [], supported);
  // With nothing done, the reply is only what was said (a poem, an idea, a reading), not completed; a
  // fix that no run bore out is what was changed, not what the reply says of it.
  const answer =
    relayed || !acted || fixUnconfirmed(a)
      ? ''
      : said !== ''
        ? clip(said, 160)
        : nonAnswer(a.lastMessage)
          ? ''
          : clip(
              statementSentences(withoutFiller(a.lastMessage)).filter(supported).join(' ') ||
                // A reply of headings, tables and lists: the conclusion it opens with.
                [headline(a.lastMessage)].filter(supported).join(''),
              160,
            );
  const completed = [clip(done.join('; '), 260), answer].filter(Boolean).join('. ');

  // Kept even when the turn took in outside content: notes are never injected, and the offer reaches
  // Next steps only through the user's own yes to it (approvedNotDone).
  const offered = offerIn(a.lastMessage);
  const notes = [
    newPrompts.length > 0 ? `then: ${newPrompts.map((p) => clip(p, 100)).join(' / ')}` : '',
    a.compacted ? 'context was compacted' : '',
    a.subagents.length > 0
      ? `subagents used: ${listed(unique(a.subagents.map((s) => clip(s.label, 40))), 3)}`
      : '',
    a.otherTools.length > 0 ? `tools: ${listed(a.otherTools, 4)}` : '',
    // What the reply offered to do: a yes in the next turn approves it (see approvedNotDone).
    offered !== '' ? `offered: ${offered}` : '',
  ]
    .filter(Boolean)
    .join('; ');

  return {
    request,
    investigated: append(prev?.investigated, investigated),
    learned: append(prev?.learned, learned),
    completed: completedWithState(prev?.completed ?? '', completed, a),
    nextSteps: nextSteps(prev?.nextSteps ?? '', a, relayed, prev?.notes ?? ''),
    filesRead: unique([...(prev?.filesRead ?? []), ...a.filesRead]).slice(0, MAX_FILES),
    filesEdited: filesLeft(unique([...(prev?.filesEdited ?? []), ...files]), a).slice(0, MAX_FILES),
    notes: append(prev?.notes, notes),
  };
}

/**
 * The session's edited files as the turn left them: a file removed after its last edit in the turn is
 * gone, one renamed after it is listed under its new name (an earlier turn's edits all come before).
 */
function filesLeft(files: string[], a: TurnAnalysis): string[] {
  const lastEdit = new Map<string, number>();
  for (const e of a.edits) lastEdit.set(e.path, Math.max(e.index, lastEdit.get(e.path) ?? -1));
  const changes = [
    ...a.removed.map((r) => ({ index: r.index, from: r.path, to: null as string | null })),
    ...a.moved.map((m) => ({ index: m.index, from: m.from, to: m.to as string | null })),
  ].sort((x, y) => x.index - y.index);
  let out = files;
  for (const c of changes) {
    if ((lastEdit.get(c.from) ?? -1) > c.index) continue;
    const at = out.indexOf(c.from);
    if (at < 0) {
      // A file the session had not touched, renamed: the rename is a change it made.
      if (c.to !== null && !out.includes(c.to)) out = [...out, c.to];
      continue;
    }
    // Renamed: the new name takes the old one's place (and is not listed twice).
    out = c.to === null ? out.filter((f) => f !== c.from) : unique(out.with(at, c.to));
  }
  return out;
}

/** Where the repository was left leads the field, replaced each turn (see session-state). */
function completedWithState(previous: string, now: string, a: TurnAnalysis): string {
  const state = formatState(nextState(parseState(previous), a));
  const before = disputed(withState(previous, ''), a);
  const rest = append(before, now, Math.max(200, MAX_FIELD - state.length - 3));
  return withState(rest, state);
}

/**
 * What the turn before reported, as the user's next words left it: when the user opens the turn saying
 * the result does not hold ("it's not working", "still fails"), that report keeps the user's words
 * beside it — it is no longer simply completed.
 */
function disputed(completed: string, a: TurnAnalysis): string {
  const first = a.prompts[0];
  if (!first || completed === '') return completed;
  const said = userSentences(userProse(first).text).find((s) => deniesOutcome(s));
  if (!said) return completed;
  const parts = completed.split(SEGMENT);
  const last = parts.pop() ?? '';
  if (last === GAP || last.includes('(the user then: ')) return completed;
  return [...parts, `${last} (the user then: “${clip(said, 80)}”)`].join(SEGMENT);
}

/**
 * Next steps told of the moment a turn ended with nothing done (see `unanswered`, `approvedNotDone`): a
 * request stopped before any answer, a go-ahead nothing followed. (A question never answered stays
 * open until a reply answers it or a plan replaces it.)
 */
const MOMENT_ITEM = /^(?:stopped before an answer|approved, not done yet): /;
/** How a next step the host's compaction digest left pending is told: as what was pending then. */
const AT_COMPACTION = 'pending at compaction: ';
/** A prompt that carries the work on ("continue", "go on", "yes"), not a request of its own. */
const continues = (prompt: string) =>
  moodOf(prompt) === 'approval' ||
  /^\W*(?:continue|go on|keep going|carry on|resume|proceed|next|继续|繼續|続けて|계속)(?![A-Za-z])\W*$/i.test(
    prompt.trim(),
  );
/**
 * A failure listed as a next step: `fix \`npm test\` in web: …`, or, when code changed after its last
 * run and it was not run again, `re-run \`npm test\` (failed before src/a.ts changed): …`.
 */
const FAILURE_ITEM = /^(?:fix|re-run) `([^`]+)`(?: in (\S+))?(?: \([^)]*\))?:/;

/** The purpose key a listed failure (`fix \`npm test\` in web: …`) is about. */
function itemKey(item: string): string | null {
  const m = FAILURE_ITEM.exec(item);
  if (!m?.[1]) return null;
  const part = mainPart(m[1]);
  if (!part) return null;
  return m[2] ? `${part.key.replace(/@.*$/, '')}@${m[2]}` : part.key;
}

/** A ticket or task id (`spotter-gqc.6`, `gqc.6`, `PROJ-12`, `#41`). */
const TASK_ID = /#\d+\b|\b[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*[-.]\d+[a-z]?\b/g;
const idsOf = (text: string) => (text.match(TASK_ID) ?? []).map((id) => id.toLowerCase());
/** Tickets the turn closed in the tracker (`bd close spotter-0zw.1`, `gh issue close 41`), in order. */
const closedTickets = (a: TurnAnalysis): string[] =>
  unique(
    a.commands
      .flatMap((c) => c.parts)
      .filter((p) => p.outcome === 'passed')
      .flatMap((p) => ticketsClosed(p.raw)),
  );

const sameId = (a: string, b: string) => a === b || a.endsWith(`-${b}`) || b.endsWith(`-${a}`);

/**
 * Whether the turn's own work did an open item: a commit (or a finished todo) names the ticket the
 * item is about, or, for an item that names none, says the same thing (three words in common). Used
 * for items that were stated before the work (a compaction digest's pending tasks, earlier next steps).
 */
function doneInTurn(a: TurnAnalysis, state: PurposeState): (item: string) => boolean {
  const done = [
    ...a.commits.map((c) => [c.message, ...(c.body ?? [])].join(' ')),
    ...(a.todos ?? []).filter((t) => t.status === 'completed').map((t) => t.content),
  ];
  // Tickets the turn closed in the tracker (`bd close spotter-4te.4`): done, and a closed epic's
  // sub-tasks with it (`spotter-4te` closes `spotter-4te.3`).
  const closed = closedTickets(a).map((id) => id.toLowerCase());
  // The commands that worked: an item that lists steps to run (`git add, bd sync, git commit, git
  // push`) is done once they ran.
  const ran = a.commands
    .flatMap((c) => c.parts)
    .filter((p) => p.outcome === 'passed')
    .map((p) => p.canonical);
  // An item about files the turn went on to edit, with every check passing at its end, was worked
  // through ("Fix the two errors in transcript_components.ex").
  const settled = state.open.length === 0 && state.passed.length > 0;
  const edited = new Set(a.edits.map((e) => baseName(e.path)));
  if (done.length === 0 && closed.length === 0 && ran.length === 0 && !settled) return () => false;
  const doneIds = done.flatMap(idsOf);
  return (item) => {
    const subject = idsOf(item)[0];
    if (subject !== undefined)
      return (
        doneIds.some((id) => sameId(id, subject)) ||
        closed.some((id) => sameId(id, subject) || subject.startsWith(`${id}.`))
      );
    const files = (item.match(/[\w.-]+\.[a-z]{1,5}\b/g) ?? []).filter((f) =>
      /[a-z]/.test(f.split('.').pop() ?? ''),
    );
    if (settled && files.length > 0 && files.every((f) => edited.has(baseName(f)))) return true;
    return done.some((d) => sharedScore(item, d) >= 3) || sharedScore(item, ran.join('\n')) >= 3;
  };
}

const baseName = (p: string) => p.split('/').pop() ?? p;

/**
 * Next steps as they stand after the turn: the open todo items, what the assistant said comes next,
 * and the failures still open — a purpose whose latest run fails, never one that passed since and
 * never a probe. A failure listed earlier stays until a run of its purpose passes; other earlier items
 * stay until the turn brings a task list or next steps of its own.
 */
function nextSteps(previous: string, a: TurnAnalysis, relayed: boolean, previousNotes: string): string {
  const openTodos = (a.todos ?? []).filter((t) => t.status !== 'completed').map((t) => t.content);
  // What the host's compaction digest left open (its pending tasks, its next step) counts as stated.
  // Items stated before the turn's work (the digest is written before the turn goes on) are open only
  // while the turn's commits and finished todos have not done them.
  const state = purposeState(a.commands);
  const done = doneInTurn(a, state);
  const stated = [
    ...(relayed ? [] : statedNextSteps(a.lastMessage)),
    ...(a.compactSummary
      ? digestOpenItems(a.compactSummary)
          .filter((item) => !done(item))
          .map((item) => `${AT_COMPACTION}${item}`)
      : []),
  ];
  const passed = new Set(state.passed.filter((p) => p.target === '').map((p) => p.key));
  const open = new Set(state.open.map((o) => o.key));
  const failures = state.open.map((o) => {
    const last = o.runs[o.runs.length - 1];
    const dir = last?.dir ? ` in ${last.dir}` : '';
    const command = `\`${clip(last?.canonical ?? o.key, 60)}\`${dir}`;
    const error = shortError(last?.message || 'failed', 90);
    // Changed after its last run and not run again: whether it still fails is not known.
    const changed = last ? editedAfter(a.edits, last.index) : [];
    return changed.length > 0
      ? `re-run ${command} (failed before ${listed(changed, 2)} changed): ${error}`
      : `fix ${command}: ${error}`;
  });
  // A failure carried from an earlier turn, and code changed in this one without running it again.
  const changedNow = editedAfter(a.edits, -1).length > 0;
  const rerun = (item: string) =>
    changedNow
      ? item.replace(/^fix (`[^`]+`(?: in \S+)?):/, 're-run $1 (failed before later changes):')
      : item;
  const fresh = a.todos !== null || stated.length > 0;
  const replied = a.lastMessage.trim() !== '' || a.narration.length > 0 || a.toolCount > 0;
  const carried = previous
    .split('; ')
    .map((item) => item.trim())
    .filter((item) => {
      if (item === '') return false;
      const key = itemKey(item);
      if (key !== null || FAILURE_ITEM.test(item))
        return key === null ? false : !passed.has(key) && !open.has(key);
      // What the digest left pending held when it was written: a new request from the user since
      // sets the work (a go-ahead or "continue" carries it on).
      if (item.startsWith(AT_COMPACTION) && !a.prompts.every(continues)) return false;
      // A request left with nothing done is told of that moment: once a later turn had a reply or did
      // something, the user moved the work on (asked again, retried, or asked for something else).
      if (MOMENT_ITEM.test(item) && replied) return false;
      return !fresh && !done(item);
    });
  // A plan the reply made for a case ("if it still fails: …") stands while a failure is still open.
  const stillOpen = failures.length > 0 || carried.some((item) => FAILURE_ITEM.test(item));
  const fallbacks = stillOpen && !relayed ? statedFallbacks(a.lastMessage) : [];
  const kept = stillOpen ? carried : carried.filter((item) => !isFallbackItem(item));
  return clip(
    unique([
      ...openTodos.slice(0, 5),
      ...stated.slice(0, 3),
      ...failures.slice(0, 3),
      ...unanswered(a),
      ...approvedNotDone(a, previousNotes),
      ...kept.map(rerun),
      ...fallbacks,
    ]).join('; '),
    MAX_FIELD,
  );
}

/**
 * What the user approved that never began: the turn is only the user's yes ("yes please") and nothing
 * came after it — no words, no tool call, no end of turn — so what the reply before it offered to do is
 * still to do.
 * The offer is the one the previous turn's notes recorded last.
 */
function approvedNotDone(a: TurnAnalysis, previousNotes: string): string[] {
  // A turn the host says ended had a reply, even when the host gave none of its words.
  if (a.stopped || a.lastMessage.trim() !== '' || a.narration.length > 0 || a.toolCount > 0) return [];
  if (a.prompts.length === 0) return [];
  if (!a.prompts.every((p) => moodOf(p) === 'approval')) return [];
  const last = previousNotes.split(SEGMENT).at(-1) ?? '';
  const offer = /(?:^|; )offered: (.+)$/.exec(last)?.[1];
  return offer ? [`approved, not done yet: “${clip(offer, 160)}”`] : [];
}

/**
 * What the user asked that the turn left without an answer: the assistant said nothing at all after
 * it (the user stopped it, or the session ended). Questions are listed as unanswered; a request the
 * turn changed nothing for (no edit, no commit) as stopped before an answer. What the user asked is
 * theirs, quoted; anything the assistant answered, even in part, is not listed.
 */
export function unanswered(a: TurnAnalysis): string[] {
  if (a.lastMessage.trim() !== '' || a.narration.length > 0) return [];
  const untouched = a.edits.length === 0 && a.commits.length === 0;
  return a.prompts
    .filter((p) => !p.trimStart().startsWith('/')) // a command for the host, not a request to the agent
    .flatMap((p) => {
      const said = userSentences(userProse(p).text).filter((s) => s.length >= 12);
      const questions = said.filter((s) => /^(?:question|confirm)$/.test(moodOf(s)));
      if (questions.length > 0) return questions.map((q) => `unanswered question: “${clip(q, 140)}”`);
      // The request itself is the prompt's first sentence.
      const first = said[0];
      return first !== undefined && untouched && /^(?:request|statement)$/.test(moodOf(first))
        ? [`stopped before an answer: “${clip(first, 140)}”`]
        : [];
    })
    .slice(0, 2);
}

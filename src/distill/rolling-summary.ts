/**
 * The session's rolling summary: the previous one merged with what this turn adds, so it describes
 * the whole session so far. Every text field stays within ~600 characters (the latest kept).
 */
import type { SummaryDraft } from '../core/model.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { statedDecision } from './classify-request.ts';
import { digestOpenItems } from './compact-summary.ts';
import { shortError } from './gotchas.ts';
import { isStep, outcomeSentence, statedNextSteps } from './narration.ts';
import { clip, informativeSentence, isTrivialPrompt, unique, withoutFiller } from './text.ts';
import { dependencyFacts, isSetupError, modifiedFiles, significantErrors } from './turn-observations.ts';

const MAX_FIELD = 600;
const MAX_FILES = 30;

const listed = (items: readonly string[], max: number) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} (+${items.length - max} more)`;

/**
 * Earlier text first, newest last. When too long, the earlier text is shortened at its end: the
 * session's beginning (what it set out to do) and its latest turn are what a reader needs most.
 */
function append(before: string | undefined, now: string): string {
  const latest = clip(now, MAX_FIELD / 2);
  const earlier = (before ?? '').trim();
  if (earlier === '') return latest;
  if (latest === '' || earlier.endsWith(latest)) return earlier;
  const text = `${earlier} | ${latest}`;
  return text.length <= MAX_FIELD ? text : `${clip(earlier, MAX_FIELD - latest.length - 3)} | ${latest}`;
}

const nonAnswer = (m: string) => m.length < 40 || /^(?:let me|i'll|i will|now i'll|now let me)\b/i.test(m);

/** "tests pass (87 passed)", "build passes": the checks whose last run passed. */
function passingChecks(a: TurnAnalysis): string[] {
  const last = new Map<string, { ok: boolean; detail: string }>();
  for (const c of a.commands) {
    if (c.kind === 'test' || c.kind === 'build' || c.kind === 'lint' || c.kind === 'typecheck')
      last.set(c.kind, { ok: c.ok, detail: c.detail });
  }
  return [...last]
    .filter(([, r]) => r.ok)
    .map(([kind, r]) =>
      kind === 'test' ? `tests pass${r.detail ? ` (${r.detail})` : ''}` : `${kind} passes`,
    );
}

export function mergeSummary(prev: SummaryDraft | null, a: TurnAnalysis): SummaryDraft | null {
  const files = modifiedFiles(a);
  const hasContent =
    a.prompts.length > 0 || files.length > 0 || a.lastMessage !== '' || a.toolCount > 0 || a.compacted;
  if (!hasContent) return prev && a.sessionEnded ? prev : null;

  const firstPrompt = a.prompts.find((p) => !isTrivialPrompt(p)) ?? a.prompts[0] ?? '';
  const request = prev?.request || clip(firstPrompt, 300);
  const newPrompts = a.prompts.filter((p) => !isTrivialPrompt(p) && clip(p, 300) !== request);

  const investigated = [
    a.filesRead.length > 0 ? `read ${listed(a.filesRead, 6)}` : '',
    a.searches.length > 0 ? listed(unique(a.searches), 3) : '',
  ]
    .filter(Boolean)
    .join('; ');

  const errors = significantErrors(a);
  const decision = statedDecision(a.lastMessage);
  const learned = [
    ...a.subagents.map(
      (s) => `${clip(s.label || s.agentType || 'subagent', 60)}: ${informativeSentence(s.findings, 160)}`,
    ),
    ...errors
      .filter((e) => e.fixed && isSetupError(e.message))
      .map((e) => `\`${clip(canonicalOf(e), 40)}\` failed: ${shortError(e.message, 100)} (resolved)`),
    decision !== '' && !isStep(decision) ? `decided: ${clip(decision, 160)}` : '',
  ]
    .filter(Boolean)
    .join('; ');

  const done = [
    ...a.commits.slice(0, 3).map((c) => `committed "${clip(c.message, 80)}"`),
    a.commits.length > 3 ? `${a.commits.length - 3} more commits` : '',
    files.length > 0 ? `changed ${listed(files, 5)}` : '',
    ...passingChecks(a),
    ...dependencyFacts(a),
    a.pushed ? 'pushed' : '',
  ].filter(Boolean);
  const said = outcomeSentence([a.lastMessage]);
  const answer =
    said !== '' ? clip(said, 160) : nonAnswer(a.lastMessage) ? '' : clip(withoutFiller(a.lastMessage), 160);
  const completed = [clip(done.join('; '), 260), answer].filter(Boolean).join('. ');

  const notes = [
    newPrompts.length > 0 ? `then: ${newPrompts.map((p) => clip(p, 100)).join(' / ')}` : '',
    a.compacted ? 'context was compacted' : '',
    a.subagents.length > 0
      ? `subagents used: ${listed(unique(a.subagents.map((s) => clip(s.label, 40))), 3)}`
      : '',
    a.otherTools.length > 0 ? `tools: ${listed(a.otherTools, 4)}` : '',
  ]
    .filter(Boolean)
    .join('; ');

  return {
    request,
    investigated: append(prev?.investigated, investigated),
    learned: append(prev?.learned, learned),
    completed: append(prev?.completed, completed),
    nextSteps: nextSteps(prev?.nextSteps ?? '', a),
    filesRead: unique([...(prev?.filesRead ?? []), ...a.filesRead]).slice(0, MAX_FILES),
    filesEdited: unique([...(prev?.filesEdited ?? []), ...files]).slice(0, MAX_FILES),
    notes: append(prev?.notes, notes),
  };
}

const canonicalOf = (e: { key: string; what: string }) =>
  e.key.startsWith('cmd:') ? e.key.slice(4) : e.what;
const FAILURE_ITEM = /^fix `([^`]+)`:/;

/**
 * Next steps as they stand after the turn: the open todo items, what the assistant said comes next,
 * and the failures still open — never one that was resolved. A failure listed earlier stays until its
 * command works; other earlier items stay until the turn brings a task list or next steps of its own.
 */
function nextSteps(previous: string, a: TurnAnalysis): string {
  const openTodos = (a.todos ?? []).filter((t) => t.status !== 'completed').map((t) => t.content);
  // What the host's compaction digest left open (its pending tasks, its next step) counts as stated.
  const stated = [...statedNextSteps(a.lastMessage), ...(a.compactSummary ? digestOpenItems(a.compactSummary) : [])];
  const worked = new Set(a.commands.filter((c) => c.ok).map((c) => c.canonical));
  const failures = significantErrors(a)
    .filter((e) => !e.fixed)
    .map((e) => `fix \`${clip(canonicalOf(e), 60)}\`: ${shortError(e.message, 90)}`);
  const fresh = a.todos !== null || stated.length > 0;
  const carried = previous
    .split('; ')
    .map((item) => item.trim())
    .filter((item) => {
      if (item === '') return false;
      const failed = FAILURE_ITEM.exec(item)?.[1];
      if (failed !== undefined) return !worked.has(failed);
      return !fresh;
    });
  return clip(
    unique([...openTodos.slice(0, 5), ...stated.slice(0, 3), ...failures.slice(0, 3), ...carried]).join('; '),
    MAX_FIELD,
  );
}

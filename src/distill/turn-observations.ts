/**
 * The observations one analysed turn yields: the request and what was done; the errors met (fixed or
 * not); a commit; subagent findings; the open task list; the compaction summary.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { TurnAnalysis, TurnError } from './analyse-turn.ts';
import { classifyTurn, statedDecision } from './classify-request.ts';
import { conceptsOf } from './concepts.ts';
import { describeFileChange } from './file-changes.ts';
import { clip, firstSentence, informativeSentence, isTrivialPrompt, unique, withoutFiller } from './text.ts';
import { todoFact } from './todo-list.ts';

const MAX_FILES = 30;
const CHECKS = new Set(['test', 'build', 'typecheck', 'lint']);

/** The prompt that says what the turn was for: the last one that is more than "ok" or "continue". */
export function requestOf(a: TurnAnalysis): string {
  return [...a.prompts].reverse().find((p) => !isTrivialPrompt(p)) ?? '';
}

export const modifiedFiles = (a: TurnAnalysis) => a.files.files().map((f) => f.path);
export const significantErrors = (a: TurnAnalysis) => a.errors.filter((e) => !(e.minor && e.fixed));
const fixedErrors = (a: TurnAnalysis) => a.errors.filter((e) => e.fixed && !e.minor);

/** "test `npm test`: passed (21 passed)" — the last outcome of each check the turn ran. */
export function checkFacts(a: TurnAnalysis): string[] {
  const last = new Map<string, string>();
  for (const c of a.commands) {
    if (!CHECKS.has(c.kind)) continue;
    const label = clip(c.command, 60);
    last.delete(label);
    last.set(
      label,
      `${c.kind} \`${label}\`: ${c.ok ? 'passed' : 'failed'}${c.detail ? ` (${clip(c.detail, 80)})` : ''}`,
    );
  }
  return [...last.values()].slice(-4);
}

export function dependencyFacts(a: TurnAnalysis): string[] {
  const d = a.dependencies;
  return [
    d.added.length > 0 ? `dependencies added: ${d.added.slice(0, 8).join(', ')}` : '',
    d.removed.length > 0 ? `dependencies removed: ${d.removed.slice(0, 8).join(', ')}` : '',
    d.updated.length > 0 ? `dependencies updated: ${d.updated.slice(0, 8).join(', ')}` : '',
  ].filter(Boolean);
}

const isCommitRequest = (p: string) =>
  /^(?:please\s+)?(?:git\s+)?(?:commit|push|ship it)\b/i.test(p) && p.length <= 80;

function mainTitle(a: TurnAnalysis, prompt: string): string {
  const commit = a.commits[a.commits.length - 1]?.message ?? '';
  if (prompt !== '' && !(commit !== '' && isCommitRequest(prompt))) return firstSentence(prompt, 80);
  if (commit !== '') return clip(commit, 80);
  const files = modifiedFiles(a);
  if (files.length > 0)
    return clip(`Edited ${files.slice(0, 3).join(', ')}${files.length > 3 ? '…' : ''}`, 80);
  if (a.lastMessage !== '') return informativeSentence(a.lastMessage, 80);
  return a.prompts[0] ? firstSentence(a.prompts[0], 80) : '';
}

const isNonAnswer = (m: string) => m.length < 40 || /^(?:let me|i'll|i will|now i'll|now let me)\b/i.test(m);

export function mainObservation(a: TurnAnalysis, maxFacts: number): ObservationDraft | null {
  const prompt = requestOf(a);
  const files = modifiedFiles(a);
  const hasWork = a.toolCount > 0 || files.length > 0;
  if (!hasWork && isNonAnswer(a.lastMessage)) return null;
  const title = mainTitle(a, prompt);
  if (title === '') return null;
  const decision = statedDecision(a.lastMessage);
  const type = classifyTurn({
    prompt,
    modified: files.length > 0,
    committed: a.commits.length > 0,
    fixedError: fixedErrors(a).length > 0,
    decision,
  });
  const others = [
    ...checkFacts(a),
    ...a.commits.map((c) => `committed: ${clip(c.message, 100)}`),
    a.pushed ? 'pushed to the remote' : '',
    ...dependencyFacts(a),
    ...fixedErrors(a).map((e) => `fixed: ${clip(e.message, 100)}`),
    decision !== '' && type !== 'decision' ? `decision: ${clip(decision, 160)}` : '',
  ].filter(Boolean);
  const kept = unique(others).slice(0, Math.max(2, Math.ceil(maxFacts / 2)));
  const fileFacts = a.files.files().map(describeFileChange);
  const room = Math.max(1, maxFacts - kept.length);
  const shownFiles =
    fileFacts.length <= room
      ? fileFacts
      : [...fileFacts.slice(0, room - 1), `… and ${fileFacts.length - room + 1} more files changed`];
  const narrative = [
    a.lastMessage !== ''
      ? clip(withoutFiller(a.lastMessage), 600)
      : a.plan !== ''
        ? `Plan: ${clip(a.plan, 590)}`
        : '',
    a.prompts.length > 1
      ? `Earlier in the turn: ${a.prompts
          .slice(0, -1)
          .map((p) => clip(p, 120))
          .join(' / ')}`
      : '',
  ].filter(Boolean);
  const subtitle = prompt !== '' && clip(prompt, 200) !== title ? clip(prompt, 200) : '';
  return {
    type,
    title,
    subtitle,
    narrative: narrative.join('\n') || clip(prompt, 600),
    facts: unique([...shownFiles, ...kept]).slice(0, maxFacts),
    concepts: conceptsOf({
      prompt: prompt || title,
      files: [...files, ...a.filesRead],
      commands: a.commands.filter((c) => c.kind !== 'inspect' && c.kind !== 'other').map((c) => c.command),
    }),
    filesRead: a.filesRead.slice(0, MAX_FILES),
    filesModified: files.slice(0, MAX_FILES),
  };
}

const errorLine = (e: TurnError) =>
  `${e.fixed ? 'fixed' : 'open'}: \`${clip(e.what, 60)}\` → ${clip(e.message, 120)}`;

export function errorObservation(a: TurnAnalysis): ObservationDraft | null {
  const errors = significantErrors(a);
  if (errors.length === 0) return null;
  const open = errors.filter((e) => !e.fixed);
  const openReal = open.filter((e) => !e.minor);
  const first = openReal[0] ?? open[0] ?? errors[0];
  if (!first) return null;
  const files = modifiedFiles(a);
  const fixedCount = errors.length - open.length;
  const title =
    open.length > 0
      ? clip(`Failed: \`${clip(first.what, 30)}\` — ${first.message}`, 80)
      : `Fixed error: ${clip(first.message, 66)}`;
  // A failure still open at the end of the turn is a dead end: recorded as what was tried and how it
  // failed, so the next session does not repeat it blindly.
  const narrative =
    open.length > 0
      ? `Tried and failed: ${open.map((e) => `\`${clip(e.what, 60)}\` (${clip(e.message, 100)})`).join('; ')}. Still failing at the end of the turn${fixedCount > 0 ? `; ${fixedCount} other error(s) were fixed` : ''}.`
      : `${errors.length} error(s) met and fixed in this turn: ${errors
          .map((e) => `\`${clip(e.what, 60)}\` (${clip(e.message, 100)})`)
          .join(
            '; ',
          )}.${files.length > 0 ? ` Fixed by changing ${files.slice(0, 3).join(', ')}${files.length > 3 ? '…' : ''}; the same command then succeeded.` : ' The same command then succeeded.'}`;
  const errorNames = unique(
    errors.flatMap((e) => [...(/\b(\w*(?:Error|Exception))\b/.exec(e.message)?.slice(1, 2) ?? [])]),
  );
  return {
    type: openReal.length > 0 ? 'failed_attempt' : 'error',
    title,
    subtitle: open.length > 0 && fixedCount > 0 ? `${fixedCount} other error(s) fixed in the same turn` : '',
    narrative: clip(narrative, 800),
    facts: unique(errors.map(errorLine)).slice(0, 8),
    concepts: conceptsOf({
      prompt: '',
      files: [],
      commands: errors.map((e) => e.what),
      extra: [...(openReal.length > 0 ? ['failed attempt'] : []), 'error', ...errorNames],
    }),
    filesRead: [],
    filesModified: files.slice(0, 10),
  };
}

export function commitObservation(a: TurnAnalysis, mainTitleText: string): ObservationDraft | null {
  const first = a.commits[0];
  if (!first) return null;
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const title = clip(first.message, 80);
  if (norm(mainTitleText) === norm(title) || norm(mainTitleText).includes(norm(first.message))) return null;
  const files = modifiedFiles(a);
  const facts = [
    ...a.commits.map((c) => `committed: ${clip(c.message, 100)}${c.hash ? ` (${c.hash})` : ''}`),
    ...a.files.files().slice(0, 6).map(describeFileChange),
    a.pushed ? 'pushed to the remote' : '',
  ].filter(Boolean);
  const where = first.hash ? ` (${first.hash}${first.branch ? ` on ${first.branch}` : ''})` : '';
  return {
    type: 'change',
    title,
    subtitle: a.commits.length > 1 ? `${a.commits.length} commits` : '',
    narrative: `Committed "${clip(first.message, 200)}"${where}${files.length > 0 ? ` with changes to ${files.slice(0, 5).join(', ')}${files.length > 5 ? '…' : ''}` : ''}.`,
    facts: unique(facts).slice(0, 10),
    concepts: conceptsOf({ prompt: first.message, files, commands: ['git'] }),
    filesRead: [],
    filesModified: files.slice(0, MAX_FILES),
  };
}

export function subagentObservations(a: TurnAnalysis): ObservationDraft[] {
  return a.subagents.slice(0, 3).map((s) => {
    const described = s.label !== '' && s.label !== s.agentType;
    const title = described
      ? clip(s.label.charAt(0).toUpperCase() + s.label.slice(1), 80)
      : clip(`${s.agentType || 'Subagent'}: ${informativeSentence(s.findings, 70)}`, 80);
    const bullets = s.findings
      .split('\n')
      .map((l) => /^\s*(?:[-*•]|\d+[.)])\s+(.{8,})$/.exec(l)?.[1] ?? '')
      .filter((l) => l !== '' && !/:\**$/.test(l.trim()))
      .slice(0, 5)
      .map((l) => clip(l.replace(/\*\*/g, ''), 140));
    return {
      type: 'discovery' as const,
      title,
      subtitle: s.agentType ? `${s.agentType} subagent` : 'subagent',
      narrative: clip(s.findings, 800),
      facts: bullets,
      concepts: conceptsOf({ prompt: s.label, files: [], commands: [], extra: ['subagent', s.agentType] }),
      filesRead: [],
      filesModified: [],
    };
  });
}

export function todoObservation(a: TurnAnalysis): ObservationDraft | null {
  const todos = a.todos ?? [];
  const open = todos.filter((t) => t.status !== 'completed');
  if (open.length === 0) return null;
  const current = open.find((t) => t.status === 'in_progress') ?? open[0];
  return {
    type: 'task',
    title: clip(`Open tasks (${open.length} of ${todos.length}): ${current?.content ?? ''}`, 80),
    subtitle: '',
    narrative: `Task list at the end of the turn: ${todos.length - open.length} done, ${open.length} open.`,
    facts: todos.map(todoFact).slice(0, 15),
    concepts: conceptsOf({ prompt: requestOf(a), files: [], commands: [], extra: ['todo'] }),
    filesRead: [],
    filesModified: [],
  };
}

export function compactObservation(a: TurnAnalysis): ObservationDraft | null {
  if (a.compactSummary === '') return null;
  return {
    type: 'discovery',
    title: 'Compacted context summary',
    subtitle: '',
    narrative: clip(a.compactSummary, 1000),
    facts: [],
    concepts: ['compaction'],
    filesRead: [],
    filesModified: [],
  };
}

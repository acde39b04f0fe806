/**
 * The lines a context hook injects, shared by the SessionStart index (session-context.ts) and prompt
 * recall (render-context.ts): a memory's index line, a summary's block, a teammate's state, the budget
 * they are added under.
 */
import type { StaleMark } from '../core/graph.ts';
import type { DroppedLine, Observation, Summary } from '../core/model.ts';
import type { TrustClass } from '../core/trust.ts';
import type { InjectedItem } from '../store/context-log-repo.ts';
import type { MemberStateRow } from '../store/team-notes-repo.ts';
import { formatAge } from './format-age.ts';
import { SOURCE_LABELS } from './injection-gate.ts';
import type { TeamNote } from './team-notes.ts';

/** What a memory's index line shows of it. */
export type IndexedMemory = Pick<
  Observation,
  | 'id'
  | 'projectId'
  | 'type'
  | 'status'
  | 'title'
  | 'subject'
  | 'filesModified'
  | 'filesRead'
  | 'createdAt'
  | 'trust'
  | 'tokens'
>;

/** Claude Code caps a hook's output string at 10,000 characters; keep a margin for the JSON wrapper. */
export const HOST_CONTEXT_CHAR_CAP = 9_500;

/** Stale memories among some ids: since when, and why. */
export type StaleLookup = (ids: readonly string[]) => ReadonlyMap<string, StaleMark>;

export interface RenderedContext {
  text: string;
  tokens: number;
  observationIds: string[];
  /** Each memory injected, in order, with its line's token cost and (prompt recall) its score. */
  items: InjectedItem[];
  /** Lines the injection gate kept out, and why. */
  dropped: DroppedLine[];
}

export const nothing = (dropped: DroppedLine[] = []): RenderedContext => ({
  text: '',
  tokens: 0,
  observationIds: [],
  items: [],
  dropped,
});

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function filesOf(o: Pick<Observation, 'filesModified' | 'filesRead'>): string {
  const files = [...new Set([...o.filesModified, ...o.filesRead])];
  if (files.length === 0) return '';
  const shown = files.slice(0, 2).join(', ');
  return files.length > 2 ? `${shown} +${files.length - 2}` : shown;
}

/**
 * How much of a title an index line shows: 90 characters, or a commands card's whole title (it stands
 * for a line per purpose, and its title fits whole entries in `CARD_TITLE_MAX` of
 * `distill/commands-card.ts`, which recall may not import).
 */
const titleMax = (o: Pick<IndexedMemory, 'subject'>) =>
  (o.subject ?? '').startsWith('commands:') ? 160 : 90;

/**
 * One index line: id, type (and status when not active), title, files, age, token cost of the details;
 * with `projectName`, the project's name too (searches over every project; its id when unnamed).
 */
export function indexLine(
  o: IndexedMemory,
  now: number,
  options: {
    projectName?: string | undefined;
    showProject?: boolean;
    stale?: StaleMark | undefined;
    team?: TeamNote | undefined;
  } = {},
): string {
  const files = filesOf(o);
  const status = o.status === 'active' ? '' : ` (${o.status})`;
  const project =
    options.showProject || options.projectName !== undefined
      ? ` · ${options.projectName ?? o.projectId}`
      : '';
  const stale = options.stale ? ` · ${staleNote(options.stale)}` : '';
  const age = formatAge(now - o.createdAt);
  // Where it came from: a teammate by name, else the trust of its evidence (you, repo, tool, external).
  const when = options.team?.author
    ? `from ${options.team.author}, ${age}`
    : `${age} · ${SOURCE_LABELS[o.trust]}`;
  const conflicts = options.team?.conflicts.length
    ? ` · conflicts with ${options.team.conflicts.slice(0, 2).join(', ')}`
    : '';
  return `- ${o.id} [${o.type}]${status} ${oneLine(o.title, titleMax(o))}${files ? ` · ${files}` : ''} · ${when}${conflicts}${project}${stale} · ~${o.tokens}t`;
}

/** "stale since 2026-11-20 (src/a.ts changed)": a stale memory is never shown as current. */
export function staleNote(mark: StaleMark): string {
  return `stale since ${new Date(mark.since).toISOString().slice(0, 10)}${mark.reason ? ` (${oneLine(mark.reason, 80)})` : ''}`;
}

/** "alice on laptop-2, 1d ago: branch feat/x at a1b2c3d, 4 files (src/a.ts, src/b.ts, …)". */
export function memberStateLine(s: MemberStateRow, now: number): string {
  const at = s.commit ? ` at ${s.commit}` : '';
  const where = s.branch ? `branch ${s.branch}${at}` : s.commit ? `commit ${s.commit}` : 'no branch';
  const files =
    s.fileCount === 0
      ? 'no changed files'
      : `${s.fileCount} changed file${s.fileCount === 1 ? '' : 's'} (${s.files.slice(0, 3).join(', ')}${s.fileCount > 3 ? ', …' : ''})`;
  return `- ${s.user} on ${s.device}, ${formatAge(now - s.at)}: ${where}, ${files}`;
}

/** A summary's lines, each with the trust of what it retells (the request is the user's words). */
export function summaryBlock(
  heading: string,
  s: Summary,
  now: number,
): { line: string; trust: TrustClass }[] {
  const lines: { line: string; trust: TrustClass }[] = [
    { line: `${heading} (${formatAge(now - s.updatedAt)}${s.final ? '' : ', in progress'}):`, trust: 'user' },
  ];
  const add = (label: string, value: string, max: number, trust: TrustClass = 'tool') => {
    if (value.trim() !== '') lines.push({ line: `  ${label}: ${oneLine(value, max)}`, trust });
  };
  add('Request', s.request, 200, 'user');
  // The rolling summary leads its "completed" text with where the repository was left.
  const [first = '', ...rest] = s.completed.split(' | ');
  const state = first.startsWith('State: ') ? first.slice('State: '.length) : '';
  add('State', state, 300);
  add('Completed', state ? rest.join(' | ') : s.completed, 300);
  add('Learned', s.learned, 240);
  add('Next steps', s.nextSteps, 200);
  if (s.filesEdited.length > 0) add('Files edited', s.filesEdited.slice(0, 8).join(', '), 240);
  return lines;
}

/** "  - 3d ago: <request> (State: …)" for a session before the last one; '' when it says nothing. */
export function earlierSessionLine(s: Summary, now: number): string {
  const first = s.completed.split(' | ')[0] ?? '';
  const state = first.startsWith('State: ') ? first.slice('State: '.length) : '';
  if (s.request.trim() === '' && state === '') return '';
  return `  - ${formatAge(now - s.updatedAt)}: ${oneLine(s.request, 120)}${state ? ` (${oneLine(state, 160)})` : ''}`;
}

/** Adds lines while they fit the budget; returns false once one did not fit. */
export function createBudget(budgetTokens: number) {
  const maxChars = Math.min(HOST_CONTEXT_CHAR_CAP, budgetTokens * 4);
  const lines: string[] = [];
  let chars = 0;
  return {
    lines,
    max: maxChars,
    used: () => chars,
    tryAdd(line: string): boolean {
      if (chars + line.length + 1 > maxChars) return false;
      lines.push(line);
      chars += line.length + 1;
      return true;
    },
    fits(extra: number): boolean {
      return chars + extra <= maxChars;
    },
  };
}

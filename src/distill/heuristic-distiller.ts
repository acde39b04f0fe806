/**
 * The default distiller: local, deterministic, no LLM and no network. One turn's events become a few
 * typed observations (the request and what was done; errors and fixes; subagent findings; open tasks;
 * a compaction summary) and an updated rolling summary of the session.
 */
import type { ObservationDraft, ObservationType, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { analyseTurn, type TurnAnalysis } from './analyse-turn.ts';
import { clip, firstSentence, unique } from './text.ts';

export interface TurnInput {
  /** Absolute project root, to make file paths relative. */
  projectRoot: string;
  /** One turn of one session, in order. */
  events: QueuedEvent[];
  /** The session's summary so far. */
  previousSummary: SummaryDraft | null;
}

export interface TurnResult {
  observations: ObservationDraft[];
  summary: SummaryDraft | null;
}

export interface Distiller {
  distilTurn(input: TurnInput): TurnResult;
}

const BUGFIX =
  /\b(fix(?:e[sd])?|bug|broken|crash(?:es|ing)?|fail(?:s|ing|ure)?|error|regression|wrong|doesn'?t work|not working|issue)\b/i;
const REFACTOR =
  /\b(refactor\w*|rename\w*|extract\w*|clean(?:\s|-)?up|simplif\w*|restructur\w*|reorganis\w*|reorganiz\w*|move\s+\w+\s+to|split\s+\w+)\b/i;
const FEATURE =
  /\b(add\w*|implement\w*|create\w*|support\w*|introduce\w*|build\w*|new|enable\w*|allow\w*|write\w*)\b/i;
const DECISION =
  /\b(decided to|going with|chose\b|opted (?:for|to)|instead of|rather than|settled on|we(?:'ll| will) use)\b/i;

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  rb: 'ruby',
  php: 'php',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  swift: 'swift',
  sql: 'sql',
  md: 'docs',
  css: 'css',
  html: 'html',
  sh: 'shell',
};
const CONCEPT_STOP = new Set([
  'please',
  'should',
  'would',
  'could',
  'there',
  'their',
  'about',
  'which',
  'where',
  'these',
  'those',
  'thing',
  'make',
  'want',
  'need',
  'instead',
  'using',
  'when',
  'what',
  'with',
  'from',
  'into',
  'that',
  'this',
  'then',
  'than',
  'also',
  'just',
  'file',
  'files',
  'code',
]);

function concepts(a: TurnAnalysis, files: string[]): string[] {
  const out: string[] = [];
  const text = a.prompts.join(' ').toLowerCase();
  for (const m of text.matchAll(/[a-z][a-z0-9_-]{3,}/g)) {
    if (!CONCEPT_STOP.has(m[0]) && !out.includes(m[0])) out.push(m[0]);
    if (out.length >= 4) break;
  }
  for (const f of files) {
    const ext = /\.([a-z0-9]+)$/i.exec(f)?.[1]?.toLowerCase();
    const lang = ext ? LANGUAGES[ext] : undefined;
    if (lang && !out.includes(lang)) out.push(lang);
    const stem = /([^/]+?)(?:\.[^./]+)?$/.exec(f)?.[1]?.toLowerCase();
    if (stem && stem.length >= 3 && !out.includes(stem) && stem !== 'index') out.push(stem);
  }
  return out.slice(0, 8);
}

function commandFacts(a: TurnAnalysis): string[] {
  // The last outcome of each command that matters.
  const last = new Map<string, string>();
  for (const c of a.commands) {
    if (c.kind === 'other' || c.kind === 'commit' || c.kind === 'install') continue;
    const label = clip(c.command, 60);
    last.set(
      label,
      `${c.kind} \`${label}\`: ${c.ok ? 'passed' : 'failed'}${c.detail ? ` (${c.detail})` : ''}`,
    );
  }
  return [...last.values()];
}

function mainType(a: TurnAnalysis, prompt: string): ObservationType {
  const modified = a.modified.size > 0;
  if (a.errors.some((e) => e.fixed) && modified) return 'bugfix';
  if (BUGFIX.test(prompt) && modified) return 'bugfix';
  if (REFACTOR.test(prompt) && modified) return 'refactor';
  if (FEATURE.test(prompt) && (a.created.size > 0 || modified)) return 'feature';
  if (modified || a.commits.length > 0) return 'change';
  if (DECISION.test(a.lastMessage)) return 'decision';
  return 'discovery';
}

function mainTitle(a: TurnAnalysis, prompt: string): string {
  if (prompt !== '') return firstSentence(prompt, 80);
  if (a.commits[0]) return clip(a.commits[0], 80);
  const files = [...a.modified.keys()];
  if (files.length > 0) return clip(`Edited ${files.slice(0, 3).join(', ')}`, 80);
  if (a.lastMessage !== '') return firstSentence(a.lastMessage, 80);
  return '';
}

function mainObservation(a: TurnAnalysis, maxFacts: number): ObservationDraft | null {
  const prompt = a.prompts[a.prompts.length - 1] ?? '';
  const title = mainTitle(a, prompt);
  const filesModified = [...a.modified.keys()];
  if (
    title === '' ||
    (prompt === '' && filesModified.length === 0 && a.commands.length === 0 && a.lastMessage === '')
  )
    return null;
  const facts: string[] = [];
  for (const [file, changes] of a.modified)
    facts.push(changes.length > 0 ? `${file}: ${changes.slice(0, 3).join('; ')}` : `${file}: edited`);
  facts.push(...commandFacts(a));
  for (const msg of a.commits) facts.push(`committed: ${clip(msg, 100)}`);
  if (a.dependencies.length > 0) facts.push(`dependencies added: ${unique(a.dependencies).join(', ')}`);
  for (const e of a.errors.filter((x) => x.fixed)) facts.push(`fixed: ${clip(e.message, 100)}`);
  const type = mainType(a, prompt);
  const narrativeParts = [a.lastMessage !== '' ? clip(a.lastMessage, 600) : ''];
  if (a.prompts.length > 1)
    narrativeParts.push(
      `Earlier in the turn: ${a.prompts
        .slice(0, -1)
        .map((p) => clip(p, 120))
        .join(' / ')}`,
    );
  const subtitle = prompt !== '' && prompt.length > title.length ? clip(prompt, 200) : '';
  return {
    type,
    title,
    subtitle,
    narrative: narrativeParts.filter(Boolean).join('\n') || (prompt !== '' ? clip(prompt, 600) : ''),
    facts: unique(facts).slice(0, maxFacts),
    concepts: concepts(a, [...filesModified, ...a.filesRead]),
    filesRead: a.filesRead.slice(0, 30),
    filesModified: filesModified.slice(0, 30),
  };
}

function errorObservation(a: TurnAnalysis): ObservationDraft | null {
  if (a.errors.length === 0) return null;
  const open = a.errors.filter((e) => !e.fixed);
  const first = open[0] ?? a.errors[0];
  if (!first) return null;
  const title =
    open.length > 0
      ? `Failed: \`${clip(first.what, 30)}\` — ${clip(first.message, 50)}`
      : `Fixed error: ${clip(first.message, 66)}`;
  const files = [...a.modified.keys()];
  const facts = a.errors.map(
    (e) => `${e.fixed ? 'fixed' : 'open'}: \`${clip(e.what, 60)}\` → ${clip(e.message, 120)}`,
  );
  // A failure still open at the end of the turn is a dead end: recorded as what was tried and how it
  // failed (never as a fact), so the next session does not repeat it blindly.
  const narrative =
    open.length > 0
      ? `Tried and failed: ${open.map((e) => `\`${clip(e.what, 60)}\` (${clip(e.message, 100)})`).join('; ')}. Still failing at the end of the turn${a.errors.length > open.length ? `; ${a.errors.length - open.length} other error(s) were fixed` : ''}.`
      : `${a.errors.length} error(s) met and resolved in this turn${files.length > 0 ? ` by changing ${files.slice(0, 3).join(', ')}` : ''}.`;
  return {
    type: open.length > 0 ? 'failed_attempt' : 'error',
    title,
    subtitle: '',
    narrative,
    facts: unique(facts).slice(0, 8),
    concepts: open.length > 0 ? ['failed attempt', 'error'] : ['error'],
    filesRead: [],
    filesModified: files.slice(0, 10),
  };
}

function subagentObservations(a: TurnAnalysis): ObservationDraft[] {
  return a.subagents.slice(0, 3).map((s) => ({
    type: 'discovery' as const,
    title: clip(`Subagent finding (${s.label}): ${firstSentence(s.findings, 60)}`, 80),
    subtitle: '',
    narrative: clip(s.findings, 800),
    facts: [],
    concepts: ['subagent'],
    filesRead: [],
    filesModified: [],
  }));
}

function todoObservation(a: TurnAnalysis): ObservationDraft | null {
  if (!a.todos || a.todos.length === 0) return null;
  const open = a.todos.filter((t) => t.status !== 'completed');
  if (open.length === 0) return null;
  return {
    type: 'task',
    title: clip(`Open tasks (${open.length} of ${a.todos.length}): ${open[0]?.content ?? ''}`, 80),
    subtitle: '',
    narrative: '',
    facts: a.todos
      .map(
        (t) =>
          `${t.status === 'completed' ? '[x]' : t.status === 'in_progress' ? '[~]' : '[ ]'} ${t.content}`,
      )
      .slice(0, 15),
    concepts: ['todo'],
    filesRead: [],
    filesModified: [],
  };
}

function compactObservation(a: TurnAnalysis): ObservationDraft | null {
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

const MAX_FILES = 30;

function mergeSummary(prev: SummaryDraft | null, a: TurnAnalysis): SummaryDraft | null {
  const hasContent =
    a.prompts.length > 0 ||
    a.modified.size > 0 ||
    a.lastMessage !== '' ||
    a.toolCount > 0 ||
    a.compactSummary !== '';
  if (!hasContent) return prev && a.sessionEnded ? prev : null;
  const request = prev?.request || clip(a.prompts[0] ?? '', 300);
  const newPrompts = a.prompts.filter((p) => clip(p, 300) !== request);
  const investigatedNow = [
    a.filesRead.length > 0 ? `read ${a.filesRead.slice(0, 6).join(', ')}` : '',
    a.searches.length > 0 ? a.searches.slice(0, 3).join('; ') : '',
  ]
    .filter(Boolean)
    .join('; ');
  const learnedNow = [
    ...a.subagents.map((s) => firstSentence(s.findings, 160)),
    ...a.errors.filter((e) => e.fixed).map((e) => `fixed: ${clip(e.message, 120)}`),
  ].join('; ');
  const done = [
    a.modified.size > 0 ? `changed ${[...a.modified.keys()].slice(0, 6).join(', ')}` : '',
    ...a.commits.map((c) => `committed "${clip(c, 80)}"`),
    ...commandFacts(a).filter((f) => f.includes(': passed')),
  ].filter(Boolean);
  const completedNow = [done.join('; '), a.lastMessage !== '' ? clip(a.lastMessage, 300) : '']
    .filter(Boolean)
    .join('. ');
  const openTodos = (a.todos ?? []).filter((t) => t.status !== 'completed').map((t) => t.content);
  const openErrors = a.errors.filter((e) => !e.fixed).map((e) => `resolve: ${clip(e.message, 100)}`);
  const nextNow = [...openTodos.slice(0, 5), ...openErrors.slice(0, 3)].join('; ');
  const join = (before: string | undefined, now: string, max: number) => {
    const parts = [before ?? '', now].filter((s) => s.trim() !== '');
    const text = parts.join(' | ');
    return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
  };
  const notes = [
    newPrompts.length > 0 ? `then: ${newPrompts.map((p) => clip(p, 100)).join(' / ')}` : '',
    a.compactSummary !== '' ? 'context was compacted' : '',
    a.subagents.length > 0 ? `${a.subagents.length} subagent(s) used` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    request,
    investigated: join(prev?.investigated, investigatedNow, 600),
    learned: join(prev?.learned, learnedNow, 600),
    completed: join(prev?.completed, completedNow, 600),
    // Next steps describe the state now: the latest turn's open items replace older ones when present.
    nextSteps: clip(nextNow !== '' ? nextNow : a.todos ? '' : (prev?.nextSteps ?? ''), 600),
    filesRead: unique([...(prev?.filesRead ?? []), ...a.filesRead]).slice(0, MAX_FILES),
    filesEdited: unique([...(prev?.filesEdited ?? []), ...a.modified.keys()]).slice(0, MAX_FILES),
    notes: join(prev?.notes, notes, 600),
  };
}

export function createHeuristicDistiller(options: { maxFacts?: number } = {}): Distiller {
  const maxFacts = options.maxFacts ?? 12;
  return {
    distilTurn(input: TurnInput): TurnResult {
      const a = analyseTurn(input.events, input.projectRoot);
      const candidates = [
        mainObservation(a, maxFacts),
        errorObservation(a),
        ...subagentObservations(a),
        todoObservation(a),
        compactObservation(a),
      ];
      const seen = new Set<string>();
      const observations: ObservationDraft[] = [];
      for (const o of candidates) {
        if (!o || o.title.trim() === '') continue;
        const key = `${o.type}\u0000${o.title.toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        observations.push(o);
      }
      return { observations, summary: mergeSummary(input.previousSummary, a) };
    },
  };
}

/**
 * The distillation prompt for one turn: what the model must answer (system), and the turn itself
 * (user): the project's existing memories (so it can update or supersede instead of duplicating), the
 * session summary so far, the turn's events rendered compactly, and the heuristic distiller's draft.
 * The whole request never exceeds `maxInputChars`: events are cut from the middle first.
 */
import type { QueuedEvent, SummaryDraft } from '../../core/model.ts';
import { OBSERVATION_TYPES } from '../../core/model.ts';
import type { TurnResult } from '../heuristic-distiller.ts';
import { isTaskNotification } from '../../core/transcript.ts';

export interface MemoryRef {
  id: string;
  type: string;
  title: string;
}

export interface TurnPromptInput {
  projectName: string;
  projectRoot: string;
  events: readonly QueuedEvent[];
  previousSummary: SummaryDraft | null;
  heuristic: TurnResult;
  memories: readonly MemoryRef[];
  /** One-line findings from the session transcript (decisions, corrections, the assistant's words). */
  extracts?: readonly string[];
  maxInputChars: number;
}

export const SYSTEM_PROMPT = `You distil one turn of an AI coding session into durable project memory.
Answer with ONE JSON object and nothing else:
{"observations":[{"type":"...","title":"...","subtitle":"...","narrative":"...","facts":["..."],"concepts":["..."],"filesRead":["..."],"filesModified":["..."],"supersedes":null}],
 "summary":{"request":"...","investigated":"...","learned":"...","completed":"...","nextSteps":"...","notes":"..."}}
Rules:
- type is one of: ${OBSERVATION_TYPES.join(', ')}.
- 0 to 3 observations; only what a developer would want to remember next week (decisions and why, bugs and their fixes, facts about the code, preferences, open tasks). Trivial turns get [].
- title: specific, at most 80 characters. facts: short standalone sentences. Paths relative to the project root.
- If an existing memory says the same thing, do not repeat it; if this turn changes or corrects it, write the new one with "supersedes":"<its id>".
- summary: the session's checkpoint after this turn (merge with the summary so far).
- Never include secrets.`;

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

function str(v: unknown, max: number): string {
  if (typeof v === 'string') return clip(v.replace(/\s+/g, ' ').trim(), max);
  if (v === null || v === undefined) return '';
  return clip(JSON.stringify(v), max);
}

function field(obj: unknown, ...keys: string[]): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  for (const k of keys) if (k in obj) return (obj as Record<string, unknown>)[k];
  return undefined;
}

function relative(root: string, path: string): string {
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** One line per event, each capped. */
export function renderEvent(e: QueuedEvent, root: string, max = 700): string {
  const ev = e.event;
  switch (ev.kind) {
    case 'prompt':
      return `[${isTaskNotification(ev.prompt) ? 'host' : 'user'}] ${str(ev.prompt, max)}`;
    case 'tool': {
      const path = field(ev.input, 'file_path', 'path', 'notebook_path');
      const target =
        typeof path === 'string'
          ? relative(root, path)
          : str(field(ev.input, 'command', 'pattern', 'query', 'url', 'description') ?? ev.input, 240);
      const change = field(ev.input, 'new_string', 'content');
      const out = field(ev.response, 'stdout', 'content', 'output', 'result') ?? '';
      const detail = change !== undefined ? ` +${str(change, 200)}` : out ? ` → ${str(out, 240)}` : '';
      return clip(`[${ev.tool}] ${target}${detail}`, max);
    }
    case 'tool_failure':
      return clip(
        `[${ev.tool} FAILED] ${str(field(ev.input, 'command', 'file_path') ?? ev.input, 200)} → ${str(ev.error, 300)}`,
        max,
      );
    case 'stop':
      return `[assistant] ${str(ev.lastMessage, max)}`;
    case 'subagent_stop':
      return `[subagent ${ev.agentType}] ${str(ev.lastMessage, max)}`;
    case 'post_compact':
      return `[compaction summary] ${str(ev.summary, max)}`;
    case 'pre_compact':
      return `[compaction ${ev.trigger}]`;
    case 'session_start':
      return `[session ${ev.source}]`;
    case 'session_end':
      return `[session end: ${ev.reason}]`;
  }
}

function summaryText(s: SummaryDraft | null): string {
  if (!s) return '(none yet)';
  return [
    s.request && `request: ${s.request}`,
    s.completed && `completed: ${s.completed}`,
    s.learned && `learned: ${s.learned}`,
    s.nextSteps && `next: ${s.nextSteps}`,
  ]
    .filter(Boolean)
    .map((l) => clip(l as string, 300))
    .join('\n');
}

function heuristicText(h: TurnResult): string {
  if (h.observations.length === 0) return '(nothing)';
  return h.observations
    .map((o) =>
      clip(`- ${o.type}: ${o.title}${o.facts.length ? ` | ${o.facts.slice(0, 6).join('; ')}` : ''}`, 500),
    )
    .join('\n');
}

/** Keep the first and last lines, drop from the middle until the total fits `budget`. */
function fitLines(lines: string[], budget: number): string[] {
  const total = () => lines.reduce((n, l) => n + l.length + 1, 0);
  if (total() <= budget) return lines;
  const head: string[] = [];
  const tail: string[] = [];
  let used = 40; // room for the "left out" marker
  let i = 0;
  let j = lines.length - 1;
  while (i <= j) {
    const take = head.length <= tail.length ? lines[i] : lines[j];
    if (take === undefined || used + take.length + 1 > budget) break;
    used += take.length + 1;
    if (head.length <= tail.length) head.push(lines[i++] as string);
    else tail.unshift(lines[j--] as string);
  }
  const dropped = lines.length - head.length - tail.length;
  return [...head, `[… ${dropped} events left out …]`, ...tail];
}

/** The user prompt; `system.length + prompt.length` stays within `maxInputChars`. */
export function buildTurnPrompt(input: TurnPromptInput): { system: string; prompt: string } {
  const memories =
    input.memories.length === 0
      ? '(none)'
      : input.memories.map((m) => clip(`- ${m.id} · ${m.type} · ${m.title}`, 200)).join('\n');
  const fixed = [
    `Project: ${input.projectName}`,
    `Existing memories of this project (id · type · title):\n${memories}`,
    `Session summary so far:\n${summaryText(input.previousSummary)}`,
    `Heuristic draft of this turn (improve on it):\n${heuristicText(input.heuristic)}`,
    ...(input.extracts && input.extracts.length > 0
      ? [`From the session transcript:\n${input.extracts.map((l) => clip(`- ${l}`, 320)).join('\n')}`]
      : []),
  ].join('\n\n');
  const budget = input.maxInputChars - SYSTEM_PROMPT.length - fixed.length - 40;
  const lines = input.events.map((e) => renderEvent(e, input.projectRoot));
  const events = budget > 200 ? fitLines(lines, budget).join('\n') : '[events left out: input cap]';
  const prompt = `${fixed}\n\nThis turn's events:\n${events}`;
  const room = Math.max(0, input.maxInputChars - SYSTEM_PROMPT.length);
  return { system: SYSTEM_PROMPT, prompt: prompt.length > room ? prompt.slice(0, room) : prompt };
}

/**
 * Small text helpers shared by the distillers.
 */
import { isTaskNotification, withoutHostContext } from '../core/transcript.ts';

/** Collapse whitespace and cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** A title cut at a word, never in the middle of one. */
export function clipWords(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '')}…`;
}

/** The first sentence (or line) of a text, clipped. */
export function firstSentence(text: string, max: number): string {
  const trimmed = text.trim();
  const line = trimmed.split(/\n/).find((l) => l.trim() !== '') ?? '';
  const m = /^(.+?[.!?])(?:\s|$)/.exec(line);
  return clip(m?.[1] && m[1].length >= 12 ? m[1] : line, max);
}

/** Openers that carry no information ("Great!", "Now I have all I need.", "Let me …"). */
const FILLER =
  /^(?:#+\s*)?(?:(?:oh|ah|yes|right),?\s+)?(?:excellent|great|perfect|good|done|ok(?:ay)?|alright|sure|absolutely|exactly|got it|makes sense|i see|you'?re (?:absolutely |totally |completely |quite )?(?:right|correct)|now i (?:have|understand|can)|i now (?:have|understand)|i understand\b|i have (?:all|enough|gathered|full context|a (?:clear|good|full|complete|solid|better) (?:picture|understanding|view|idea))|(?:this|that|it) (?:is|was|'s) (?:a )?(?:substantial|big|large|complex|straightforward|simple|small|quick) (?:task|change|one|fix)|let me|here(?:'s| is| are)|based on (?:my|the|all|this)|i'll now|summary)\b/i;

/** An opening that says nothing of the matter ("Great!", "You're absolutely right.", "Let me …"). */
export const isFiller = (sentence: string) => FILLER.test(sentence.trim());

/** The first sentence of a text that says something (skips "Excellent!", "Let me …" and headings). */
export function informativeSentence(text: string, max: number): string {
  const found = findingSentence(text, max);
  if (found !== '') return found;
  const parts = informativeParts(text);
  const telling = parts.find(
    (p) => !p.heading && p.text.length >= 20 && !FILLER.test(p.text) && !/:$/.test(p.text),
  );
  return clip(telling?.text ?? parts.find((p) => !p.heading)?.text ?? parts[0]?.text ?? '', max);
}

/**
 * The first sentence of a report that says something in prose (not filler, not a heading or a lead-in,
 * not a listing's `File: path`); '' when it has none.
 */
export function findingSentence(text: string, max: number): string {
  // A listing's field ("Rationale: Patch updates included", "Triggered by: `x.sh` on start") is an
  // entry of an inventory; one whose value closes as a sentence does ("Root cause: X drops Y.") is prose.
  const prose = text
    .replace(/```[\s\S]*?```/g, ' ')
    .split('\n')
    .filter((line) => !(FIELD.test(line) && !/[.!?]\s*$/.test(line)))
    .join('\n');
  const useful = informativeParts(prose).find(
    (p) =>
      !p.heading &&
      p.text.length >= 20 &&
      !FILLER.test(p.text) &&
      !/:$/.test(p.text) &&
      proseWords(p.text) >= 4,
  );
  return useful ? clip(useful.text, max) : '';
}

/** A line of a listing: a label of a few words, a colon, its value ("- **Endpoint:** `POST /x`"). */
const FIELD =
  /^\s*(?:[-*•]\s+|\d+[.)]\s+)?(?:\*\*)?[A-Z][\w()/-]*(?:\s+[\w()/-]+){0,2}(?:\*\*)?:(?:\*\*)?\s+\S/;

/** A text with its inline code spans blanked out (what is left is prose). */
export const withoutCode = (text: string) => text.replace(/`[^`]*`/g, ' ');

/** Words of prose in a line: not in code spans, not paths, not a listing's `Label:`. */
function proseWords(text: string): number {
  return withoutCode(text)
    .split(/\s+/)
    .filter((w) => /^[A-Za-z][a-z'’-]*[,.;!?)]*$/.test(w)).length;
}

/** Small words a title leaves in lower case. */
const TITLE_SMALL = new Set('a an and as at but by for in of on or the to vs with via'.split(' '));

/**
 * A heading written without `#`: a line in Title Case with no closing stop ("How `list_panes/0` Works &
 * Error Handling").
 */
function titleCase(line: string): boolean {
  const t = line.trim().replace(/\*\*/g, '');
  if (/[.!?:;,]$/.test(t) || /^[-*•]|^\d+[.)]/.test(t)) return false;
  return allCapitalised(t);
}

/**
 * A label in Title Case however it ends ("Critical Issue #1: Fix Missing Authentication."): every word
 * of three or more capitalised, as headings and labels are written and sentences are not.
 */
export function isTitleCaseLabel(sentence: string): boolean {
  const t = sentence.trim().replace(/\*\*/g, '');
  return (
    withoutCode(t)
      .split(/\s+/)
      .filter((w) => /^[A-Za-z]/.test(w)).length >= 3 && allCapitalised(t)
  );
}

function allCapitalised(t: string): boolean {
  const words = withoutCode(t)
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]/.test(w) && !TITLE_SMALL.has(w.toLowerCase()));
  return words.length >= 2 && words.every((w) => /^[A-Z]/.test(w));
}

/** The sentences and lines of a text, code blocks left out, each marked when it is a Markdown heading. */
function informativeParts(text: string): { text: string; heading: boolean }[] {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?:])\s+|\n+/)
    .map((s) => ({
      heading: /^\s*#/.test(s) || titleCase(s),
      text: s
        .trim()
        .replace(/^[#>*\-\s]+/, '')
        .replace(/\*\*/g, ''),
    }))
    .filter((p) => p.text.length >= 3);
}

/** The text without its opening filler sentences ("Good. Let me write the plan for your approval."). */
export function withoutFiller(text: string): string {
  let t = text.trim();
  for (let i = 0; i < 3; i++) {
    const m = /^([^\n.!?]{0,80}[.!?])\s+(?=\S)/.exec(t);
    if (!m?.[1] || !(FILLER.test(m[1]) || m[1].length < 12)) break;
    t = t.slice(m[0].length);
  }
  return t;
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A path relative to the project root when it lies inside it (`./x` → `x`). */
export function relativePath(path: string, root: string): string {
  const p = path.trim();
  if (p === '') return p;
  if (/^[A-Za-z]:[\\/]|^\\\\/.test(root)) return windowsRelative(p, root);
  const r = root.replace(/\/+$/, '');
  if (r !== '' && p === r) return '.';
  if (r !== '' && p.startsWith(`${r}/`)) return p.slice(r.length + 1);
  return p.startsWith('./') ? p.slice(2) : p;
}

/**
 * A scratch place outside any project: the system's temporary directories (`/tmp`, macOS's
 * `/private/tmp` and `/var/folders/…`, `/var/tmp`, `/dev/shm`, `$TMPDIR`, a `mktemp` result, Windows'
 * `…\\AppData\\Local\\Temp\\…`). What is written, built or committed there is an experiment, not the
 * project's work — unless the project itself lives there (`root`, when known: a path inside it is the
 * project's, wherever the project is).
 */
/** Prose, not code: a change to it fixes no check's failure. */
export const isDocPath = (path: string) =>
  /\.(?:md|mdx|txt|rst|adoc)$|(?:^|\/)(?:LICENSE|CHANGELOG)[^/]*$/i.test(path);

export function isScratchPath(path: string, root = ''): boolean {
  const p = path.trim().replace(/^["']|["']$/g, '');
  const r = root.replace(/\/+$/, '');
  if (r !== '' && (p === r || p.startsWith(`${r}/`))) return false;
  return TMP_PLACE.test(p);
}

/**
 * The agent host's own files (Claude Code's plan-mode plans, todo lists, and what it keeps per project
 * — transcripts, auto memory — under `~/.claude/`): writing one is no work on the project.
 */
export const isHostFile = (path: string) =>
  /(?:^|\/)\.claude\/(?:plans|todos)\/|(?:^|\/)\.claude\/projects\/[^/]+\//.test(path);

const TMP_PLACE =
  /^(?:\/private)?\/(?:tmp|var\/tmp|var\/folders|dev\/shm)(?:\/|$)|^\$\{?TMPDIR\b|mktemp|^[A-Za-z]:[\\/].*[\\/]AppData[\\/]Local[\\/]Temp(?:[\\/]|$)/i;

/** A path under a Windows root (drive letters and separators compared loosely), else as it was. */
function windowsRelative(path: string, root: string): string {
  const norm = (x: string) => x.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  const r = norm(root);
  const p = norm(path);
  if (p === r) return '.';
  return p.startsWith(`${r}/`) ? path.slice(root.replace(/[\\/]+$/, '').length + 1) : path;
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Text of a tool response, whatever its shape (string, {stdout, stderr}, content blocks). */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (Array.isArray(response)) return response.map((b) => asString(asRecord(b)['text'])).join('\n');
  const r = asRecord(response);
  const parts = [asString(r['stdout']), asString(r['stderr']), asString(r['output']), asString(r['result'])];
  const content = r['content'];
  if (typeof content === 'string') parts.push(content);
  for (const block of asArray(content)) parts.push(asString(asRecord(block)['text']));
  return parts.filter((p) => p !== '').join('\n');
}

/** Drop the host's wrapper tags (`<tool_use_error>…</tool_use_error>`, system reminders). */
export function stripHostMarkup(text: string): string {
  return withoutHostContext(text)
    .replace(/<\/?(?:tool_use_error|error|stdout|stderr)>/g, '')
    .trim();
}

/**
 * A user prompt as the person typed it: slash-command wrappers unwrapped (`/name args`), local
 * command output and system reminders dropped; '' when nothing the user wrote is left.
 */
export function cleanPrompt(prompt: string): string {
  let text = withoutHostContext(prompt);
  if (isTaskNotification(text)) return '';
  text = text.replace(/<local-command-(?:stdout|stderr)>[\s\S]*?<\/local-command-(?:stdout|stderr)>/g, ' ');
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim();
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim();
  if (name) return `${name.startsWith('/') ? name : `/${name}`}${args ? ` ${args}` : ''}`.trim();
  text = text
    .replace(/<command-message>[\s\S]*?<\/command-message>/g, ' ')
    .replace(
      /^\s*Caveat: The messages below were generated by the user while running local commands[^\n]*\n?/i,
      '',
    );
  return text.trim();
}

const TRIVIAL =
  /^(?:y|yes|yep|yeah|no|nope|ok(?:ay)?|k|sure|go|go on|go ahead|do it|continue|proceed|carry on|keep going|thanks?(?: you)?|thx|ty|lgtm|sounds good|looks good|perfect|great|nice|cool|please do|please|next|done|again|retry|try again|yes please|ok go|ok do it|approved?)[\s.!]*$/i;

/** A prompt that only acknowledges or nudges ("ok", "continue", "yes please"). */
export function isTrivialPrompt(prompt: string): boolean {
  return prompt.trim() === '' || TRIVIAL.test(prompt.trim());
}

/** Number of lines of a text; `+` when the capture cut it ("…[truncated N chars]"). */
export function lineCount(text: string): { lines: number; truncated: boolean } {
  const truncated = /…\[truncated \d+ chars\]$/.test(text);
  const body = text.replace(/\n$/, '');
  return { lines: body === '' ? 0 : body.split('\n').length, truncated };
}

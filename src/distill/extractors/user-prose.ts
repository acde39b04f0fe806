/**
 * What the user typed, apart from what they pasted. A prompt often carries a terminal's output, a CI
 * log or a reviewer's findings under a line of the user's own; only that line is their words. A
 * pasted report (review findings, a generated review with its headings and severities, a hard-wrapped
 * bot comment) is not the user's statement at all, even when it says "should": it is the material
 * they want worked on.
 */

/** A line that is output, not prose: prompts, box drawing, logs, diffs, stack frames, indented code. */
export const OUTPUT_LINE =
  /^(?:\s{4,}|\t)|^\s*(?:[❯$%>│┃╭╰╮╯─═━┌└├┐┘▶→✔✖✓✗×⠙⠹⠸●•◆▸]|\[\+\]|=>|@@|diff --git|\+\+\+ |--- a\/|npm (?:ERR|error|warn)|error(?:\[|:)|warning:|Error:|at\s+\S+\s+\(|\d{1,2}:\d{2}(?::\d{2})?\b|\S+\.\w{1,5}:\d+(?::\d+)?\b|[│|].*[│|]\s*$)/;
const ESCAPE = String.fromCharCode(27);
/** A line announcing what follows is pasted: "this is from the ci run:", "here's the output:". */
const ANNOUNCES =
  /\b(?:this is (?:from|what|the)|here(?:'s| is| are)|output|logs?|trace|error|errors|the ci run|ci says|it says|i get|i got|getting|results?)\b[^:]{0,60}:\s*(?=\S|$)/i;
/** Labels of a review or a findings report. */
const REPORT_LABEL =
  /^\s*(?:(?:critical|high|medium|low|minor|major)(?:\s+(?:severity|priority))?|severity:.*|nit(?:pick)?s?:?|🔍.*|✅\s*strengths|(?:issues?|recommendations?|strengths|suggestions?)(?:\s*&\s*\w+)?:?)\s*$/im;
const REPORT_HEAD =
  /^\s*(?:\S+\s+){0,4}(?:feedback|review(?:er)?|code review|comments?|findings?|pr review)\b[^\n]{0,60}:?\s*$/i;

export interface UserProse {
  /** The user's own words (may be empty). */
  text: string;
  /** Something was pasted after (or instead of) them. */
  pasted: boolean;
  /** The whole message is a pasted report (review findings …): nothing in it is a statement of the user's. */
  report: boolean;
}

/** Lines hard-wrapped mid-sentence, as a bot's comment copied from a web page is. */
function hardWrapped(lines: readonly string[]): boolean {
  const wraps: number[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = lines[i]?.trimEnd() ?? '';
    const b = lines[i + 1]?.trim() ?? '';
    if (a.length >= 45 && a.length <= 100 && /[a-z0-9,]$/i.test(a) && /^[a-z(]/.test(b)) wraps.push(a.length);
  }
  // Wrapped at a width: the lines broken mid-sentence come out about as long as each other (a message
  // typed line by line without punctuation breaks where its thoughts end, at any length).
  const widest = Math.max(0, ...wraps);
  return wraps.filter((n) => n >= widest * 0.85).length >= 3;
}

function isReport(text: string, lines: readonly string[]): boolean {
  if (text.length < 300) return false;
  const first = lines.find((l) => l.trim() !== '') ?? '';
  if (REPORT_LABEL.test(text) || REPORT_HEAD.test(first)) return true;
  const headings = lines.filter((l) => /^\s*(?:#{1,4}\s|\d+\.\s+\*\*|\*\*[^*]+\*\*:?\s*$)/.test(l)).length;
  if (headings >= 2 || /```/.test(text)) return true;
  return hardWrapped(lines);
}

/** A line of words (three or more, most of them plain words), as a person types, not a tool prints. */
function wordy(line: string): boolean {
  const tokens = line.trim().split(/\s+/);
  const words = tokens.filter((t) => /^["'“(]?[\p{L}][\p{L}'’-]*["'”),!]?$/u.test(t));
  return tokens.length >= 3 && words.length / tokens.length >= 0.75 && /\p{Ll}/u.test(line);
}

/** Split a message into the user's own words and what was pasted (see the module comment). */
export function userProse(raw: string): UserProse {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  const lines = text.split('\n');
  if (isReport(text, lines)) return { text: '', pasted: true, report: true };
  const kept: string[] = [];
  let pasted = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      kept.push('');
      continue;
    }
    if (OUTPUT_LINE.test(line) || line.includes(ESCAPE) || /```/.test(line)) {
      pasted = true;
      break;
    }
    // A run of short lines without sentence punctuation after the first line: a pasted log — unless
    // they read as words, as a message typed line by line does.
    const run = lines.slice(i, i + 3).filter((l) => l.trim() !== '');
    if (
      i > 0 &&
      run.length >= 3 &&
      run.every((l) => l.trim().length < 40 && !/[.?!]$/.test(l.trim())) &&
      run.filter(wordy).length < 2
    ) {
      pasted = true;
      break;
    }
    const announced = ANNOUNCES.exec(line);
    if (announced && announced.index + announced[0].length < line.length - 1) {
      kept.push(line.slice(0, announced.index + announced[0].length).replace(/:\s*$/, '.'));
      pasted = true;
      break;
    }
    kept.push(line);
    if (announced && i + 1 < lines.length) {
      pasted = true;
      break;
    }
  }
  return { text: kept.join('\n').trim(), pasted, report: false };
}

const LIST_ITEM = /^\s*(?:\d{1,2}[.)]|[-*•+])\s+(?=\S)/;
/** How long a lead-in and its list may be to be read as one statement. */
const MAX_LEAD_WORDS = 12;
const MAX_ITEMS = 8;
const MAX_ITEM_CHARS = 120;

/**
 * A line that leads into a list ("it should", "we need:") and the short list items under it are one
 * statement: "it should: remember the bounds; have a GENERATE button". Split line by line, the lead
 * says nothing and each item lacks what it is about. A long list, or a lead that is a sentence of its
 * own, stays as it is.
 */
function joinListLeads(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lead = (lines[i] ?? '').trim();
    const items: string[] = [];
    let j = i + 1;
    while (j < lines.length && LIST_ITEM.test(lines[j] ?? '')) {
      items.push(
        (lines[j] ?? '')
          .replace(LIST_ITEM, '')
          .trim()
          .replace(/[.;,]+$/, ''),
      );
      j++;
    }
    const leads =
      lead !== '' &&
      !lead.includes('```') &&
      !LIST_ITEM.test(lead) &&
      !/[.!?]$/.test(lead) &&
      lead.split(/\s+/).length <= MAX_LEAD_WORDS &&
      items.length >= 1 &&
      items.length <= MAX_ITEMS &&
      items.every((t) => t !== '' && t.length <= MAX_ITEM_CHARS && !/[.!?]\s/.test(t));
    if (!leads) {
      out.push(lines[i] ?? '');
      continue;
    }
    out.push(`${lead.replace(/[:\s]+$/, '')}: ${items.join('; ')}`);
    i = j - 1;
  }
  return out.join('\n');
}

/** The prose split into sentences (bullets and quotes unwrapped, parentheses kept apart). */
export function proseSentences(text: string): string[] {
  return (
    joinListLeads(unwrapLines(text))
      .replace(/```[\s\S]*?```/g, ' ')
      // A stop typed without its space ("room sound.Another thing", as dictation writes) still ends a
      // sentence when a word of two lower-case letters ends before it and a capitalised word starts after.
      .split(
        /(?<=[.!?])\s+(?=\S)|(?<=[。！？])\s*(?=\S)|(?<=\b[a-z]{2,}[.!?])(?=[A-Z][a-z]+\b)|\n+|\s+(?=\()/,
      )
      .map((s) =>
        s
          .trim()
          .replace(/^[-*>#]+\s*/, '')
          .replace(/^\((.*)\)[.!?]?$/, '$1')
          .trim(),
      )
      .filter((s) => s.length > 0)
  );
}

/**
 * Text a terminal wrapped at its width and the paste kept ("… then we'll\n  have this bot …"): a line
 * that stops mid-sentence, continued on an indented line that is no list item, is one line.
 */
function unwrapLines(text: string): string {
  return text.replace(/([^\s.!?:;,])[ \t]*\n[ \t]+(?=[^\s\-*•>#\d|`])/g, '$1 ');
}

/** Links in the user's own words (a PR, an issue, a page they point to). */
export function linksIn(text: string): string[] {
  // A line of code the user pasted (`RPC_URLS = [ENV["X"] || "https://…"]`): its addresses are values
  // of that code, not links given.
  const prose = text
    .split('\n')
    .filter((l) => !CODE_LINE.test(l))
    .join('\n');
  const found = prose.match(/\bhttps?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/g) ?? [];
  // A local server's address is where something ran, not a reference.
  const local = /^https?:\/\/(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(?:[:/]|$)/i;
  // A form to fill in (`…/polygon/YOUR_KEY_HERE`, `{id}`): an example of an address, not one.
  // A secret the scrubber took out (`?apikey=[REDACTED:…]`) leaves no address either.
  const template = /YOUR[_-]|<[^>]*>|\{[^}]*\}|\bx{3,}\b|\bexample\.(?:com|org|net)\b|\[REDACTED/i;
  return [...new Set(found.filter((u) => !local.test(u) && !template.test(u)))].slice(0, 5);
}

/** A line that is code: an assignment, a list or call of quoted values, `||` between values. */
const CODE_LINE = /^\s*(?:[\w.[\]"']+\s*=[^=]|[\]}),]|["'`][^"'`]*["'`]\s*,?\s*$)|\|\||&&|=>|\bENV\[/;

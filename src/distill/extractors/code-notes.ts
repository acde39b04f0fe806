/**
 * Pitfalls the code itself records: a comment in a project file the session read or wrote that cites an
 * upstream issue or pull request (a tracker link, `owner/repo#123`) is the code's own note of a known
 * bug and how it is worked around ("uses the git CLI instead of go-git: its Checkout deletes untracked
 * files, see …/issues/970"). It is kept with the declaration it sits on, one memory per cited issue, so
 * every place the same upstream bug is worked around merges into one. Evidence, not phrasing: the
 * link to a tracker is what marks the note; its words are the file's, quoted.
 */
import { TRACKER_LINK } from '../../core/tracker-links.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath, unique } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { writtenText } from './whole-file.ts';

/** Folders of code the project does not own: notes there are someone else's. */
const VENDORED =
  /(?:^|\/)(?:node_modules|vendor|third_party|dist|build|target|\.venv|venv|site-packages|\.git)\//;
/** A comment line: `//`, `#`, `--`, `;;`, ` * ` inside a block, `/*`. */
const COMMENT =
  /^\s*(?:\/\/+|#(?![![]|include\b|define\b|if|endif)|--(?!-)|;;+|\/\*+|\*+\/|\*(?!\/))\s?(.*?)\s*(?:\*\/)?\s*$/;
/** A declaration's name: `func (r *T) Name(`, `function name`, `def name`, `class Name`, `const name =`. */
const DECLARATION =
  /^\s*(?:export\s+|pub(?:\([^)]*\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+|default\s+)*(?:func\s+(?:\([^)]*\)\s*)?|function\*?\s+|def\s+|class\s+|fn\s+|const\s+|let\s+|var\s+|type\s+|interface\s+|struct\s+|enum\s+|module\s+|defp?\s+)([A-Za-z_$][\w$!?]*)/;

/** The file's text without the `cat -n` prefix of a read (`   12→code`, `12\tcode`). */
function sourceLines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/^\s*\d+(?:→|\t)/, ''));
}

/** `https://github.com/go-git/go-git/issues/970` → `go-git/go-git#970`. */
export function issueRef(link: string): string {
  const m =
    /^https?:\/\/[^/]+\/([\w.-]+\/[\w.-]+)\/(?:-\/)?(?:issues|pull|pulls|merge_requests)\/(\d+)/i.exec(link);
  return m ? `${m[1]}#${m[2]}` : link.replace(/^https?:\/\//, '');
}

export interface CodeNote {
  /** The comment's words, the link replaced by its short reference. */
  note: string;
  ref: string;
  /** The declaration the comment sits on ('' when none follows). */
  symbol: string;
}

/** Comment blocks of a source text that cite a tracker, with the declaration after each. */
export function codeNotes(text: string): CodeNote[] {
  const lines = sourceLines(text);
  const out: CodeNote[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!COMMENT.test(lines[i] ?? '')) continue;
    const block: string[] = [];
    let j = i;
    for (; j < lines.length; j++) {
      const m = COMMENT.exec(lines[j] ?? '');
      if (!m) break;
      block.push(m[1] ?? '');
    }
    i = j - 1;
    const words = block.join(' ').replace(/\s+/g, ' ').trim();
    const link = TRACKER_LINK.exec(words)?.[0];
    if (!link) continue;
    const ref = issueRef(link);
    const note = words.replace(link, ref).trim();
    // A bare link ("// https://…/issues/12") says nothing of its own.
    if (
      note
        .replace(ref, '')
        .replace(/[^a-z]+/gi, ' ')
        .trim()
        .split(' ').length < 5
    )
      continue;
    const next = lines.slice(j, j + 3).find((l) => l.trim() !== '') ?? '';
    out.push({ note, ref, symbol: DECLARATION.exec(next)?.[1] ?? '' });
  }
  return out;
}

const fileOf = (input: unknown): string => {
  const o = input as Record<string, unknown> | null;
  const f = o?.['file_path'] ?? o?.['path'];
  return typeof f === 'string' ? f : '';
};

/** The text a file tool saw or wrote: a read's result, a write's content, an edit's new text. */
function seenText(e: Extract<TranscriptEntry, { kind: 'tool_call' }>): string {
  const input = e.input as Record<string, unknown> | null;
  if (e.name === 'Read') return e.result && !e.result.isError ? e.result.text : '';
  return e.name === 'Write' || e.name === 'Edit' ? writtenText(e.name, input) : '';
}

const base = (path: string) => path.split('/').pop() ?? path;

/** `projectRoot`, when known: a project that itself lives in a temp directory is not scratch. */
export function extractCodeNotes(entries: readonly TranscriptEntry[], projectRoot = ''): Extracted[] {
  const byRef = new Map<
    string,
    { notes: (CodeNote & { file: string })[]; uuid: string; at: number; written: boolean }
  >();
  for (const e of entries) {
    if (e.kind !== 'tool_call') continue;
    const file = fileOf(e.input);
    if (file === '' || VENDORED.test(file) || isScratchPath(file, projectRoot)) continue;
    const text = seenText(e);
    if (!TRACKER_LINK.test(text)) continue;
    for (const n of codeNotes(text).slice(0, 3)) {
      const at = byRef.get(n.ref) ?? { notes: [], uuid: e.result?.uuid || e.uuid, at: e.at, written: false };
      // Read from the repository, the note is the repository's words; written in the session, the agent's.
      if (e.name !== 'Read') at.written = true;
      if (!at.notes.some((x) => x.file === file && x.symbol === n.symbol)) at.notes.push({ ...n, file });
      byRef.set(n.ref, at);
    }
  }
  return [...byRef.entries()].map(([ref, { notes, uuid, at, written }]) => {
    const first = notes[0] as CodeNote & { file: string };
    const places = unique(notes.map((n) => (n.symbol ? `\`${n.symbol}\` (${base(n.file)})` : base(n.file))));
    return extracted(
      'gotcha',
      clip(
        first.symbol && !first.note.startsWith(first.symbol) ? `${first.symbol}: ${first.note}` : first.note,
        90,
      ),
      `A note in the code (${ref}): “${clip(first.note, 400)}” — at ${places.join(', ')}.`,
      { uuid, at },
      0.6,
      {
        facts: unique([
          `upstream: ${ref}`,
          ...notes.map((n) => `in ${n.file}${n.symbol ? ` on ${n.symbol}` : ''}`),
        ]).slice(0, 6),
        concepts: ['code note', 'upstream issue', ...unique(notes.map((n) => n.symbol).filter(Boolean))],
        filesRead: unique(notes.map((n) => n.file)).slice(0, 10),
        subject: `note:${ref.toLowerCase()}`,
        ...(written ? {} : { trust: 'repository' as const }),
      },
    );
  });
}

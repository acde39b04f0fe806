/**
 * A file's text as a tool call showed it: what a Write wrote, what a Read returned (its `cat -n` line
 * numbers kept, so parts read apart can be put back in order), or the file an Edit started from (the
 * host records it) with the edit applied. '' when the call does not show the file.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';

type ToolCall = Extract<TranscriptEntry, { kind: 'tool_call' }>;

/** The whole file after an edit: the original the host recorded, with the edit applied; '' when unknown. */
export function editedText(structured: unknown, input: Record<string, unknown> | null): string {
  const original = (structured as Record<string, unknown> | null)?.['originalFile'];
  const from = input?.['old_string'];
  const to = input?.['new_string'];
  if (typeof original !== 'string' || typeof from !== 'string' || typeof to !== 'string' || from === '')
    return '';
  if (!original.includes(from)) return '';
  return input?.['replace_all'] === true ? original.split(from).join(to) : original.replace(from, () => to);
}

/** The text of the file `e` wrote, read or edited ('' when it shows none). */
export function fileText(e: ToolCall): string {
  if (!e.result || e.result.isError) return '';
  const input = e.input as Record<string, unknown> | null;
  if (e.name === 'Write') return String(input?.['content'] ?? '');
  if (e.name === 'Read') return e.result.text;
  if (e.name === 'Edit') return editedText(e.result.structured, input);
  return '';
}

/**
 * The text a write or an edit put into its file, as its input gives it: a Write's content, an Edit's new
 * text, a MultiEdit's new texts one per line ('' for any other tool). Not the whole file after an edit
 * (see `fileText`).
 */
export function writtenText(tool: string, input: unknown): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const o = input as Record<string, unknown>;
  if (tool === 'Write') return typeof o['content'] === 'string' ? o['content'] : '';
  if (tool === 'Edit') return typeof o['new_string'] === 'string' ? o['new_string'] : '';
  if (tool === 'MultiEdit' && Array.isArray(o['edits']))
    return o['edits']
      .map((e) =>
        e && typeof e === 'object' && !Array.isArray(e)
          ? String((e as Record<string, unknown>)['new_string'] ?? '')
          : '',
      )
      .join('\n');
  return '';
}

/** The path a file tool call is about ('' when none). */
export function filePath(e: ToolCall): string {
  const input = e.input as Record<string, unknown> | null;
  return typeof input?.['file_path'] === 'string' ? input['file_path'] : '';
}

/** The folder a path is in, compared loosely (separators, a trailing slash, case). */
const folderOf = (path: string) =>
  path
    .replace(/\\/g, '/')
    .replace(/\/[^/]*$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();

/** Whether a file sits directly in `folder` (not in a sub-folder of it). */
export const inFolder = (path: string, folder: string) =>
  folderOf(path) === folderOf(`${folder.replace(/[\\/]+$/, '')}/x`);

/** A path inside installed dependencies or a virtual environment: someone else's files, not the project's. */
export const isDependencyPath = (path: string) =>
  /(?:^|[\\/])(?:node_modules|vendor|\.venv|site-packages)[\\/]/.test(path);

/**
 * The answer that ended a Gemini turn, read from the end of its chat file (JSON lines; a message is
 * written again, whole, as it completes). AfterAgent's own copy of the answer is garbled by the pieces
 * of its streamed chunks, so the hook reads the last message of the model here: the file's last 16 KB,
 * else its last 256 KB, once per turn.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const TAIL_BYTES = 256 * 1024;
const FIRST_BYTES = 16 * 1024;

/** A chat record's text: a string, or text parts (`[{text}]`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

/** The model's last message with words among `lines` (newest last), or null. */
function lastAnswerIn(lines: readonly string[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (!line.includes('"gemini"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const r = record as { type?: unknown; content?: unknown };
    if (r.type !== 'gemini') continue;
    const words = contentText(r.content).trim();
    if (words !== '') return words;
  }
  return null;
}

/**
 * The model's last message with words in the file's tail; null when there is none or no file. The
 * last 16 KB first (the answer is usually the last message but one), then the whole window.
 */
export function lastAnswerOf(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    for (const window of [FIRST_BYTES, TAIL_BYTES]) {
      const start = Math.max(0, size - window);
      const buffer = Buffer.alloc(size - start);
      const read = readSync(fd, buffer, 0, buffer.length, start);
      const lines = buffer.subarray(0, read).toString('utf8').split('\n');
      if (start > 0) lines.shift(); // a line cut by the window
      const answer = lastAnswerIn(lines);
      if (answer !== null || start === 0) return answer;
    }
    return null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

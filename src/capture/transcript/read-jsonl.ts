/**
 * Incremental JSONL reading: from a byte offset, in fixed-size chunks (a file is never loaded whole),
 * tolerating bad lines, over-long lines and a partial last line (left for the next read while the
 * session is live). Never throws on content; only on I/O errors.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A line `peek` recognised as not worth parsing: its record type, and its links when it has any. */
export interface SkippedLine {
  type: string;
  uuid?: string;
  parentUuid?: string | null;
}

export interface JsonlLine {
  /** Byte offset where the line starts. */
  offset: number;
  value: unknown;
  /** Set instead of `value` when `peek` recognised a line not worth parsing. */
  skipped?: SkippedLine;
}

export interface JsonlChunk {
  lines: JsonlLine[];
  /** Lines that were not valid JSON. */
  badLines: number;
  /** Lines longer than the limit, skipped without being held in memory. */
  oversizeLines: number;
  /** Where the next read should start: after the last whole line consumed. */
  nextOffset: number;
  /** The file's size when read. */
  size: number;
}

export interface ReadOptions {
  chunkBytes?: number;
  maxLineBytes?: number;
  /** Stop after roughly this many bytes (the rest is read next time). */
  maxBytes?: number;
  /** Look at a line's text before parsing it; a returned description marks it skipped (not parsed). */
  peek?: (line: string) => SkippedLine | null;
}

const NEWLINE = 0x0a;

export function readJsonlFrom(path: string, offset: number, options: ReadOptions = {}): JsonlChunk {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const maxLineBytes = options.maxLineBytes ?? 16 << 20;
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const fd = openSync(path, 'r');
  const out: JsonlChunk = { lines: [], badLines: 0, oversizeLines: 0, nextOffset: offset, size: 0 };
  try {
    const size = fstatSync(fd).size;
    out.size = size;
    if (offset > size) return out; // the file shrank: the caller decides (fingerprint check)
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let pos = offset;
    let lineStart = offset;
    let pieces: Buffer[] = [];
    let pieceBytes = 0;
    let skipping = false;
    const finishLine = (last: Buffer) => {
      if (skipping) {
        out.oversizeLines++;
      } else {
        const bytes = pieces.length === 0 ? last : Buffer.concat([...pieces, last]);
        const text = bytes.toString('utf8').trim();
        const skipped = text !== '' && options.peek ? options.peek(text) : null;
        if (skipped !== null) {
          out.lines.push({ offset: lineStart, value: null, skipped });
        } else if (text !== '') {
          try {
            out.lines.push({ offset: lineStart, value: JSON.parse(text) });
          } catch {
            out.badLines++;
          }
        }
      }
      pieces = [];
      pieceBytes = 0;
      skipping = false;
    };
    while (pos < size && pos - offset < maxBytes) {
      const n = readSync(fd, buffer, 0, Math.min(chunkBytes, size - pos), pos);
      if (n <= 0) break;
      let start = 0;
      for (;;) {
        const nl = buffer.indexOf(NEWLINE, start);
        if (nl === -1 || nl >= n) break;
        finishLine(buffer.subarray(start, nl));
        start = nl + 1;
        lineStart = pos + start;
        out.nextOffset = lineStart;
      }
      if (start < n) {
        const rest = n - start;
        if (!skipping && pieceBytes + rest > maxLineBytes) {
          skipping = true;
          pieces = [];
          pieceBytes = 0;
        }
        if (!skipping) {
          pieces.push(Buffer.from(buffer.subarray(start, n)));
          pieceBytes += rest;
        }
      }
      pos += n;
    }
    // A last line without a newline: consume it only when it is whole JSON (an old, finished file);
    // a live session's half-written line is left for the next read.
    if (pos >= size && (pieceBytes > 0 || skipping) && !skipping) {
      const text = Buffer.concat(pieces).toString('utf8').trim();
      try {
        out.lines.push({ offset: lineStart, value: JSON.parse(text) });
        out.nextOffset = size;
      } catch {
        // partial: read again next time
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/**
 * A cheap identity for a file's content: a hash of its first bytes, with their count (`n:hash`).
 * Compare with `fingerprintMatches`, which hashes the same number of bytes, so a growing file keeps
 * its identity while a rewritten one does not.
 */
export function fileFingerprint(path: string, bytes = 512): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    let h1 = 0x811c9dc5;
    let h2 = 0x5bd1e995;
    for (let i = 0; i < n; i++) {
      const b = buffer[i] ?? 0;
      h1 = Math.imul(h1 ^ b, 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ b, 0x2127599b) >>> 0;
    }
    return `${n}:${h1.toString(16)}${h2.toString(16)}`;
  } finally {
    closeSync(fd);
  }
}

/** Whether the file still starts with the bytes `fingerprint` was taken from. */
export function fingerprintMatches(path: string, fingerprint: string): boolean {
  const n = Number.parseInt(fingerprint.split(':')[0] ?? '', 10);
  if (!Number.isInteger(n) || n <= 0) return false;
  return fileFingerprint(path, n) === fingerprint;
}

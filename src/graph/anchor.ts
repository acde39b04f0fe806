/**
 * Anchors: what a memory says about a file, pinned to the file's content — its git blob hash, and the
 * part concerned when known (a named definition or a run of lines), with a whitespace-blind hash of
 * that part. Classifying a later state of the file says whether the memory still describes it.
 */
import type { AnchorScope, AnchorState } from '../core/graph.ts';
import { gitBlobHash, whitespaceBlindHash } from './blob-hash.ts';
import { findRegionByHash, findSymbolBlock, regionHash, splitLines, type LineRange } from './code-region.ts';

/**
 * Why an anchor followed the file: only whitespace changed (file scope); the file changed elsewhere
 * than the anchored part (`untouched`); the part moved within the file (`shifted`); the file moved.
 */
export type AnchorUpdate = 'whitespace' | 'untouched' | 'shifted' | 'moved';

/** A file as it is now. */
export interface FileNow {
  path: string;
  content: Buffer;
}

export type AnchorVerdict =
  | { outcome: 'unchanged' }
  /** The memory still holds: the anchor follows the file (whitespace-only, lines moved, file moved). */
  | { outcome: 'updated'; reason: AnchorUpdate; anchor: AnchorState }
  /** The anchored part changed or the file is gone: the memory is stale. */
  | { outcome: 'stale'; reason: 'changed' | 'deleted'; detail: string };

/** Anchor a memory to a file: a symbol when the file defines it, else lines when given, else the file. */
export function createAnchor(
  file: FileNow,
  hint: { symbol?: string | undefined; lines?: LineRange | undefined } = {},
): AnchorState {
  const text = file.content.toString('utf8');
  const base = { path: file.path, blobHash: gitBlobHash(file.content), size: file.content.length };
  const lines = splitLines(text);
  if (hint.symbol) {
    const block = findSymbolBlock(text, hint.symbol);
    if (block)
      return {
        ...base,
        scope: { kind: 'symbol', name: hint.symbol, ...block },
        partHash: regionHash(lines, block),
      };
  }
  if (
    hint.lines &&
    hint.lines.start >= 1 &&
    hint.lines.end <= lines.length &&
    hint.lines.start <= hint.lines.end
  )
    return { ...base, scope: { kind: 'lines', ...hint.lines }, partHash: regionHash(lines, hint.lines) };
  return { ...base, scope: { kind: 'file' }, partHash: whitespaceBlindHash(text) };
}

/** Where the anchored part is in `text` now, or null when it is no longer there. */
function locate(anchor: AnchorState, text: string): { scope: AnchorScope; partHash: string } | null {
  const { scope } = anchor;
  if (scope.kind === 'file') {
    const hash = whitespaceBlindHash(text);
    return hash === anchor.partHash ? { scope, partHash: hash } : null;
  }
  const lines = splitLines(text);
  if (scope.kind === 'symbol') {
    const block = findSymbolBlock(text, scope.name);
    if (!block || regionHash(lines, block) !== anchor.partHash) return null;
    return { scope: { ...scope, ...block }, partHash: anchor.partHash };
  }
  const found = findRegionByHash(lines, anchor.partHash, scope);
  return found ? { scope: { kind: 'lines', ...found }, partHash: anchor.partHash } : null;
}

function describe(scope: AnchorScope): string {
  if (scope.kind === 'symbol') return `${scope.name} (lines ${scope.start}-${scope.end})`;
  if (scope.kind === 'lines') return `lines ${scope.start}-${scope.end}`;
  return '';
}

/**
 * Classify the file's current state against an anchor. `current` is the file at the anchored path
 * (null when it is gone); `movedCandidates` lists where it may have gone, asked only when it is gone.
 */
export function classifyAnchor(
  anchor: AnchorState,
  current: FileNow | null,
  movedCandidates: (anchor: AnchorState) => Iterable<FileNow> = () => [],
): AnchorVerdict {
  if (current === null) {
    for (const moved of movedCandidates(anchor)) {
      const found = locate(anchor, moved.content.toString('utf8'));
      if (!found) continue;
      return {
        outcome: 'updated',
        reason: 'moved',
        anchor: {
          ...anchor,
          ...found,
          path: moved.path,
          blobHash: gitBlobHash(moved.content),
          size: moved.content.length,
        },
      };
    }
    return { outcome: 'stale', reason: 'deleted', detail: `${anchor.path} was deleted` };
  }
  const blobHash = gitBlobHash(current.content);
  if (blobHash === anchor.blobHash) return { outcome: 'unchanged' };
  const found = locate(anchor, current.content.toString('utf8'));
  if (!found)
    return {
      outcome: 'stale',
      reason: 'changed',
      detail:
        anchor.scope.kind === 'file'
          ? `${anchor.path} changed`
          : `${describe(anchor.scope)} of ${anchor.path} changed`,
    };
  const reason: AnchorUpdate =
    found.scope.kind === 'file' || anchor.scope.kind === 'file'
      ? 'whitespace'
      : found.scope.start === anchor.scope.start && found.scope.end === anchor.scope.end
        ? 'untouched'
        : 'shifted';
  return {
    outcome: 'updated',
    reason,
    anchor: { ...anchor, ...found, blobHash, size: current.content.length },
  };
}

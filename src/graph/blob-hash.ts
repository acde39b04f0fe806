/**
 * Content hashes for anchors: git's blob hash (computed without git) and a whitespace-blind hash that
 * tells a whitespace-only change from a real one (what `git diff -w` ignores, this ignores too).
 */
import { createHash } from 'node:crypto';

/** Git's object id of a file's content: sha1 of `blob <byte length>\0<content>`. */
export function gitBlobHash(content: Buffer | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A hash of text with every whitespace character removed: equal for whitespace-only changes. */
export function whitespaceBlindHash(text: string): string {
  return createHash('sha1').update(text.replace(/\s+/g, '')).digest('hex').slice(0, 20);
}

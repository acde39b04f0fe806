/**
 * Small text helpers shared by the distillers.
 */

/** Collapse whitespace and cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The first sentence (or line) of a text, clipped. */
export function firstSentence(text: string, max: number): string {
  const trimmed = text.trim();
  const line = trimmed.split(/\n/).find((l) => l.trim() !== '') ?? '';
  const m = /^(.+?[.!?])(?:\s|$)/.exec(line);
  return clip(m?.[1] && m[1].length >= 12 ? m[1] : line, max);
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A path relative to the project root when it lies inside it. */
export function relativePath(path: string, root: string): string {
  if (path === '') return path;
  const r = root.endsWith('/') ? root : `${root}/`;
  return path.startsWith(r) ? path.slice(r.length) : path;
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Text of a tool response, whatever its shape (string, {stdout, stderr}, content blocks). */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  const r = asRecord(response);
  const parts = [asString(r['stdout']), asString(r['stderr']), asString(r['output']), asString(r['result'])];
  const content = r['content'];
  if (typeof content === 'string') parts.push(content);
  if (Array.isArray(content)) {
    for (const block of content) parts.push(asString(asRecord(block)['text']));
  }
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * The content hash of a synced record: SHA-256 over canonical JSON (keys sorted, no spaces) of its
 * kind, id, tombstone flag and body. Client and server compute it alike; a push is idempotent by
 * entity id + base version + this hash.
 */
import { hash } from 'node:crypto';

/** Append the canonical JSON of `value` to `out` (one string built by appending, no per-level arrays). */
function write(value: unknown, out: string): string {
  if (typeof value === 'string') return out + JSON.stringify(value);
  if (value === null || typeof value !== 'object') return out + (JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    out += '[';
    for (let i = 0; i < value.length; i++) out = write(value[i], i === 0 ? out : `${out},`);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  // Default sort order is by UTF-16 code units, the same order as comparing the strings with `<`.
  const keys = Object.keys(obj).sort();
  out += '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out = write(v, `${first ? out : `${out},`}${JSON.stringify(k)}:`);
    first = false;
  }
  return `${out}}`;
}

/** JSON with object keys sorted at every depth (undefined members dropped, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  return write(value, '');
}

export function recordHash(kind: string, id: string, deleted: boolean, body: unknown): string {
  // canonicalJson({ kind, id, deleted, body }) with its keys already in order: body, deleted, id, kind.
  const text = `{"body":${canonicalJson(deleted ? null : body)},"deleted":${deleted},"id":${JSON.stringify(id)},"kind":${JSON.stringify(kind)}}`;
  // (crypto.hash: one call for a short input, without a Hash object per record.)
  return hash('sha256', text, 'hex');
}

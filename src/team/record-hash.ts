/**
 * The content hash of a synced record: SHA-256 over canonical JSON (keys sorted, no spaces) of its
 * kind, id, tombstone flag and body. Client and server compute it alike; a push is idempotent by
 * entity id + base version + this hash.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth (undefined members dropped, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function recordHash(kind: string, id: string, deleted: boolean, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ kind, id, deleted, body: deleted ? null : body }))
    .digest('hex');
}

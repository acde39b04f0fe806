/**
 * The content hash of a synced record: SHA-256 over canonical JSON (keys sorted, no spaces) of its
 * kind, id, tombstone flag and body. Client and server compute it alike; a push is idempotent by
 * entity id + base version + this hash.
 */
import { hash } from 'node:crypto';

/** Every object key anywhere inside a value. */
function keysIn(value: unknown, keys: Set<string>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) keysIn(v, keys);
    return;
  }
  for (const k of Object.keys(value)) {
    keys.add(k);
    keysIn((value as Record<string, unknown>)[k], keys);
  }
}

/**
 * JSON with object keys sorted at every depth (undefined members dropped, as JSON.stringify does).
 * Written by JSON.stringify itself: given the sorted list of every key in the value, it writes each
 * object's members in that order (sorted by UTF-16 code units, the default sort). Wire values are
 * plain JSON data (no toJSON, functions or symbols), for which this is the sort-and-join definition
 * the differential test keeps it equal to.
 */
export function canonicalJson(value: unknown): string {
  const keys = new Set<string>();
  keysIn(value, keys);
  return JSON.stringify(value, [...keys].sort()) ?? 'null';
}

const isPlainObject = (v: object): boolean =>
  Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null;

/**
 * The same value with every plain object's keys in canonical order, so JSON.stringify writes it as
 * canonicalJson does. A client pushes bodies so: the server's record check then takes the text
 * JSON.stringify writes instead of sorting (record-check.ts). An object with a `__proto__` key is
 * left as it is, and integer-like keys still come first (objects list them so): the server sorts
 * those bodies itself, so the order is a saving, never a condition.
 */
export function inCanonicalOrder<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(inCanonicalOrder) as T;
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value).sort();
  if (keys.includes('__proto__')) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = inCanonicalOrder((value as Record<string, unknown>)[k]);
  return out as T;
}

export function recordHash(kind: string, id: string, deleted: boolean, body: unknown): string {
  return recordHashOfJson(kind, id, deleted, canonicalJson(deleted ? null : body));
}

/**
 * recordHash from the body's canonical JSON already written (`canonicalJson(body)`, or `null` for a
 * tombstone): the server's record check writes it once, hashes it and stores the same text.
 */
export function recordHashOfJson(kind: string, id: string, deleted: boolean, bodyJson: string): string {
  // canonicalJson({ kind, id, deleted, body }) with its keys already in order: body, deleted, id, kind.
  const text = `{"body":${bodyJson},"deleted":${deleted},"id":${JSON.stringify(id)},"kind":${JSON.stringify(kind)}}`;
  // (crypto.hash: one call for a short input, without a Hash object per record.)
  return hash('sha256', text, 'hex');
}

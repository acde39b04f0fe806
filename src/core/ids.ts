/**
 * Branded, prefixed, time-sortable identifiers.
 */
import type * as CryptoModule from 'node:crypto';
// node:crypto costs ~1.3 ms to load; the capture hook never needs it, so it is loaded on first use.
const crypto = () => process.getBuiltinModule('node:crypto') as typeof CryptoModule;

declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

export type ObservationId = Brand<string, 'ObservationId'>;
export type ProjectId = Brand<string, 'ProjectId'>;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function encodeTime(ms: number, length: number): string {
  let out = '';
  let value = Math.max(0, Math.floor(ms));
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeRandom(length: number): string {
  const bytes = crypto().randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return out;
}

/** A sortable id: prefix, 10 chars of millisecond time, 10 random chars. */
export function newSortableId(prefix: string, nowMs: number): string {
  return `${prefix}_${encodeTime(nowMs, 10)}${encodeRandom(10)}`;
}

export function newObservationId(nowMs: number): ObservationId {
  return newSortableId('obs', nowMs) as ObservationId;
}

/** 32-bit FNV-1a-style hash over UTF-16 code units with a given offset basis and multiplier. */
function fnv1a(text: string, basis: number, prime: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, prime) >>> 0;
  }
  return h >>> 0;
}

/**
 * Project ids are stable: derived from the identity key, so every machine computes the same one.
 * Two independent 32-bit FNV-1a hashes (64 bits): no crypto module on the hook's path, and ample for
 * telling one user's projects apart.
 */
export function projectIdFromKey(key: string): ProjectId {
  return `prj_${hash64Hex(key)}` as ProjectId;
}

/** 8 hex digits of FNV-1a: a short stable name for a text (not for telling many thousands apart). */
export function hash32Hex(text: string): string {
  return fnv1a(text, 0x811c9dc5, 0x01000193).toString(16).padStart(8, '0');
}

/** 16 hex digits from two independent FNV-1a hashes: a stable name for a key, without the crypto module. */
export function hash64Hex(text: string): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(fnv1a(text, 0x811c9dc5, 0x01000193))}${hex(fnv1a(text, 0x5bd1e995, 0x2127599b))}`;
}

export function isObservationId(value: string): value is ObservationId {
  return /^obs_[0-9a-z]{20}$/.test(value);
}

export function contentHash(parts: readonly string[]): string {
  const hash = crypto().createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex').slice(0, 32);
}

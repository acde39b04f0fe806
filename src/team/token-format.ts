/**
 * Team tokens: `egr_` + 30 random base62 characters + a 6-character base62 CRC32 of them. The prefix
 * lets secret scanners (engram's own scrubber included) recognise a leaked token; the checksum lets
 * the server turn away a mistyped or made-up token without a database lookup. The server keeps only
 * the SHA-256 of a token, so a token is shown once, when it is made.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIX = 'egr_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 30;
const CHECK_CHARS = 6;
const TOKEN_RE = /^egr_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

function base62(value: number, width: number): string {
  let out = '';
  let n = value >>> 0;
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECK_CHARS);
}

/** A fresh token (shown once to its owner, never stored). */
export function newToken(): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let body = '';
  while (body.length < RANDOM_CHARS) {
    for (const byte of randomBytes(RANDOM_CHARS * 2)) {
      if (byte < 248 && body.length < RANDOM_CHARS) body += BASE62[byte % 62];
    }
  }
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** Shape and checksum are right (says nothing about whether the server knows the token). */
export function isWellFormedToken(token: string): boolean {
  const m = TOKEN_RE.exec(token);
  return m !== null && checksum(m[1] as string) === m[2];
}

/** What the server stores and looks tokens up by. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

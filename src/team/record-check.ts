/**
 * The server's own check of a pushed record (what every client checks before pushing, done again):
 * storable text, the hash, the body's shape and size, and no secret in it. A sealed body is checked
 * for its shape only (the client scanned the plain text before sealing).
 */
import { unstorableCharacter } from '../core/clean-text.ts';
import { scrubTextWithCount } from '../core/scrub.ts';
import {
  isSealed,
  linkBodySchema,
  MAX_RECORD_CHARS,
  memoryBodySchema,
  sealedBodySchema,
  summaryBodySchema,
  type PushRecord,
} from './protocol.ts';
import { canonicalJson, recordHashOfJson } from './record-hash.ts';

const BODY_SCHEMAS = { memory: memoryBodySchema, summary: summaryBodySchema, link: linkBodySchema };

/** In one walk: every string inside a value (`texts`), and those with every object key, in order (`all`). */
function stringsOf(value: unknown, texts: string[], all: string[]): void {
  if (typeof value === 'string') {
    texts.push(value);
    all.push(value);
  } else if (Array.isArray(value)) for (const v of value) stringsOf(v, texts, all);
  else if (value && typeof value === 'object')
    for (const k of Object.keys(value)) {
      all.push(k);
      stringsOf((value as Record<string, unknown>)[k], texts, all);
    }
}

/** What in a record PostgreSQL could not store (a NUL, half a surrogate pair), or null. */
function unstorableIn(id: string, all: readonly string[]): string | null {
  for (const text of [id, ...all]) {
    const found = unstorableCharacter(text);
    if (found !== null) return `it holds ${found}, which the server cannot store`;
  }
  return null;
}

/**
 * Why a record may not be stored (`reason`, null when it may), and the body's JSON text when it may (a
 * tombstone's null), so the push writes the text it measured instead of serialising the body again.
 */
export function checkRecord(r: PushRecord): { reason: string | null; json: string | null } {
  const no = (reason: string) => ({ reason, json: null });
  const texts: string[] = [];
  const all: string[] = [];
  stringsOf(r.body, texts, all);
  const unstorable = unstorableIn(r.id, all);
  if (unstorable !== null) return no(unstorable);
  // The body's canonical JSON, written once: hashed here and stored as it is (the members
  // JSON.stringify writes, in another order, which jsonb does not keep: the same stored value, the
  // same length).
  const canonical = canonicalJson(r.deleted ? null : r.body);
  if (r.hash !== recordHashOfJson(r.kind, r.id, r.deleted, canonical))
    return no('its hash does not match its content');
  if (r.deleted) return r.body === null ? { reason: null, json: null } : no('a tombstone carries no body');
  // A sealed body is checked for its shape only: the client scanned the plain text before sealing.
  if (isSealed(r.body)) {
    const sealed = sealedBodySchema.safeParse(r.body);
    return sealed.success
      ? { reason: null, json: canonical }
      : no(`malformed sealed ${r.kind}: ${sealed.error.issues[0]?.message ?? 'invalid'}`);
  }
  const parsed = BODY_SCHEMAS[r.kind].safeParse(r.body);
  if (!parsed.success) return no(`malformed ${r.kind}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const json = canonical;
  if (json.length > MAX_RECORD_CHARS) return no(`larger than ${MAX_RECORD_CHARS} characters`);
  for (const text of texts) {
    if (scrubTextWithCount(text).redactions > 0) return no('it holds what looks like a secret');
  }
  return { reason: null, json };
}

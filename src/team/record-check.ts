/**
 * The server's own check of a pushed record (what every client checks before pushing, done again):
 * storable text, the hash, the body's shape and size, and no secret in it. A sealed body is checked
 * for its shape only (the client scanned the plain text before sealing).
 *
 * Done once per record on every push, so written to cost little: one walk over the body gathers what
 * the checks need (the first character PostgreSQL cannot store, the strings to scan, whether every
 * object's keys are already in canonical order — then JSON.stringify writes the canonical JSON without
 * a key list); a body's shape is asked of the quick checks (shape-check.ts) and of its zod schema only
 * when they are unsure. Every verdict and message is the one the checks gave before
 * (record-check.test.ts holds it to that earlier check, kept there, over good and bad records).
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
import { quickBodyShape } from './shape-check.ts';

const BODY_SCHEMAS = { memory: memoryBodySchema, summary: summaryBodySchema, link: linkBodySchema };

/** What one walk over a body found. */
interface Walk {
  /** Every string inside the value, in order (object keys not included). */
  texts: string[];
  /** The first character PostgreSQL cannot store, keys included (each key before its value), or null. */
  unstorable: string | null;
  /** Every object's own keys are in ascending UTF-16 order, as canonical JSON writes them (none `__proto__`). */
  sorted: boolean;
}

/** Walk `value` into `w`; false once an unstorable character is found (the walk stops there). */
function walk(value: unknown, w: Walk): boolean {
  if (typeof value === 'string') {
    w.unstorable = unstorableCharacter(value);
    if (w.unstorable !== null) return false;
    w.texts.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) if (!walk(v, w)) return false;
  } else if (value && typeof value === 'object') {
    let previous: string | undefined;
    for (const k of Object.keys(value)) {
      w.unstorable = unstorableCharacter(k);
      if (w.unstorable !== null) return false;
      // (canonicalJson's key list makes JSON.stringify write `__proto__` for every object, read
      // through the prototype: a body with that key anywhere goes its way.)
      if ((previous !== undefined && !(previous < k)) || k === '__proto__') w.sorted = false;
      previous = k;
      if (!walk((value as Record<string, unknown>)[k], w)) return false;
    }
  }
  return true;
}

/**
 * The canonical JSON of a walked body: when every object's keys are already in canonical order,
 * JSON.stringify's own order (Object.keys') is that order, so it writes the same text without a key
 * list; otherwise canonicalJson sorts them.
 */
const canonicalOf = (body: unknown, w: Walk): string =>
  w.sorted ? (JSON.stringify(body) ?? 'null') : canonicalJson(body);

/**
 * Why a record may not be stored (`reason`, null when it may), and the body's JSON text when it may (a
 * tombstone's null), so the push writes the text it measured instead of serialising the body again.
 */
export function checkRecord(r: PushRecord): { reason: string | null; json: string | null } {
  const no = (reason: string) => ({ reason, json: null });
  const idUnstorable = unstorableCharacter(r.id);
  if (idUnstorable !== null) return no(`it holds ${idUnstorable}, which the server cannot store`);
  const w: Walk = { texts: [], unstorable: null, sorted: true };
  if (!walk(r.body, w)) return no(`it holds ${w.unstorable}, which the server cannot store`);
  // The body's canonical JSON, written once: hashed here and stored as it is (the members
  // JSON.stringify writes, in another order, which jsonb does not keep: the same stored value, the
  // same length).
  const canonical = r.deleted ? 'null' : canonicalOf(r.body, w);
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
  if (!quickBodyShape(r.kind, r.body)) {
    const parsed = BODY_SCHEMAS[r.kind].safeParse(r.body);
    if (!parsed.success) return no(`malformed ${r.kind}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  const json = canonical;
  if (json.length > MAX_RECORD_CHARS) return no(`larger than ${MAX_RECORD_CHARS} characters`);
  for (const text of w.texts) {
    if (scrubTextWithCount(text).redactions > 0) return no('it holds what looks like a secret');
  }
  return { reason: null, json };
}

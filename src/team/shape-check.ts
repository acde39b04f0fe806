/**
 * Quick acceptance checks for the shapes the server checks most often — a push request and a memory,
 * summary or link body — written out by hand, so a well-formed push costs no zod walk. Each answers
 * true only for a value its zod schema in protocol.ts accepts too; on false the caller asks the schema
 * itself, whose verdict and message stand. So these can never make a check laxer (shape-check.test.ts
 * holds each to its schema over generated values, good and bad), only cheaper; a shape they do not
 * know, or a value they are unsure of, simply goes to zod.
 */
import { ENTITY_KINDS, MAX_PUSH_RECORDS } from './protocol.ts';

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const text = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;
const textOrNull = (v: unknown, max: number): boolean => v === null || text(v, max);
const list = (v: unknown, max: number, each: number): boolean => {
  if (!Array.isArray(v) || v.length > max) return false;
  for (const x of v) if (!text(x, each)) return false;
  return true;
};
/** z.number().int().nonnegative(): zod's int is a safe integer. */
const count = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const MEMORY_STATUSES: readonly unknown[] = ['active', 'superseded', 'invalidated', 'archived'];

/** memoryBodySchema accepts it (unknown extra members too, as zod's object does). */
function memoryBody(b: Plain): boolean {
  return (
    text(b['type'], 40) &&
    text(b['title'], 2000) &&
    text(b['subtitle'], 4000) &&
    text(b['narrative'], 40_000) &&
    list(b['facts'], 200, 2000) &&
    list(b['concepts'], 200, 200) &&
    list(b['filesRead'], 500, 1000) &&
    list(b['filesModified'], 500, 1000) &&
    textOrNull(b['sessionId'], 200) &&
    text(b['source'], 40) &&
    MEMORY_STATUSES.includes(b['status']) &&
    textOrNull(b['statusReason'], 2000) &&
    textOrNull(b['supersedes'], 100) &&
    count(b['createdAt']) &&
    (b['conflictsWith'] === undefined || textOrNull(b['conflictsWith'], 100)) &&
    (b['pinned'] === undefined || typeof b['pinned'] === 'boolean')
  );
}

/** summaryBodySchema accepts it. */
function summaryBody(b: Plain): boolean {
  return (
    text(b['sessionId'], 200) &&
    text(b['request'], 8000) &&
    text(b['investigated'], 8000) &&
    text(b['learned'], 8000) &&
    text(b['completed'], 8000) &&
    text(b['nextSteps'], 8000) &&
    list(b['filesRead'], 500, 1000) &&
    list(b['filesEdited'], 500, 1000) &&
    text(b['notes'], 8000) &&
    typeof b['final'] === 'boolean' &&
    count(b['updatedAt'])
  );
}

/** linkBodySchema accepts it. */
const linkBody = (b: Plain): boolean => text(b['from'], 100) && text(b['kind'], 40) && text(b['to'], 1000);

const BODIES = { memory: memoryBody, summary: summaryBody, link: linkBody };

/** The body schema of `kind` (memory, summary, link) surely accepts `body`; false: ask the schema. */
export function quickBodyShape(kind: 'memory' | 'summary' | 'link', body: unknown): boolean {
  return isPlain(body) && BODIES[kind](body);
}

const HASH = /^[0-9a-f]{64}$/;

/** pushRequestSchema surely accepts `raw` (and would give it back unchanged but for extra members). */
export function quickPushRequest(raw: unknown): boolean {
  if (!isPlain(raw)) return false;
  const records = raw['records'];
  if (!Array.isArray(records) || records.length < 1 || records.length > MAX_PUSH_RECORDS) return false;
  for (const r of records) {
    if (!isPlain(r)) return false;
    const id = r['id'];
    const base = r['baseVersion'];
    const hash = r['hash'];
    if (
      !(ENTITY_KINDS as readonly unknown[]).includes(r['kind']) ||
      typeof id !== 'string' ||
      id.length < 1 ||
      id.length > 1200 ||
      !(base === null || count(base)) ||
      typeof hash !== 'string' ||
      !HASH.test(hash) ||
      typeof r['deleted'] !== 'boolean' ||
      !('body' in r)
    )
      return false;
  }
  return true;
}

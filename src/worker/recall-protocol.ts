/**
 * The worker's recall folder, in its files: one JSON line in (a prompt query, `<name>.q`), one JSON line
 * out (what the prompt hook would have rendered itself, `<name>.a`), and the door that says which
 * worker answers there. Each line carries the protocol's version and the build of the code that wrote
 * it: the hook takes an answer only from its own build (the same code over the same store gives the
 * same bytes) and only in a shape it checks field by field, since what it takes goes into the agent's
 * context and the inbox.
 *
 * Loaded by the hook's capture bundle: plain data only, no imports that do anything.
 */
import type { DroppedLine, InjectedItem } from '../core/model.ts';
import type { RenderedContext } from '../recall/context-lines.ts';
import type { PromptQuery } from '../recall/prompt-query.ts';

export const RECALL_PROTOCOL = 1;
/** The longest line either side reads (a prompt is capped at capture; an answer by its token budget). */
export const RECALL_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** The door of the recall folder: the answering worker's pid and build, one JSON line. */
export const DOOR_FILE = 'door';
export const QUESTION_SUFFIX = '.q';
export const ANSWER_SUFFIX = '.a';

export type RecallReply =
  | { v: number; build: string; ok: true; context: RenderedContext }
  | { v: number; build: string; ok: false; error: string };

export const requestLine = (build: string, query: PromptQuery): string =>
  `${JSON.stringify({ v: RECALL_PROTOCOL, build, op: 'prompt', query })}\n`;

export const replyLine = (reply: RecallReply): string => `${JSON.stringify(reply)}\n`;

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isString = (x: unknown): x is string => typeof x === 'string';
const everyOf = <T>(x: unknown, each: (y: unknown) => y is T): x is T[] => Array.isArray(x) && x.every(each);

const isLoadedFile = (x: unknown): x is PromptQuery['files'][number] =>
  isString(x) || (isRecord(x) && isString(x['path']) && isNumber(x['firstLines']));

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** The door's line as the hook reads it: the worker's pid, or why no worker of this build answers. */
export function parseDoor(line: string, build: string): Parsed<number> {
  const r = parseJson(line);
  if (!isRecord(r) || !isNumber(r['pid']) || r['pid'] <= 0) return { ok: false, error: 'a malformed door' };
  if (r['v'] !== RECALL_PROTOCOL)
    return { ok: false, error: `protocol ${String(r['v'])}, not ${RECALL_PROTOCOL}` };
  if (r['build'] !== build) return { ok: false, error: 'another build answers' };
  return { ok: true, value: r['pid'] };
}

/** A request line as the worker reads it: the query, or why it is not answered. */
export function parseRequest(line: string, build: string): Parsed<PromptQuery> {
  const r = parseJson(line);
  if (!isRecord(r)) return { ok: false, error: 'not a JSON object' };
  if (r['v'] !== RECALL_PROTOCOL)
    return { ok: false, error: `protocol ${String(r['v'])}, not ${RECALL_PROTOCOL}` };
  if (r['build'] !== build) return { ok: false, error: 'another build' };
  if (r['op'] !== 'prompt') return { ok: false, error: `unknown op ${JSON.stringify(r['op'])}` };
  const q = r['query'];
  if (
    !isRecord(q) ||
    !isString(q['projectId']) ||
    !isString(q['root']) ||
    !everyOf(q['files'], isLoadedFile) ||
    !isString(q['sessionId']) ||
    !isString(q['prompt']) ||
    !isNumber(q['now']) ||
    !isNumber(q['budgetTokens']) ||
    !isNumber(q['maxItems']) ||
    !isNumber(q['minScore'])
  )
    return { ok: false, error: 'a malformed query' };
  return { ok: true, value: q as unknown as PromptQuery };
}

const WHY = new Set<unknown>(['standing', 'recent', 'stale', 'match']);

const isItem = (x: unknown): x is InjectedItem =>
  isRecord(x) &&
  isString(x['id']) &&
  isNumber(x['tokens']) &&
  (x['score'] === null || isNumber(x['score'])) &&
  WHY.has(x['why']);

const isDropped = (x: unknown): x is DroppedLine =>
  isRecord(x) &&
  (x['id'] === null || isString(x['id'])) &&
  isString(x['rule']) &&
  isString(x['category']) &&
  isString(x['excerpt']);

/** A reply line as the hook reads it: the context, or why it is not taken (then the hook renders it). */
export function parseReply(line: string, build: string): Parsed<RenderedContext> {
  const r = parseJson(line);
  if (!isRecord(r)) return { ok: false, error: 'not a JSON object' };
  if (r['v'] !== RECALL_PROTOCOL)
    return { ok: false, error: `protocol ${String(r['v'])}, not ${RECALL_PROTOCOL}` };
  if (r['build'] !== build) return { ok: false, error: 'another build answered' };
  if (r['ok'] !== true) return { ok: false, error: isString(r['error']) ? r['error'] : 'refused' };
  const c = r['context'];
  if (
    !isRecord(c) ||
    !isString(c['text']) ||
    !isNumber(c['tokens']) ||
    !everyOf(c['observationIds'], isString) ||
    !everyOf(c['items'], isItem) ||
    !everyOf(c['dropped'], isDropped)
  )
    return { ok: false, error: 'a malformed answer' };
  return {
    ok: true,
    value: {
      text: c['text'],
      tokens: c['tokens'],
      observationIds: c['observationIds'],
      items: c['items'],
      dropped: c['dropped'],
    },
  };
}

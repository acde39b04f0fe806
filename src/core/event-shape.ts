/**
 * Checking that a value read back from disk (an inbox file, an event row) really is a captured event
 * of a known kind with the fields that kind needs. Anything else is named, not crashed on.
 */
import type { CapturedEvent } from './model.ts';

type Check = (e: Record<string, unknown>) => string | null;

const isStr = (v: unknown) => typeof v === 'string';
const isBool = (v: unknown) => typeof v === 'boolean';
const optStr = (v: unknown) => v === undefined || typeof v === 'string';
const optNum = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));
const need = (e: Record<string, unknown>, fields: [string, (v: unknown) => boolean, string][]) => {
  for (const [name, ok, what] of fields) if (!ok(e[name])) return `event.${name} must be ${what}`;
  return null;
};

const KINDS: Record<CapturedEvent['kind'], Check> = {
  session_start: (e) =>
    need(e, [
      ['source', isStr, 'a string'],
      ['model', optStr, 'a string'],
    ]),
  prompt: (e) => need(e, [['prompt', isStr, 'a string']]),
  tool: (e) =>
    need(e, [
      ['tool', isStr, 'a string'],
      ['toolUseId', optStr, 'a string'],
      ['durationMs', optNum, 'a number'],
      ['agentId', optStr, 'a string'],
    ]) ?? ('input' in e && 'response' in e ? null : 'a tool event needs input and response'),
  tool_failure: (e) =>
    need(e, [
      ['tool', isStr, 'a string'],
      ['error', isStr, 'a string'],
      ['interrupted', isBool, 'true or false'],
      ['toolUseId', optStr, 'a string'],
      ['durationMs', optNum, 'a number'],
    ]) ?? ('input' in e ? null : 'a tool failure needs its input'),
  stop: (e) => need(e, [['lastMessage', isStr, 'a string']]),
  subagent_stop: (e) =>
    need(e, [
      ['agentId', isStr, 'a string'],
      ['agentType', isStr, 'a string'],
      ['lastMessage', isStr, 'a string'],
    ]),
  pre_compact: (e) =>
    need(e, [
      ['trigger', isStr, 'a string'],
      ['instructions', isStr, 'a string'],
    ]),
  post_compact: (e) =>
    need(e, [
      ['trigger', isStr, 'a string'],
      ['summary', isStr, 'a string'],
    ]),
  session_end: (e) => need(e, [['reason', isStr, 'a string']]),
};

/** Why `value` is not a captured event, or null when it is one. */
export function capturedEventProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'event must be an object';
  const e = value as Record<string, unknown>;
  const kind = e['kind'];
  if (typeof kind !== 'string') return 'event.kind is missing';
  const check = (KINDS as Record<string, Check | undefined>)[kind];
  if (!check) return `unknown event kind "${kind}"`;
  return check(e);
}

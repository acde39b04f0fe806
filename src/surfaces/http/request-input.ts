/**
 * Reading a request's input: its query as a plain record, its JSON body as an object, and checked
 * fields of it. Anything malformed is an INPUT_INVALID error (HTTP 400) that says what to send.
 */
import type { Context } from 'hono';
import { EngramError } from '../../core/errors.ts';
import type { ProjectId } from '../../core/ids.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../core/json-depth.ts';

export function queryOf(c: Context): Record<string, string> {
  return c.req.query();
}

/** The body as a JSON object; not JSON, not an object, or nested past MAX_JSON_DEPTH: INPUT_INVALID. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (nestsDeeperThan(text))
    throw new EngramError(
      'INPUT_INVALID',
      `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
      {
        hint: 'Send a flat JSON object.',
      },
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EngramError('INPUT_INVALID', 'the request body must be JSON', {
      hint: 'Send Content-Type: application/json with an object.',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new EngramError('INPUT_INVALID', 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}

export function optionalString(
  body: Record<string, unknown>,
  key: string,
  max = 100_000,
): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new EngramError('INPUT_INVALID', `${key} must be a string`);
  if (v.length > max) throw new EngramError('INPUT_INVALID', `${key} is longer than ${max} characters`);
  return v;
}

export function optionalStrings(body: Record<string, unknown>, key: string): string[] | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw new EngramError('INPUT_INVALID', `${key} must be a list of strings`);
  return v as string[];
}

export function optionalBoolean(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new EngramError('INPUT_INVALID', `${key} must be true or false`);
  return v;
}

export function requiredBoolean(body: Record<string, unknown>, key: string): boolean {
  const v = body[key];
  if (typeof v !== 'boolean') throw new EngramError('INPUT_INVALID', `${key} must be true or false`);
  return v;
}

/** A whole number query parameter within bounds, or its default. */
export function intParam(
  text: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new EngramError('INPUT_INVALID', `${name} takes a whole number from ${min} to ${max}`);
  return n;
}

/** A `project` parameter: a project id, or null when absent. */
export function projectParam(text: string | undefined): ProjectId | null {
  if (text === undefined || text === '') return null;
  if (!/^prj_[0-9a-f]{16}$/.test(text))
    throw new EngramError('INPUT_INVALID', `"${text}" is not a project id`);
  return text as ProjectId;
}

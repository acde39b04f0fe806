/**
 * Scrub and size-cap a JSON-like value in one pass. Long strings are cut before scrubbing (with a
 * margin, so a secret straddling the cut is still recognised whole), then cut to the limit.
 */
import { scrubbingTogether, scrubText } from '../core/scrub.ts';
import type { Json } from '../core/model.ts';

const SCRUB_MARGIN = 1024;
const MAX_ITEMS = 200;
const MAX_DEPTH = 12;

export interface SizeLimits {
  maxFieldChars: number;
  maxEventBytes: number;
}

function cutString(text: string, maxChars: number): string {
  if (text.length <= maxChars) return scrubText(text);
  const scrubbed = scrubText(text.slice(0, maxChars + SCRUB_MARGIN));
  return `${scrubbed.slice(0, maxChars)}…[truncated ${text.length - maxChars} chars]`;
}

function limitValue(value: unknown, maxChars: number, depth: number): Json {
  if (typeof value === 'string') return cutString(value, maxChars);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => limitValue(v, maxChars, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`[${value.length - MAX_ITEMS} more items]`);
    return items;
  }
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    let n = 0;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (n++ >= MAX_ITEMS) {
        out['…'] = '[more keys omitted]';
        break;
      }
      if (v === undefined || typeof v === 'function') continue;
      out[k.length > 200 ? k.slice(0, 200) : k] = limitValue(v, maxChars, depth + 1);
    }
    return out;
  }
  return null;
}

const jsonBytes = (value: Json): number => Buffer.byteLength(JSON.stringify(value));

/**
 * Scrubbed, capped copy of `value` whose JSON is at most `maxEventBytes` (shrinking field caps as needed).
 * Its strings are scrubbed together: a line met again in another field is not scrubbed twice.
 */
export function scrubAndLimit(value: unknown, limits: SizeLimits): Json {
  return scrubbingTogether(() => {
    let maxChars = limits.maxFieldChars;
    let out = limitValue(value, maxChars, 0);
    let bytes = jsonBytes(out);
    while (bytes > limits.maxEventBytes && maxChars > 64) {
      maxChars = Math.floor(maxChars / 4);
      out = limitValue(value, maxChars, 0);
      bytes = jsonBytes(out);
    }
    return bytes > limits.maxEventBytes ? '[payload too large]' : out;
  });
}

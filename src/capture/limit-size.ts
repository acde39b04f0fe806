/**
 * Scrub and size-cap a JSON-like value in one pass. Long strings are cut before scrubbing (with a
 * margin, so a secret straddling the cut is still recognised whole), then cut to the limit. A tool's
 * payload that names its file (`file_path`, `filePath`, `path`…) scrubs its strings as that file's
 * text: a config file's (`isConfigFile`) as config whatever its lines count.
 */
import { isConfigFile } from '../core/config-text.ts';
import { scrubbingTogether, scrubTextWithCount } from '../core/scrub.ts';
import type { Json } from '../core/model.ts';

const SCRUB_MARGIN = 1024;
const MAX_ITEMS = 200;
const MAX_DEPTH = 12;

export interface SizeLimits {
  maxFieldChars: number;
  maxEventBytes: number;
}

/**
 * `text` scrubbed and, over `maxChars`, cut: its start kept, and for a command's output (`ends`) its
 * last three quarters too — how it ended (a runner's summary, the error after pages of progress). Each
 * part is cut with a margin before scrubbing, so a secret straddling a cut is still recognised whole.
 */
function cutString(text: string, maxChars: number, config: boolean, ends = false): string {
  const scrub = (t: string) => scrubTextWithCount(t, config).text;
  if (text.length <= maxChars) return scrub(text);
  const headChars = ends ? maxChars >> 2 : maxChars;
  const cut = `…[truncated ${text.length - maxChars} chars]`;
  const head = scrub(text.slice(0, headChars + SCRUB_MARGIN)).slice(0, headChars);
  if (!ends) return head + cut;
  return `${head}\n${cut}…\n${scrub(text.slice(headChars - maxChars - SCRUB_MARGIN)).slice(headChars - maxChars)}`;
}

/** A command's output cut in the middle (see `cutString`): the transcript readers' result text. */
export const cutMiddle = (text: string, maxChars: number, config: boolean): string =>
  cutString(text, maxChars, config, true);

/** Fields that hold a command's output (or its failure's): cut in the middle, not at the end. */
const OUTPUT_KEYS = new Set(['stdout', 'stderr', 'output', 'error']);

/** The keys a tool's input or result names its file by, in every host's spelling. */
const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path', 'target_file'];

/** Whether `value` is an object naming a config file by one of `PATH_KEYS` (a tool's input, say). */
export const namesConfigFile = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  PATH_KEYS.some((k) => {
    const path: unknown = (value as Record<string, unknown>)[k];
    return typeof path === 'string' && isConfigFile(path);
  });

/** A tool's result text scrubbed as the file its `input` names (a config file's as config): transcript readers. */
export const scrubResultText = (text: string, input: unknown): string =>
  scrubTextWithCount(text, namesConfigFile(input)).text;

function limitValue(value: unknown, maxChars: number, depth: number, config: boolean): Json {
  if (typeof value === 'string') return cutString(value, maxChars, config);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => limitValue(v, maxChars, depth + 1, config));
    if (value.length > MAX_ITEMS) items.push(`[${value.length - MAX_ITEMS} more items]`);
    return items;
  }
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    const inFile = config || namesConfigFile(value);
    let n = 0;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (n++ >= MAX_ITEMS) {
        out['…'] = '[more keys omitted]';
        break;
      }
      if (v === undefined || typeof v === 'function') continue;
      out[k.length > 200 ? k.slice(0, 200) : k] =
        typeof v === 'string' && OUTPUT_KEYS.has(k)
          ? cutString(v, maxChars, inFile, true)
          : limitValue(v, maxChars, depth + 1, inFile);
    }
    return out;
  }
  return null;
}

const jsonBytes = (value: Json): number => Buffer.byteLength(JSON.stringify(value));

/**
 * Scrubbed, capped copy of `value` whose JSON is at most `maxEventBytes` (shrinking field caps as needed).
 * Its strings are scrubbed together: a line met again in another field is not scrubbed twice. `input`:
 * the tool's input when `value` is its result, so a result that does not name its file (a read's text)
 * is scrubbed as the file its input names.
 */
export function scrubAndLimit(value: unknown, limits: SizeLimits, input?: unknown): Json {
  const config = namesConfigFile(input);
  return scrubbingTogether(() => {
    let maxChars = limits.maxFieldChars;
    let out = limitValue(value, maxChars, 0, config);
    let bytes = jsonBytes(out);
    while (bytes > limits.maxEventBytes && maxChars > 64) {
      maxChars = Math.floor(maxChars / 4);
      out = limitValue(value, maxChars, 0, config);
      bytes = jsonBytes(out);
    }
    return bytes > limits.maxEventBytes ? '[payload too large]' : out;
  });
}

/**
 * POST a JSON body and read a JSON reply, mapping every failure to an `LLM_*` error: the caller's
 * signal (a timeout) → LLM_TIMEOUT, a non-2xx status → LLM_HTTP (with the status), a refused
 * connection → LLM_NETWORK, a body that is not JSON → LLM_MALFORMED.
 */
import { EngramError } from '../../core/errors.ts';
import type { FetchLike } from '../../core/llm.ts';

export async function postJson(
  fetch: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted)
      throw new EngramError('LLM_TIMEOUT', `no answer from ${url} in time`, { cause: error });
    throw new EngramError('LLM_NETWORK', `cannot reach ${url}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal.aborted)
      throw new EngramError('LLM_TIMEOUT', `the answer from ${url} was cut off`, { cause: error });
    throw new EngramError('LLM_NETWORK', `reading the answer from ${url} failed`, { cause: error });
  }
  if (!response.ok) {
    throw new EngramError('LLM_HTTP', `HTTP ${response.status} from ${url}: ${text.slice(0, 200)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngramError('LLM_MALFORMED', `the answer from ${url} is not JSON: ${text.slice(0, 120)}`, {
      cause: error,
    });
  }
}

/** `base` without trailing slashes, then `path`. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The LLM providers' JSON POST (core/http-json) with failures as `LLM_*` errors: the caller's signal
 * (a timeout) → LLM_TIMEOUT, a non-2xx status → LLM_HTTP (with the status), a refused connection →
 * LLM_NETWORK, a body that is not JSON → LLM_MALFORMED.
 */
import { EngramError } from '../../core/errors.ts';
import { postJson as post, type FetchLike } from '../../core/http-json.ts';

export { joinUrl } from '../../core/http-json.ts';

export async function postJson(
  fetch: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const r = await post(fetch, url, { headers, body, signal });
  if (r.ok) return r.json;
  switch (r.kind) {
    case 'unreachable':
      if (r.aborted)
        throw new EngramError('LLM_TIMEOUT', `no answer from ${url} in time`, { cause: r.cause });
      throw new EngramError('LLM_NETWORK', `cannot reach ${url}: ${(r.cause as Error).message}`, {
        cause: r.cause,
      });
    case 'cut_off':
      if (r.aborted)
        throw new EngramError('LLM_TIMEOUT', `the answer from ${url} was cut off`, { cause: r.cause });
      throw new EngramError('LLM_NETWORK', `reading the answer from ${url} failed`, { cause: r.cause });
    case 'status':
      throw new EngramError('LLM_HTTP', `HTTP ${r.status} from ${url}: ${r.text}`, { status: r.status });
    case 'not_json':
      throw new EngramError('LLM_MALFORMED', `the answer from ${url} is not JSON: ${r.text}`, {
        cause: r.cause,
      });
  }
}

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The remote embedders' JSON POST (core/http-json): a timeout joined with the caller's signal, and every failure
 * (network, timeout, HTTP status, unreadable body) as an EMBED_FAILED error that names the endpoint,
 * except a refusal of the input itself (HTTP 400, 413, 422): EMBED_REJECTED, so that callers can tell a
 * text the model will never take from an outage.
 */
import { EngramError } from '../../core/errors.ts';
import { deadline } from '../../core/deadline.ts';
import { postJson as post, type FetchLike } from '../../core/http-json.ts';

export type FetchFn = FetchLike;

export interface PostJsonOptions {
  fetch: FetchFn;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Provider name for messages, e.g. "ollama". */
  provider: string;
}

export async function postJson(o: PostJsonOptions): Promise<unknown> {
  const limit = deadline(o.timeoutMs, o.signal);
  const signal = limit.signal;
  const r = await post(o.fetch, o.url, {
    ...(o.headers ? { headers: o.headers } : {}),
    body: o.body,
    signal,
  }).finally(limit.clear);
  if (r.ok) return r.json;
  const where = `${o.provider} embedder at ${o.url}`;
  switch (r.kind) {
    case 'unreachable': {
      const reason: unknown = signal.reason;
      const why = limit.expired()
        ? `no answer within ${o.timeoutMs} ms`
        : reason instanceof Error && reason.name === 'TimeoutError'
          ? 'no answer in time'
          : signal.aborted
            ? 'request aborted'
            : 'request failed';
      throw new EngramError('EMBED_FAILED', `${where}: ${why}`, {
        cause: r.cause,
        hint: 'Check that the embedding server is running and embed.url points at it.',
      });
    }
    case 'cut_off':
      throw new EngramError('EMBED_FAILED', `${where}: reply cut off`, { cause: r.cause });
    case 'status':
      throw new EngramError(
        [400, 413, 422].includes(r.status) ? 'EMBED_REJECTED' : 'EMBED_FAILED',
        `${where}: HTTP ${r.status} ${r.text}`,
        {
          hint: r.status === 401 ? 'Check the API key (embed.apiKeyEnv).' : 'Check embed.model.',
          status: r.status,
        },
      );
    case 'not_json':
      throw new EngramError('EMBED_FAILED', `${where}: reply is not JSON`, { cause: r.cause });
  }
}

/** Check a list of vectors from a reply: one per text, finite numbers, all of one non-zero length. */
export function toVectors(raw: unknown, expected: number, where: string): Float32Array[] {
  const bad = (why: string): never => {
    throw new EngramError('EMBED_FAILED', `${where}: malformed reply (${why})`);
  };
  if (!Array.isArray(raw)) return bad('no list of embeddings');
  if (raw.length !== expected) return bad(`${raw.length} embeddings for ${expected} texts`);
  let dims = -1;
  return raw.map((item) => {
    if (!Array.isArray(item) || item.length === 0) return bad('an embedding is not a list of numbers');
    if (dims === -1) dims = item.length;
    if (item.length !== dims) return bad('embeddings of different lengths');
    const v = new Float32Array(item.length);
    for (let i = 0; i < item.length; i++) {
      const x: unknown = item[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) return bad('an embedding holds a non-number');
      v[i] = x;
    }
    return v;
  });
}

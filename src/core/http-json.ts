/**
 * One JSON POST over an injected `fetch`, shared by the LLM providers and the embedders. It never
 * throws: the outcome says what happened, and each caller maps failures to its own error codes.
 */

/** The slice of `fetch` engram uses (injected, so tests talk to loopback servers). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type JsonPostResult =
  | { ok: true; json: unknown }
  /** No response: refused, reset, or the signal fired (`aborted`). */
  | { ok: false; kind: 'unreachable'; aborted: boolean; cause: unknown }
  /** The response body could not be read to its end. */
  | { ok: false; kind: 'cut_off'; aborted: boolean; cause: unknown }
  /** A status outside 2xx, with the start of the body. */
  | { ok: false; kind: 'status'; status: number; text: string }
  /** A 2xx whose body is not JSON. */
  | { ok: false; kind: 'not_json'; text: string; cause: unknown };

export async function postJson(
  fetch: FetchLike,
  url: string,
  request: { headers?: Record<string, string>; body: unknown; signal: AbortSignal },
): Promise<JsonPostResult> {
  const { signal } = request;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
    });
  } catch (cause) {
    return { ok: false, kind: 'unreachable', aborted: signal.aborted, cause };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    return { ok: false, kind: 'cut_off', aborted: signal.aborted, cause };
  }
  if (!response.ok) return { ok: false, kind: 'status', status: response.status, text: text.slice(0, 200) };
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (cause) {
    return { ok: false, kind: 'not_json', text: text.slice(0, 120), cause };
  }
}

/** `base` without trailing slashes, then `path`. */
export function joinUrl(base: string, path = ''): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

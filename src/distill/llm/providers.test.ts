import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.ts';
import { isRetryable, outcomeOfError } from '../../core/llm.ts';
import {
  startFakeLlmServer,
  type FakeLlmServer,
  type FakeReply,
} from '../../../test/support/fake-llm-server.ts';
import { createAnthropicProvider } from './anthropic-provider.ts';
import { chatCompletionsUrl, createOpenAiProvider } from './openai-provider.ts';

const fetch = (url: string, init: RequestInit) => globalThis.fetch(url, init);
const request = (timeoutMs = 5000) => ({
  system: 'You distil.',
  prompt: 'The turn: fixed the login bug.',
  maxTokens: 300,
  signal: AbortSignal.timeout(timeoutMs),
});

async function failure(p: Promise<unknown>): Promise<EngramError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngramError);
  return error as EngramError;
}

describe.each([
  {
    name: 'anthropic',
    make: (url: string) =>
      createAnthropicProvider({ url, apiKey: 'sk-test-not-real', model: 'claude-haiku-4-5', fetch }),
  },
  {
    name: 'openai',
    make: (url: string) =>
      createOpenAiProvider({ url, apiKey: 'sk-test-not-real', model: 'llama3.1:8b', fetch }),
  },
])('the $name provider against a loopback server of its protocol', ({ name, make }) => {
  let server: FakeLlmServer;
  const start = async (script: (i: number) => FakeReply) => {
    server = await startFakeLlmServer((r) => script(r.index));
    return make(server.url);
  };
  afterEach(async () => server?.close());

  it('sends the system prompt, the turn and the key, and reads the text and the usage', async () => {
    const provider = await start(() => ({ text: '{"observations":[]}' }));
    const reply = await provider.complete(request());
    expect(reply.text).toBe('{"observations":[]}');
    const [x] = server.exchanges;
    expect(x?.protocol).toBe(name);
    expect(x?.text).toContain('You distil.');
    expect(x?.prompt).toBe('The turn: fixed the login bug.');
    expect(reply.inputTokens).toBe(x?.inputTokens);
    expect(reply.outputTokens).toBe(x?.outputTokens);
    expect(reply.inputTokens).toBeGreaterThan(5);
    expect(reply.model).toBe(provider.model);
    expect(x?.body['max_tokens']).toBe(300);
    if (name === 'anthropic') {
      expect(x?.headers['x-api-key']).toBe('sk-test-not-real');
      expect(x?.headers['anthropic-version']).toBe('2023-06-01');
    } else expect(x?.headers['authorization']).toBe('Bearer sk-test-not-real');
  });

  it('maps a 5xx to a retryable LLM_HTTP error and a 400 to a final one', async () => {
    const provider = await start((i) => ({ status: i === 0 ? 503 : 400 }));
    const e503 = await failure(provider.complete(request()));
    expect(e503.code).toBe('LLM_HTTP');
    expect(e503.message).toContain('HTTP 503');
    expect(isRetryable(e503)).toBe(true);
    expect(outcomeOfError(e503)).toBe('http_error');
    const e400 = await failure(provider.complete(request()));
    expect(isRetryable(e400)).toBe(false);
  });

  it('gives up on a server that never answers when the signal fires (LLM_TIMEOUT)', async () => {
    const provider = await start(() => ({ hang: true }));
    const e = await failure(provider.complete(request(150)));
    expect(e.code).toBe('LLM_TIMEOUT');
    expect(outcomeOfError(e)).toBe('timeout');
  });

  it('reports a 200 whose body is not the protocol\u2019s JSON as LLM_MALFORMED', async () => {
    server = await startFakeLlmServer(() => ({ status: 200, body: '<html>proxy error</html>' }));
    const e = await failure(make(server.url).complete(request()));
    expect(e.code).toBe('LLM_MALFORMED');
    server.exchanges.length = 0;
    await server.close();
    server = await startFakeLlmServer(() => ({ status: 200, body: '{"unexpected":true}' }));
    expect((await failure(make(server.url).complete(request()))).code).toBe('LLM_MALFORMED');
  });

  it('reports a refused connection as LLM_NETWORK', async () => {
    const provider = await start(() => ({ text: '' }));
    await server.close();
    const e = await failure(provider.complete(request()));
    expect(e.code).toBe('LLM_NETWORK');
    expect(outcomeOfError(e)).toBe('network_error');
  });
});

describe('chatCompletionsUrl', () => {
  it('accepts a bare host, a /v1 base, or the full endpoint', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });
});

/**
 * A loopback fake of two LLM protocols, for tests and benchmarks of the LLM distiller:
 * the Anthropic Messages API (`POST /v1/messages`, non-streaming, with `usage`) and any
 * OpenAI-compatible chat completions endpoint (`POST /v1/chat/completions`, with `usage`).
 * Tokens are counted like a real tokenizer would roughly count them: a quarter of the characters of
 * the request's system + messages text, and of the reply text. Each request is answered by a script:
 * text, an HTTP error status, or a hang (for timeouts). Every request is recorded.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeProtocol = 'anthropic' | 'openai';

export type FakeReply = { text: string } | { status: number; body?: string } | { hang: true };

export interface FakeRequest {
  protocol: FakeProtocol;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** System prompt and messages, joined. */
  text: string;
  /** The user prompt (last user message). */
  prompt: string;
  index: number;
}

export interface FakeExchange extends FakeRequest {
  status: number;
  /** Tokens reported in `usage` (0 for errors and hangs). */
  inputTokens: number;
  outputTokens: number;
}

export interface FakeLlmServer {
  url: string;
  exchanges: FakeExchange[];
  /** Sum of the tokens the server reported. */
  reported(): { input: number; output: number };
  close(): Promise<void>;
}

export const countTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) =>
      b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string'
        ? (b as { text: string }).text
        : '',
    )
    .join('\n');
}

function readRequest(protocol: FakeProtocol, body: Record<string, unknown>) {
  const messages = Array.isArray(body['messages'])
    ? (body['messages'] as { role?: string; content?: unknown }[])
    : [];
  const system = protocol === 'anthropic' ? contentText(body['system']) : '';
  const text = [system, ...messages.map((m) => contentText(m.content))].join('\n');
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return { text, prompt: contentText(lastUser?.content) };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startFakeLlmServer(script: (req: FakeRequest) => FakeReply): Promise<FakeLlmServer> {
  const exchanges: FakeExchange[] = [];
  let index = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const protocol: FakeProtocol | null = path.endsWith('/v1/messages')
        ? 'anthropic'
        : path.endsWith('/chat/completions')
          ? 'openai'
          : null;
      if (req.method !== 'POST' || !protocol) return send(res, 404, { error: `no route ${path}` });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, 400, { error: 'bad JSON' });
      }
      const { text, prompt } = readRequest(protocol, body);
      const request: FakeRequest = {
        protocol,
        path,
        headers: req.headers,
        body,
        text,
        prompt,
        index: index++,
      };
      const reply = script(request);
      const exchange: FakeExchange = { ...request, status: 0, inputTokens: 0, outputTokens: 0 };
      exchanges.push(exchange);
      if ('hang' in reply) return; // never answered; the client's timeout ends it
      if ('status' in reply) {
        exchange.status = reply.status;
        return send(
          res,
          reply.status,
          reply.body ?? { error: { type: 'api_error', message: 'fake failure' } },
        );
      }
      exchange.status = 200;
      exchange.inputTokens = countTokens(text);
      exchange.outputTokens = countTokens(reply.text);
      const model = typeof body['model'] === 'string' ? body['model'] : 'fake-model';
      if (protocol === 'anthropic') {
        send(res, 200, {
          id: `msg_fake_${request.index}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text: reply.text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: exchange.inputTokens,
            output_tokens: exchange.outputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        });
      } else {
        send(res, 200, {
          id: `chatcmpl-fake-${request.index}`,
          object: 'chat.completion',
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: exchange.inputTokens,
            completion_tokens: exchange.outputTokens,
            total_tokens: exchange.inputTokens + exchange.outputTokens,
          },
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    reported: () =>
      exchanges.reduce((t, e) => ({ input: t.input + e.inputTokens, output: t.output + e.outputTokens }), {
        input: 0,
        output: 0,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A plausible distillation answer for a prompt built by `distill/llm/turn-prompt`: one observation per
 * line of the heuristic draft (at most two), rephrased with a narrative, and a checkpoint summary.
 */
export function plausibleReply(prompt: string): string {
  const draft = /Heuristic draft of this turn[^\n]*\n([\s\S]*?)\n\n/.exec(prompt)?.[1] ?? '';
  const lines = draft.split('\n').filter((l) => l.startsWith('- '));
  const observations = lines.slice(0, 2).map((line) => {
    const m = /^- (\w+): ([^|]*)(?:\| (.*))?$/.exec(line) ?? [];
    const facts = (m[3] ?? '').split('; ').filter(Boolean).slice(0, 4);
    const title = (m[2] ?? 'Work on the project').trim();
    return {
      type: m[1] ?? 'change',
      title,
      subtitle: facts[0] ?? '',
      narrative: `In this turn: ${title}. ${facts.slice(0, 2).join('. ')}`.trim(),
      facts,
      concepts: ['how-it-works'],
      filesRead: [],
      filesModified: [],
      supersedes: null,
    };
  });
  const request = /\[user\] ([^\n]{0,160})/.exec(prompt)?.[1] ?? '';
  return JSON.stringify({
    observations,
    summary: {
      request,
      investigated: '',
      learned: '',
      completed: observations[0]?.title ?? '',
      nextSteps: '',
      notes: '',
    },
  });
}

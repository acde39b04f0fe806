/**
 * A loopback fake of the Anthropic Messages API, good enough to drive the real Claude Code CLI:
 * SSE streaming and plain JSON replies, text or tool_use blocks, HEAD/GET health checks, token counting,
 * and compaction requests. Every request body is recorded for the test to inspect.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: unknown[];
  messages?: { role: string; content: unknown }[];
}

export type Reply = { text: string } | { toolUses: { name: string; input: Record<string, unknown> }[] };

export interface ScriptContext {
  /** Text of the conversation's first user prompt. */
  prompt: string;
  /** Text of the latest typed user prompt (not a tool result). */
  lastPrompt: string;
  /** Assistant replies since that prompt (0 for the first reply to it). */
  stepInTurn: number;
  /** How many assistant turns the conversation already has (0 for the first reply). */
  step: number;
  request: MessagesRequest;
}

export type Script = (ctx: ScriptContext) => Reply;

export interface MockAnthropic {
  url: string;
  requests: MessagesRequest[];
  /** All text sent to the model in one request (system, messages, tool results), for assertions. */
  textOf(request: MessagesRequest): string;
  /** The recorded main-conversation requests whose first prompt contains `needle`. */
  requestsFor(needle: string): MessagesRequest[];
  close(): Promise<void>;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: unknown; content?: unknown }) => {
      if (typeof b?.text === 'string') return b.text;
      if (b?.type === 'tool_result') return blockText(b.content);
      return '';
    })
    .join('\n');
}

function firstPrompt(req: MessagesRequest): string {
  const first = (req.messages ?? []).find((m) => m.role === 'user');
  return first ? blockText(first.content) : '';
}

function textOf(req: MessagesRequest): string {
  const system = Array.isArray(req.system)
    ? blockText(req.system)
    : typeof req.system === 'string'
      ? req.system
      : '';
  return [system, ...(req.messages ?? []).map((m) => blockText(m.content))].join('\n');
}

let idCounter = 0;

function sendReply(res: ServerResponse, req: MessagesRequest, reply: Reply): void {
  const id = `msg_mock_${++idCounter}`;
  type Block =
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
  const blocks: Block[] =
    'text' in reply
      ? [{ type: 'text', text: reply.text }]
      : reply.toolUses.map((t) => ({
          type: 'tool_use',
          id: `toolu_mock_${++idCounter}`,
          name: t.name,
          input: t.input,
        }));
  const stopReason = 'text' in reply ? 'end_turn' : 'tool_use';
  const usage = {
    input_tokens: 120,
    output_tokens: 30,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: req.model ?? 'mock',
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: req.model ?? 'mock',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event('message_stop', {});
  res.end();
}

export async function startMockAnthropic(script: Script): Promise<MockAnthropic> {
  const requests: MessagesRequest[] = [];
  const handle = (httpReq: IncomingMessage, res: ServerResponse, body: string) => {
    if (httpReq.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    let req: MessagesRequest;
    try {
      req = JSON.parse(body) as MessagesRequest;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad JSON' } }),
      );
      return;
    }
    if ((httpReq.url ?? '').includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.ceil(body.length / 4) }));
      return;
    }
    requests.push(req);
    const all = textOf(req);
    if (/create a detailed summary of the conversation so far/i.test(all)) {
      sendReply(res, req, {
        text: '<analysis>The user worked on files.</analysis><summary>1. Primary request: work on files. 2. Files: notes.md.</summary>',
      });
      return;
    }
    if (!Array.isArray(req.tools) || req.tools.length === 0) {
      // Side requests (titles, summaries of tool output…) get a short answer and do not advance the script.
      sendReply(res, req, { text: 'OK' });
      return;
    }
    const messages = req.messages ?? [];
    const step = messages.filter((m) => m.role === 'assistant').length;
    const isTyped = (m: { role: string; content: unknown }) =>
      m.role === 'user' &&
      (typeof m.content === 'string' ||
        (Array.isArray(m.content) && !m.content.some((b: { type?: string }) => b?.type === 'tool_result')));
    let last = -1;
    messages.forEach((m, i) => {
      if (isTyped(m)) last = i;
    });
    const lastPrompt = last >= 0 ? blockText(messages[last]?.content) : '';
    const stepInTurn = messages.slice(last + 1).filter((m) => m.role === 'assistant').length;
    sendReply(res, req, script({ prompt: firstPrompt(req), lastPrompt, stepInTurn, step, request: req }));
  };
  const server: Server = createServer((httpReq, res) => {
    let body = '';
    httpReq.setEncoding('utf8');
    httpReq.on('data', (chunk: string) => (body += chunk));
    httpReq.on('end', () => {
      try {
        handle(httpReq, res, body);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    textOf,
    requestsFor: (needle) =>
      requests.filter((r) => firstPrompt(r).includes(needle) && Array.isArray(r.tools) && r.tools.length > 0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

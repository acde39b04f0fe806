/**
 * A loopback fake of the Anthropic Messages API, good enough to drive the real Claude Code CLI:
 * SSE streaming and plain JSON replies, text or tool_use blocks, HEAD/GET health checks, token counting,
 * compaction requests, and side requests (no tools: titles, quota checks…) that never consume the script.
 * Every HTTP request is logged and every Messages body recorded for the test to inspect.
 *
 * What Claude Code 2.1.330 sends in `-p` mode (seen with a logging run):
 * - `POST /v1/messages?beta=true`, `stream: true`, the full tool list (12 tools), `system` as text blocks;
 *   `messages[]` holds the user turn (a `<system-reminder>` text block, then the prompt), then a
 *   `role:"system"` entry (environment, hook additional context), then assistant/user(tool_result) pairs.
 * - Compaction (`-p /compact --continue`): the same shape, tools included, the last user message ending with
 *   "…create a detailed summary of the conversation so far…"; it is asked again when the answer has no
 *   `<summary>`.
 * - `HEAD /api/hello` (connectivity check) only when nonessential traffic is not disabled.
 * - No title generation or quota request in `-p` mode; they (and any request without tools) are side requests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MessageParam {
  role: string;
  content: unknown;
}

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  system?: unknown;
  tools?: unknown[];
  messages?: MessageParam[];
  metadata?: { user_id?: string };
  [key: string]: unknown;
}

export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a fresh `toolu_mock_…` id. */
  id?: string;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** What the model answers: text, tool calls (optionally after some text), or an API error. */
export type Reply =
  | { text: string; usage?: Usage }
  | { toolUses: ToolUse[]; text?: string; usage?: Usage }
  | { error: { status: number; type?: string; message?: string } };

/** A reply as a script may write it: also plain text, or a bare list of tool calls. */
export type ReplyLike = Reply | string | ToolUse[];

export interface ToolResult {
  toolUseId: string;
  /** The tool's name and input, from the assistant turn that called it (undefined if not found). */
  name: string | undefined;
  input: Record<string, unknown> | undefined;
  /** The result as text (string content, or the text blocks joined). */
  content: string;
  isError: boolean;
}

export interface ScriptContext {
  /** Text of the conversation's first user prompt (system reminders left out). */
  prompt: string;
  /** Text of the latest typed user prompt (not a tool result). */
  lastPrompt: string;
  /** Assistant replies since that prompt (0 for the first reply to it). */
  stepInTurn: number;
  /** How many assistant turns the conversation already has (0 for the first reply). */
  step: number;
  /** The tool results in the last user message (empty on a fresh prompt). */
  toolResults: ToolResult[];
  /** The Claude Code session id (from the request metadata or the `x-claude-code-session-id` header). */
  sessionId: string | undefined;
  request: MessagesRequest;
  headers: Record<string, string | string[] | undefined>;
}

export interface MockState {
  /** Main-conversation requests answered so far (this one not included). */
  mainCount: number;
  /** Scratch space that survives between calls, for scripts that keep their own state. */
  data: Record<string, unknown>;
}

export type Script = (ctx: ScriptContext, state: MockState) => ReplyLike;

export type RequestKind = 'main' | 'side' | 'compact' | 'count_tokens' | 'other';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  url: string;
  kind: RequestKind;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: MessagesRequest | undefined;
  /** The reply sent (for Messages requests). */
  reply?: Reply;
  at: number;
}

export interface MockOptions {
  /** Answer to side requests (no tools). Default: `OK`. */
  sideReply?: (request: MessagesRequest) => ReplyLike;
  /** Text inside `<summary>` for compaction requests. */
  compactSummary?: string | ((request: MessagesRequest) => string);
  /** Print every request to stderr (also on with ENGRAM_MOCK_LOG=1). */
  log?: boolean;
}

export interface MockAnthropic {
  url: string;
  port: number;
  /** Every Messages body (main, side and compaction requests), in arrival order. */
  requests: MessagesRequest[];
  /** Every HTTP request, including HEAD/GET probes and token counting. */
  log: RecordedRequest[];
  /** Errors thrown by the script (answered with HTTP 500). */
  errors: unknown[];
  mainRequests(): MessagesRequest[];
  sideRequests(): MessagesRequest[];
  compactRequests(): MessagesRequest[];
  /** All text sent to the model in one request (system, messages, tool results), for assertions. */
  textOf(request: MessagesRequest): string;
  /** Texts of the `role:"system"` entries inside `messages[]` (environment, hook additional context). */
  systemMessages(request: MessagesRequest): string[];
  /** The recorded main-conversation requests whose first prompt contains `needle`. */
  requestsFor(needle: string): MessagesRequest[];
  /** Tool results that reached the model, over all main requests (each tool_use id once). */
  toolResults(): ToolResult[];
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Reading requests

type Block = { type?: string; text?: unknown; content?: unknown; tool_use_id?: unknown; is_error?: unknown };

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]).filter((b) => b && typeof b === 'object') : [];
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .map((b) => {
      if (typeof b.text === 'string') return b.text;
      if (b.type === 'tool_result') return blockText(b.content);
      return '';
    })
    .join('\n');
}

const isReminder = (text: string) => text.trimStart().startsWith('<system-reminder>');

/** What the user typed: text blocks that are not system reminders. */
function promptText(content: unknown): string {
  return blocksOf(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string' && !isReminder(b.text))
    .map((b) => b.text as string)
    .join('\n');
}

const hasToolResult = (m: MessageParam) => blocksOf(m.content).some((b) => b.type === 'tool_result');
const isTyped = (m: MessageParam) => m.role === 'user' && !hasToolResult(m);

function firstPrompt(req: MessagesRequest): string {
  const first = (req.messages ?? []).find(isTyped);
  return first ? promptText(first.content) : '';
}

function textOf(req: MessagesRequest): string {
  const system = typeof req.system === 'string' ? req.system : blockText(req.system);
  return [system, ...(req.messages ?? []).map((m) => blockText(m.content))].join('\n');
}

function systemMessages(req: MessagesRequest): string[] {
  return (req.messages ?? []).filter((m) => m.role === 'system').map((m) => blockText(m.content));
}

function lastUser(req: MessagesRequest): MessageParam | undefined {
  return [...(req.messages ?? [])].reverse().find((m) => m.role === 'user');
}

function toolResultsOf(req: MessagesRequest, message: MessageParam | undefined): ToolResult[] {
  if (!message) return [];
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  for (const m of req.messages ?? []) {
    if (m.role !== 'assistant') continue;
    for (const b of blocksOf(m.content) as {
      type?: string;
      id?: unknown;
      name?: unknown;
      input?: unknown;
    }[]) {
      if (b.type === 'tool_use' && typeof b.id === 'string')
        calls.set(b.id, { name: String(b.name), input: (b.input ?? {}) as Record<string, unknown> });
    }
  }
  return blocksOf(message.content)
    .filter((b) => b.type === 'tool_result')
    .map((b) => {
      const id = String(b.tool_use_id);
      const call = calls.get(id);
      return {
        toolUseId: id,
        name: call?.name,
        input: call?.input,
        content: blockText(b.content),
        isError: b.is_error === true,
      };
    });
}

function sessionIdOf(req: MessagesRequest, headers: IncomingMessage['headers']): string | undefined {
  const header = headers['x-claude-code-session-id'];
  if (typeof header === 'string') return header;
  try {
    const meta = JSON.parse(req.metadata?.user_id ?? '') as { session_id?: unknown };
    return typeof meta.session_id === 'string' ? meta.session_id : undefined;
  } catch {
    return undefined;
  }
}

const COMPACTION = /create a detailed summary of the conversation so far/i;

function classify(req: MessagesRequest): RequestKind {
  if (COMPACTION.test(blockText(lastUser(req)?.content))) return 'compact';
  if (!Array.isArray(req.tools) || req.tools.length === 0) return 'side';
  return 'main';
}

function contextOf(req: MessagesRequest, headers: IncomingMessage['headers']): ScriptContext {
  const messages = req.messages ?? [];
  let last = -1;
  messages.forEach((m, i) => {
    if (isTyped(m)) last = i;
  });
  return {
    prompt: firstPrompt(req),
    lastPrompt: last >= 0 ? promptText(messages[last]?.content) : '',
    stepInTurn: messages.slice(last + 1).filter((m) => m.role === 'assistant').length,
    step: messages.filter((m) => m.role === 'assistant').length,
    toolResults: toolResultsOf(req, lastUser(req)),
    sessionId: sessionIdOf(req, headers),
    request: req,
    headers,
  };
}

// ---------------------------------------------------------------------------------------------------
// Scripts

export function normalizeReply(reply: ReplyLike): Reply {
  if (typeof reply === 'string') return { text: reply };
  if (Array.isArray(reply)) return { toolUses: reply };
  return reply;
}

let sequences = 0;

/**
 * The common pattern: reply `steps[0]` to a fresh prompt; when the last message carries the tool results
 * of step i, reply step i + 1; after the last step, `after` (default `Done.`). Steps are matched by the
 * tool_use ids this helper hands out, so side requests, retries and `--continue` runs do not shift it.
 */
export function sequence(steps: ReplyLike[], after: ReplyLike = 'Done.'): Script {
  const tag = `toolu_mock_seq${++sequences}s`;
  let calls = 0;
  const stepOf = (ctx: ScriptContext): number => {
    if (ctx.toolResults.length === 0) return 0;
    for (const r of ctx.toolResults) {
      const m = r.toolUseId.startsWith(tag) ? /^(\d+)_/.exec(r.toolUseId.slice(tag.length)) : null;
      if (m) return Number(m[1]) + 1;
    }
    return ctx.stepInTurn; // results of tool calls this helper did not make: count the turn's replies
  };
  return (ctx) => {
    const i = stepOf(ctx);
    const reply = normalizeReply(steps[i] ?? after);
    if (!('toolUses' in reply)) return reply;
    return {
      ...reply,
      toolUses: reply.toolUses.map((t) => ({
        ...t,
        input: structuredClone(t.input),
        id: t.id ?? `${tag}${i}_${++calls}`,
      })),
    };
  };
}

/**
 * Route on the latest typed prompt: the first route whose needle it contains (or whose RegExp matches)
 * answers; a list of steps becomes a `sequence`. Unmatched prompts get `fallback` (default `OK`).
 */
export function byPrompt(
  routes: [needle: string | RegExp, reply: Script | ReplyLike[]][],
  fallback: ReplyLike = 'OK',
): Script {
  const compiled = routes.map(
    ([needle, reply]) => [needle, Array.isArray(reply) ? sequence(reply) : reply] as const,
  );
  return (ctx, state) => {
    for (const [needle, script] of compiled) {
      const hit = typeof needle === 'string' ? ctx.lastPrompt.includes(needle) : needle.test(ctx.lastPrompt);
      if (hit) return script(ctx, state);
    }
    return fallback;
  };
}

// ---------------------------------------------------------------------------------------------------
// Answering

let idCounter = 0;

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** Split a string into a few pieces, as a real stream would deliver it. */
function chunks(s: string, parts = 3): string[] {
  if (s.length < parts * 4) return [s];
  const size = Math.ceil(s.length / parts);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function sendReply(res: ServerResponse, req: MessagesRequest, reply: Reply): void {
  if ('error' in reply) {
    const { status, type = 'api_error', message = 'mock error' } = reply.error;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
    return;
  }
  const id = `msg_mock_${++idCounter}`;
  const blocks: ContentBlock[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  if ('toolUses' in reply) {
    for (const t of reply.toolUses)
      blocks.push({
        type: 'tool_use',
        id: t.id ?? `toolu_mock_${++idCounter}`,
        name: t.name,
        input: t.input,
      });
  }
  const stopReason = 'toolUses' in reply && reply.toolUses.length > 0 ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: 120,
    output_tokens: 30,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...reply.usage,
  };
  const model = req.model ?? 'claude-mock';
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
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
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  event('ping', {});
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of chunks(block.text))
        event('content_block_delta', { index, delta: { type: 'text_delta', text } });
    } else {
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      for (const partial_json of chunks(JSON.stringify(block.input)))
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
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

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startMockAnthropic(script: Script, options: MockOptions = {}): Promise<MockAnthropic> {
  const requests: MessagesRequest[] = [];
  const log: RecordedRequest[] = [];
  const errors: unknown[] = [];
  const state: MockState = { mainCount: 0, data: {} };
  const verbose = options.log || process.env['ENGRAM_MOCK_LOG'] === '1';

  const handle = (httpReq: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = httpReq.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const method = httpReq.method ?? 'GET';
    let body: MessagesRequest | undefined;
    try {
      body = raw ? (JSON.parse(raw) as MessagesRequest) : undefined;
    } catch {
      body = undefined;
    }
    const entry: RecordedRequest = {
      method,
      url,
      kind: 'other',
      headers: httpReq.headers,
      body,
      at: Date.now(),
    };
    log.push(entry);
    const answer = (reply: Reply) => {
      entry.reply = reply;
      if (verbose)
        process.stderr.write(
          `[mock-anthropic] ${method} ${url} ${entry.kind} -> ${JSON.stringify(reply).slice(0, 200)}\n`,
        );
      sendReply(res, body ?? {}, reply);
    };
    if (method !== 'POST') {
      if (verbose) process.stderr.write(`[mock-anthropic] ${method} ${url}\n`);
      sendJson(res, 200, {});
      return;
    }
    if (path.endsWith('/v1/messages/count_tokens')) {
      entry.kind = 'count_tokens';
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      return;
    }
    if (!path.endsWith('/v1/messages')) {
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${path}` } });
      return;
    }
    if (!body) {
      sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad JSON' } });
      return;
    }
    requests.push(body);
    entry.kind = classify(body);
    if (entry.kind === 'compact') {
      const summary =
        typeof options.compactSummary === 'function'
          ? options.compactSummary(body)
          : (options.compactSummary ??
            '1. Primary Request and Intent: the user worked on files in this project.\n2. Files and Code Sections: see the conversation.');
      answer({ text: `<analysis>The user worked on files.</analysis>\n<summary>${summary}</summary>` });
      return;
    }
    if (entry.kind === 'side') {
      answer(normalizeReply(options.sideReply ? options.sideReply(body) : 'OK'));
      return;
    }
    let reply: Reply;
    try {
      reply = normalizeReply(script(contextOf(body, httpReq.headers), state));
    } catch (error) {
      errors.push(error);
      reply = { error: { status: 500, type: 'api_error', message: `mock script failed: ${String(error)}` } };
    }
    state.mainCount++;
    answer(reply);
  };

  const server: Server = createServer((httpReq, res) => {
    let body = '';
    httpReq.setEncoding('utf8');
    httpReq.on('data', (chunk: string) => (body += chunk));
    httpReq.on('end', () => {
      try {
        handle(httpReq, res, body);
      } catch (error) {
        errors.push(error);
        if (!res.headersSent)
          sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
        else res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const ofKind = (kind: RequestKind) =>
    log.filter((e) => e.kind === kind && e.body).map((e) => e.body as MessagesRequest);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    log,
    errors,
    mainRequests: () => ofKind('main'),
    sideRequests: () => ofKind('side'),
    compactRequests: () => ofKind('compact'),
    textOf,
    systemMessages,
    requestsFor: (needle) => ofKind('main').filter((r) => firstPrompt(r).includes(needle)),
    toolResults: () => {
      const seen = new Map<string, ToolResult>();
      for (const req of ofKind('main'))
        for (const m of req.messages ?? [])
          if (m.role === 'user')
            for (const r of toolResultsOf(req, m)) if (!seen.has(r.toolUseId)) seen.set(r.toolUseId, r);
      return [...seen.values()];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets of a killed client would hold close() open
      }),
  };
}

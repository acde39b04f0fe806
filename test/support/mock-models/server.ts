/**
 * A loopback mock of the model APIs the non-Claude hosts call, on one port: the OpenAI Responses API
 * (OpenAI Codex CLI), OpenAI chat completions (opencode, GitHub Copilot CLI BYOK) and the Gemini API
 * (Gemini CLI). A script answers the main conversation; requests without tools (titles, checks) are
 * side requests that never consume it. Every HTTP request is logged and every model turn recorded.
 * The Anthropic Messages mock for Claude Code is `test/e2e/support/mock-anthropic.ts`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readGeminiTurn, sendGeminiReply } from './gemini.ts';
import { readChatTurn, sendChatReply } from './openai-chat.ts';
import { readResponsesTurn, sendResponsesReply } from './openai-responses.ts';
import { normalizeReply, type Reply, type ReplyLike, type Script, type Turn } from './script.ts';

export * from './script.ts';

export interface LoggedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | undefined;
  /** `main` (answered by the script), `side` (no tools), or `other` (probes, token counts, 404s). */
  kind: 'main' | 'side' | 'other';
  turn?: Turn;
  reply?: Reply;
  at: number;
}

export interface MockModelOptions {
  /** Answer to side requests. Default: `Mock title`. */
  sideReply?: (turn: Turn) => ReplyLike;
  /** Print every request to stderr (also on with ENGRAM_MOCK_LOG=1). */
  log?: boolean;
}

export interface MockModel {
  /** `http://127.0.0.1:PORT` (append `/v1` for the OpenAI families). */
  url: string;
  port: number;
  log: LoggedRequest[];
  /** Errors thrown by the script (answered with HTTP 500). */
  errors: unknown[];
  /** The turns the script answered, in order. */
  mainTurns(): Turn[];
  sideTurns(): Turn[];
  close(): Promise<void>;
}

type Family = {
  read: (body: Record<string, unknown>) => Turn;
  send: (res: ServerResponse, body: Record<string, unknown>, reply: Reply) => void;
};

/** The API family a POST path belongs to, or undefined. */
function familyOf(path: string): Family | undefined {
  if (path.endsWith('/responses')) return { read: readResponsesTurn, send: sendResponsesReply };
  if (path.endsWith('/chat/completions')) return { read: readChatTurn, send: sendChatReply };
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
  if (gemini) {
    const model = decodeURIComponent(gemini[1] ?? 'gemini-mock');
    const stream = gemini[2] === 'streamGenerateContent';
    return { read: readGeminiTurn, send: (res, _body, reply) => sendGeminiReply(res, reply, stream, model) };
  }
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startMockModel(script: Script, options: MockModelOptions = {}): Promise<MockModel> {
  const log: LoggedRequest[] = [];
  const errors: unknown[] = [];
  const verbose = options.log || process.env['ENGRAM_MOCK_LOG'] === '1';

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    let body: Record<string, unknown> | undefined;
    try {
      const parsed = raw ? (JSON.parse(raw) as unknown) : undefined;
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const entry: LoggedRequest = { method, url, headers: req.headers, body, kind: 'other', at: Date.now() };
    log.push(entry);
    if (verbose) process.stderr.write(`[mock-model] ${method} ${url}\n`);
    const family = method === 'POST' ? familyOf(path) : undefined;
    if (!family) {
      if (path.endsWith(':countTokens')) sendJson(res, 200, { totalTokens: Math.ceil(raw.length / 4) });
      else if (path.endsWith('/models')) sendJson(res, 200, { object: 'list', data: [], models: [] });
      else sendJson(res, 404, { error: { message: `no route ${method} ${path}` } });
      return;
    }
    if (!body) {
      sendJson(res, 400, { error: { message: 'bad JSON' } });
      return;
    }
    const turn = family.read(body);
    entry.turn = turn;
    let reply: Reply;
    if (turn.tools.length === 0) {
      entry.kind = 'side';
      reply = normalizeReply(options.sideReply ? options.sideReply(turn) : 'Mock title');
    } else {
      entry.kind = 'main';
      try {
        reply = normalizeReply(script(turn));
      } catch (error) {
        errors.push(error);
        reply = { error: { status: 500, message: `mock script failed: ${String(error)}` } };
      }
    }
    entry.reply = reply;
    family.send(res, body, reply);
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      try {
        handle(req, res, raw);
      } catch (error) {
        errors.push(error);
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const turns = (kind: LoggedRequest['kind']) =>
    log.filter((e) => e.kind === kind && e.turn).map((e) => e.turn as Turn);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    errors,
    mainTurns: () => turns('main'),
    sideTurns: () => turns('side'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent`,
 * `:countTokens`), as Gemini CLI 0.61.0 calls it with `GOOGLE_GEMINI_BASE_URL` and an API key.
 *
 * What Gemini CLI sends (seen with a logging run): `contents[]` of `user` / `model` turns whose parts are
 * `text`, `functionCall` and `functionResponse`; the session context and hook context arrive as text
 * parts of the user turn (`<hook_context>…</hook_context>`); `tools[].functionDeclarations` (the shell
 * is `run_shell_command` with `{command, description}`). It renames function calls with ids of its own,
 * so a script counts model turns rather than reading ids back.
 */
import type { ServerResponse } from 'node:http';
import { chunks, type Reply, type ToolResult, type Turn } from './script.ts';

interface Part {
  text?: string;
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; id?: string; response?: unknown };
}

interface Content {
  role?: string;
  parts?: Part[];
}

const isPrompt = (c: Content) =>
  c.role === 'user' &&
  (c.parts ?? []).some((p) => typeof p.text === 'string') &&
  !(c.parts ?? []).some((p) => p.functionResponse);

const partsText = (c: Content | undefined) =>
  (c?.parts ?? [])
    .map((p) => p.text ?? (p.functionResponse ? JSON.stringify(p.functionResponse.response) : ''))
    .join('\n');

export function readGeminiTurn(body: Record<string, unknown>): Turn {
  const contents = (Array.isArray(body['contents']) ? body['contents'] : []) as Content[];
  let last = -1;
  contents.forEach((c, i) => {
    if (isPrompt(c)) last = i;
  });
  const after = contents.slice(last + 1);
  const lastContent = after.at(-1);
  const toolResults: ToolResult[] =
    lastContent?.role === 'user'
      ? (lastContent.parts ?? [])
          .filter((p) => p.functionResponse)
          .map((p) => ({
            callId: String(p.functionResponse?.id ?? ''),
            name: p.functionResponse?.name,
            output: JSON.stringify(p.functionResponse?.response ?? null),
          }))
      : [];
  const tools = (Array.isArray(body['tools']) ? body['tools'] : []) as {
    functionDeclarations?: { name?: string }[];
  }[];
  const system = body['systemInstruction'] as Content | undefined;
  return {
    api: 'gemini',
    prompt: last >= 0 ? partsText(contents[last]) : '',
    toolResults,
    stepInTurn: after.filter((c) => c.role === 'model').length,
    tools: tools.flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name ?? ''),
    text: [partsText(system), ...contents.map(partsText)].join('\n'),
    body,
  };
}

export function sendGeminiReply(res: ServerResponse, reply: Reply, stream: boolean, model: string): void {
  if ('error' in reply) {
    res.writeHead(reply.error.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: reply.error.status, message: reply.error.message ?? 'mock error', status: 'INTERNAL' },
      }),
    );
    return;
  }
  const calls: Part[] =
    'toolCalls' in reply
      ? reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args } }))
      : [];
  const texts = reply.text ? chunks(reply.text) : [];
  const usageMetadata = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };
  const response = (parts: Part[], finishReason?: string) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata,
    modelVersion: model,
  });
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response([...(reply.text ? [{ text: reply.text }] : []), ...calls], 'STOP')));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const pieces: Part[][] = [...texts.map((text) => [{ text }]), ...(calls.length > 0 ? [calls] : [])];
  if (pieces.length === 0) pieces.push([{ text: '' }]);
  pieces.forEach((parts, i) =>
    res.write(`data: ${JSON.stringify(response(parts, i === pieces.length - 1 ? 'STOP' : undefined))}\n\n`),
  );
  res.end();
}

/**
 * OpenAI chat completions (`POST …/chat/completions`), streamed or not, as opencode 1.18.33 (provider
 * `@ai-sdk/openai-compatible`) and GitHub Copilot CLI 1.0.102 (BYOK, `COPILOT_PROVIDER_WIRE_API` left
 * at `completions`) call it. Both stream (`stream: true`, `stream_options.include_usage`); the shell
 * tool is `bash` with `{command, description}` in both. opencode also asks for a session title in a
 * request without tools — a side request, answered without consuming the script.
 */
import type { ServerResponse } from 'node:http';
import { textOf, type Reply, type ToolResult, type Turn } from './script.ts';

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string } }[];
  tool_call_id?: string;
}

export function readChatTurn(body: Record<string, unknown>): Turn {
  const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as ChatMessage[];
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  const after = messages.slice(last + 1);
  const names = new Map<string, string>();
  for (const m of messages)
    for (const c of m.tool_calls ?? []) if (c.id) names.set(c.id, String(c.function?.name));
  let tail = after.length;
  while (tail > 0 && after[tail - 1]?.role === 'tool') tail--;
  const toolResults: ToolResult[] = after.slice(tail).map((m) => ({
    callId: String(m.tool_call_id),
    name: names.get(String(m.tool_call_id)),
    output: textOf(m.content),
  }));
  const tools = (Array.isArray(body['tools']) ? body['tools'] : []) as { function?: { name?: string } }[];
  return {
    api: 'openai-chat',
    prompt: last >= 0 ? textOf(messages[last]?.content) : '',
    toolResults,
    stepInTurn: after.filter((m) => m.role === 'assistant').length,
    tools: tools.map((t) => t.function?.name ?? ''),
    text: messages.map((m) => textOf(m.content)).join('\n'),
    body,
  };
}

let ids = 0;

export function sendChatReply(res: ServerResponse, body: Record<string, unknown>, reply: Reply): void {
  if ('error' in reply) {
    res.writeHead(reply.error.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: reply.error.message ?? 'mock error', type: 'server_error' } }),
    );
    return;
  }
  const id = `chatcmpl-mock-${++ids}`;
  const model = body['model'];
  const toolCalls =
    'toolCalls' in reply
      ? reply.toolCalls.map((c, index) => ({
          index,
          id: c.id ?? `call_mock_${++ids}`,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        }))
      : [];
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
  if (toolCalls.length > 0) message['tool_calls'] = toolCalls.map(({ index: _index, ...c }) => c);
  if (body['stream'] !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, delta, finish_reason }],
      })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (reply.text) chunk({ content: reply.text });
  if (toolCalls.length > 0) chunk({ tool_calls: toolCalls });
  chunk({}, finish);
  res.write(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}\n\n`,
  );
  res.write('data: [DONE]\n\n');
  res.end();
}

/**
 * The OpenAI Responses API (`POST …/responses`, `stream: true`), as OpenAI Codex CLI 0.171.0 calls it
 * through a custom `model_providers.<id>` with `wire_api = "responses"`.
 *
 * What Codex sends (seen with a logging run): `input[]` holds `message` items (role `developer` for its
 * instructions and hook context, `user` for `<environment_context>` and the prompt), then
 * `function_call` / `function_call_output` pairs; `tools[]` are `function` tools (`exec_command` with
 * `{cmd}` is the shell). It reads the stream's `response.output_item.done` items and needs
 * `response.completed` with `usage`.
 */
import type { ServerResponse } from 'node:http';
import { chunks, textOf, type Reply, type ToolResult, type Turn } from './script.ts';

interface Item {
  type?: string;
  role?: string;
  content?: unknown;
  name?: string;
  /** The namespace tool a call is made in (Codex's MCP servers: `mcp__<server>`). */
  namespace?: string;
  call_id?: string;
  output?: unknown;
}

const isPrompt = (i: Item) =>
  i.type === 'message' &&
  i.role === 'user' &&
  !textOf(i.content).trimStart().startsWith('<environment_context>');

export function readResponsesTurn(body: Record<string, unknown>): Turn {
  const input = (Array.isArray(body['input']) ? body['input'] : []) as Item[];
  let last = -1;
  input.forEach((item, i) => {
    if (isPrompt(item)) last = i;
  });
  const after = input.slice(last + 1);
  const names = new Map<string, string>();
  for (const i of input)
    if (i.type === 'function_call' && i.call_id)
      names.set(i.call_id, i.namespace ? `${i.namespace}__${String(i.name)}` : String(i.name));
  // The results since the model's last reply: the outputs after the last function_call run.
  let tail = after.length;
  while (tail > 0 && after[tail - 1]?.type === 'function_call_output') tail--;
  const toolResults: ToolResult[] = after.slice(tail).map((i) => ({
    callId: String(i.call_id),
    name: names.get(String(i.call_id)),
    output: typeof i.output === 'string' ? i.output : JSON.stringify(i.output),
  }));
  // A reply is a run of function_call items or one assistant message.
  let stepInTurn = 0;
  let inCalls = false;
  for (const i of after) {
    if (i.type === 'function_call') {
      if (!inCalls) stepInTurn++;
      inCalls = true;
    } else {
      if (i.type === 'message' && i.role === 'assistant') stepInTurn++;
      if (i.type !== 'function_call_output') inCalls = false;
    }
  }
  return {
    api: 'openai-responses',
    prompt: last >= 0 ? textOf(input[last]?.content) : '',
    toolResults,
    stepInTurn,
    tools: toolNames(body),
    text: [
      typeof body['instructions'] === 'string' ? body['instructions'] : '',
      ...input.map((i) => (i.type === 'function_call_output' ? String(i.output) : textOf(i.content))),
    ].join('\n'),
    body,
  };
}

interface Tool {
  name?: string;
  type?: string;
  tools?: Tool[];
}

const toolsOf = (body: Record<string, unknown>): Tool[] =>
  (Array.isArray(body['tools']) ? body['tools'] : []) as Tool[];

/**
 * The offered tools' names; a `namespace` tool's (Codex groups an MCP server's tools in one,
 * `mcp__<server>`) as `<namespace>__<tool>`, Codex's own spelling of an MCP tool.
 */
function toolNames(body: Record<string, unknown>): string[] {
  return toolsOf(body).flatMap((t) =>
    t.type === 'namespace' && Array.isArray(t.tools)
      ? t.tools.map((inner) => `${t.name ?? ''}__${inner.name ?? ''}`)
      : [t.name ?? t.type ?? ''],
  );
}

/** A call's `name` and, for a tool inside a namespace, the `namespace` it is called in. */
function callName(body: Record<string, unknown>, name: string): { name: string; namespace?: string } {
  for (const t of toolsOf(body))
    if (t.type === 'namespace' && t.name && name.startsWith(`${t.name}__`))
      return { name: name.slice(t.name.length + 2), namespace: t.name };
  return { name };
}

let ids = 0;

/** Answer with an SSE stream (or one JSON body when the request did not ask to stream). */
export function sendResponsesReply(res: ServerResponse, body: Record<string, unknown>, reply: Reply): void {
  if ('error' in reply) {
    res.writeHead(reply.error.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: reply.error.message ?? 'mock error', type: 'server_error' } }),
    );
    return;
  }
  const id = `resp_mock_${++ids}`;
  const output: Record<string, unknown>[] = [];
  if (reply.text !== undefined)
    output.push({
      type: 'message',
      id: `msg_mock_${++ids}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  if ('toolCalls' in reply)
    for (const c of reply.toolCalls)
      output.push({
        type: 'function_call',
        id: `fc_mock_${++ids}`,
        call_id: c.id ?? `call_mock_${ids}`,
        ...callName(body, c.name),
        arguments: JSON.stringify(c.args),
        status: 'completed',
      });
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  const response = { id, object: 'response', status: 'completed', model: body['model'], output, usage };
  if (body['stream'] !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  output.forEach((item, output_index) => {
    if (item['type'] === 'message') {
      const text = reply.text ?? '';
      event('response.output_item.added', { output_index, item: { ...item, content: [] } });
      for (const delta of chunks(text))
        event('response.output_text.delta', { output_index, item_id: item['id'], content_index: 0, delta });
    } else {
      event('response.output_item.added', { output_index, item: { ...item, arguments: '' } });
    }
    event('response.output_item.done', { output_index, item });
  });
  event('response.completed', { response });
  res.end();
}

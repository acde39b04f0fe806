/**
 * The prompt hook's question to the running worker (worker/recall-server.ts): one line out over the
 * worker's local socket, one line back, within a tight time limit. Anything else — no socket, nobody
 * listening, another build or protocol, a malformed or late answer — is a reason, and the hook then
 * reads the database itself exactly as when no worker runs. Part of the capture bundle: `node:net`
 * is loaded only once a socket is there to ask.
 */
import { existsSync } from 'node:fs';
import type * as Net from 'node:net';
import { BUILD_ID } from '../../core/build-id.ts';
import type { RenderedContext } from '../../recall/context-lines.ts';
import type { PromptQuery } from '../../recall/prompt-query.ts';
import { parseReply, RECALL_MAX_LINE_BYTES, requestLine } from '../../worker/recall-protocol.ts';

export type WorkerAnswer = { ok: true; context: RenderedContext } | { ok: false; reason: string };

/**
 * How long the hook waits for the worker's answer before reading the database itself. The worker's
 * answer takes a few milliseconds; past this, reading it here is the quicker way.
 */
export const RECALL_TIMEOUT_MS = 250;

export function askWorker(
  socketPath: string,
  query: PromptQuery,
  timeoutMs = RECALL_TIMEOUT_MS,
): Promise<WorkerAnswer> {
  // No worker (it removes its socket on the way out): no module to load, no connection to try.
  if (!existsSync(socketPath)) return Promise.resolve({ ok: false, reason: 'no socket' });
  const net = process.getBuiltinModule('node:net') as typeof Net;
  return new Promise((resolve) => {
    let received = '';
    let settled = false;
    const socket = net.createConnection(socketPath);
    const settle = (answer: WorkerAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(
      () => settle({ ok: false, reason: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(requestLine(BUILD_ID, query)));
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end !== -1) {
        const reply = parseReply(received.slice(0, end), BUILD_ID);
        settle(reply.ok ? { ok: true, context: reply.value } : { ok: false, reason: reply.error });
      } else if (received.length > RECALL_MAX_LINE_BYTES) settle({ ok: false, reason: 'an answer too long' });
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      settle({ ok: false, reason: error.code ?? error.message }),
    );
    socket.on('close', () => settle({ ok: false, reason: 'closed without an answer' }));
  });
}

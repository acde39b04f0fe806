/**
 * The worker's recall socket: a Unix domain socket at `$ENGRAM_HOME/worker.sock` (mode 0600, in the
 * 0700 home) where the prompt hook asks for its prompt-time recall. It is bound under a name of this
 * process's own and renamed into place, so a socket left by a worker that died is replaced in one step
 * and a client never meets a half-made one; on close it is removed only while the name is still this
 * server's (a worker that took the lock over may have put its own there meanwhile).
 */
import { chmodSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { LogFields } from '../core/ports.ts';
import type { RenderedContext } from '../recall/context-lines.ts';
import type { PromptQuery } from '../recall/prompt-query.ts';
import { parseRequest, RECALL_MAX_LINE_BYTES, RECALL_PROTOCOL, replyLine } from './recall-protocol.ts';

/**
 * The longest socket path every platform binds (Linux takes 107 bytes, macOS 103); a longer
 * `$ENGRAM_HOME` gets no socket, and its hooks read the database themselves.
 */
export const MAX_SOCKET_PATH_BYTES = 103;
/** A client that sends no whole line within this long is dropped. */
const CLIENT_IDLE_MS = 5_000;

export interface RecallServer {
  readonly path: string;
  /** Stop listening and remove the socket (if it is still this server's). */
  close(): Promise<void>;
}

export interface RecallServerOptions {
  path: string;
  /** The build this process runs (core/build-id): only a hook of the same build is answered. */
  build: string;
  /** The answer to one query; a throw is sent back as a refusal (the hook then renders it itself). */
  answer: (query: PromptQuery) => RenderedContext;
  /** Problems worth a line in the worker's log. */
  warn: (message: string, fields: LogFields) => void;
}

export async function listenForRecall(options: RecallServerOptions): Promise<RecallServer> {
  const { path } = options;
  const bound = `${path}.${process.pid}`;
  if (Buffer.byteLength(bound) > MAX_SOCKET_PATH_BYTES)
    throw new Error(`the socket path ${bound} is longer than ${MAX_SOCKET_PATH_BYTES} bytes`);
  const server = createServer((socket) => serve(socket, options));
  // A socket of an earlier process with this pid (a crash, then a reused pid).
  rmSync(bound, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(bound, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let identity: { dev: number; ino: number };
  try {
    chmodSync(bound, 0o600);
    renameSync(bound, path);
    const stat = statSync(path);
    identity = { dev: stat.dev, ino: stat.ino };
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    rmSync(bound, { force: true });
    throw error;
  }
  server.on('error', (error) => options.warn('the recall socket failed', { error: error.message }));
  return {
    path,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      try {
        const now = statSync(path);
        if (now.dev === identity.dev && now.ino === identity.ino) rmSync(path, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

function serve(socket: Socket, options: RecallServerOptions): void {
  let buffered = '';
  let answered = false;
  socket.setEncoding('utf8');
  socket.setTimeout(CLIENT_IDLE_MS, () => socket.destroy());
  // A client that went away mid-answer is no problem of the worker's.
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (answered) return;
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end === -1) {
      if (buffered.length > RECALL_MAX_LINE_BYTES) socket.destroy();
      return;
    }
    answered = true;
    socket.end(answerLine(buffered.slice(0, end), options));
  });
}

function answerLine(line: string, options: RecallServerOptions): string {
  const { build } = options;
  const request = parseRequest(line, build);
  if (!request.ok) return replyLine({ v: RECALL_PROTOCOL, build, ok: false, error: request.error });
  try {
    return replyLine({ v: RECALL_PROTOCOL, build, ok: true, context: options.answer(request.value) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.warn('could not answer a prompt query', { error: message });
    return replyLine({ v: RECALL_PROTOCOL, build, ok: false, error: message });
  }
}

/**
 * The worker's recall folder: `$ENGRAM_HOME/recall/` (0700, in the 0700 home), where the prompt hook
 * asks for its prompt-time recall with files alone — no socket, so the hook loads no `node:net` or
 * stream code (~20 M instructions of a prompt's hook, callgrind). A hook puts its question in
 * `<name>.q` (written under a temporary name, then renamed) and waits for `<name>.a`, which this
 * server writes the same way; the server learns of a question from a watch on the folder.
 *
 * The folder's door (`door`, 0600: this process's pid and build) says a worker answers here. It is
 * written once the watch runs, replaced in one step by a worker that took over, and removed on close
 * only while it is still this server's. A hook knows a door a killed worker left by its pid being gone.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { join } from 'node:path';
import type { LogFields } from '../core/ports.ts';
import type { RenderedContext } from '../recall/context-lines.ts';
import type { PromptQuery } from '../recall/prompt-query.ts';
import {
  ANSWER_SUFFIX,
  DOOR_FILE,
  parseRequest,
  QUESTION_SUFFIX,
  RECALL_PROTOCOL,
  replyLine,
} from './recall-protocol.ts';

/** Questions and answers left this long (a hook that gave up, a worker that died) are removed. */
const LEFT_OVER_MS = 10_000;

export interface RecallServer {
  readonly dir: string;
  /** Stop answering and remove the door (if it is still this server's). */
  close(): Promise<void>;
}

export interface RecallServerOptions {
  /** The recall folder (`$ENGRAM_HOME/recall`). */
  dir: string;
  /** The build this process runs (core/build-id): only a hook of the same build is answered. */
  build: string;
  /** The answer to one query; a throw is sent back as a refusal (the hook then renders it itself). */
  answer: (query: PromptQuery) => RenderedContext;
  /** Problems worth a line in the worker's log. */
  warn: (message: string, fields: LogFields) => void;
}

/** Write a file whole under a temporary name, then rename it into place (a reader never meets half of it). */
function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Remove what a hook that gave up, or an earlier worker, left behind. */
function sweep(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (name === DOOR_FILE) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > LEFT_OVER_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

export async function listenForRecall(options: RecallServerOptions): Promise<RecallServer> {
  const { dir, build } = options;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  sweep(dir, Date.now());
  let swept = Date.now();
  const take = (name: string) => {
    if (!name.endsWith(QUESTION_SUFFIX)) return;
    const question = join(dir, name);
    let line: string;
    try {
      line = readFileSync(question, 'utf8');
      // Taken: a hook that gave up meanwhile has removed it, and gets no answer.
      rmSync(question);
    } catch {
      return; // another event for a question already answered, or one its hook took back
    }
    const end = line.indexOf('\n');
    const answer = answerLine(end === -1 ? line : line.slice(0, end), options);
    try {
      writeWhole(join(dir, `${name.slice(0, -QUESTION_SUFFIX.length)}${ANSWER_SUFFIX}`), answer);
    } catch (error) {
      options.warn('could not write a recall answer', { error: (error as Error).message });
    }
    if (Date.now() - swept > LEFT_OVER_MS) {
      swept = Date.now();
      sweep(dir, swept);
    }
  };
  const watcher: FSWatcher = watch(dir, (_event, name) => {
    if (typeof name === 'string') take(name);
  });
  watcher.on('error', (error) => options.warn('the recall folder watch failed', { error: error.message }));
  // Questions asked before the watch ran (none before the door is up, but a taken-over folder may hold some).
  for (const name of readdirSync(dir)) take(name);
  const door = join(dir, DOOR_FILE);
  const mine = `${JSON.stringify({ v: RECALL_PROTOCOL, pid: process.pid, build })}\n`;
  try {
    writeWhole(door, mine);
  } catch (error) {
    watcher.close();
    throw error;
  }
  return {
    dir,
    close() {
      watcher.close();
      try {
        if (readFileSync(door, 'utf8') === mine) rmSync(door, { force: true });
      } catch {
        // already gone
      }
      return Promise.resolve();
    },
  };
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

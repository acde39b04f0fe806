/**
 * The prompt hook's question to the running worker (worker/recall-server.ts), with files alone: the
 * question written into the worker's recall folder, the answer waited for by looking for its file
 * (a sleep of a fraction of a millisecond between looks, no event loop), within a tight time limit.
 * A socket would cost the hook `node:net` and Node's stream code, ~20 M instructions (callgrind),
 * more than the rest of the prompt's path. Anything else — no door (no worker), a door a dead worker
 * left, another build's, a worker that ends while asked, a malformed or late answer — is a reason, and
 * the hook then reads the database itself exactly as when no worker runs.
 */
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_ID } from '../../core/build-id.ts';
import type { RenderedContext } from '../../recall/context-lines.ts';
import type { PromptQuery } from '../../recall/prompt-query.ts';
import {
  ANSWER_SUFFIX,
  DOOR_FILE,
  parseDoor,
  parseReply,
  QUESTION_SUFFIX,
  RECALL_MAX_LINE_BYTES,
  requestLine,
} from '../../worker/recall-protocol.ts';

export type WorkerAnswer = { ok: true; context: RenderedContext } | { ok: false; reason: string };

/**
 * How long the hook waits for the worker's answer before reading the database itself. The worker's
 * answer takes a few milliseconds; past this, reading it here is the quicker way.
 */
export const RECALL_TIMEOUT_MS = 250;
/** Between two looks for the answer. */
const LOOK_EVERY_MS = 0.5;
/** Looks between two checks that the worker still runs (about every 10 ms). */
const LOOKS_PER_LIFE_CHECK = 20;

/** The process still runs (or the pid is another user's: the time limit still holds). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A worker that ended keeps its pid until its parent reaps it: Linux tells its state (Z) in /proc.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat[stat.lastIndexOf(') ') + 2] !== 'Z';
  } catch {
    return true; // no /proc here
  }
}

function readDoor(dir: string): string | null {
  try {
    return readFileSync(join(dir, DOOR_FILE), 'latin1');
  } catch {
    return null;
  }
}

/**
 * Remove a file that may be gone already. `unlinkSync`, not `rmSync`: Node's rmSync runs its rimraf
 * code, ~20 more functions a hook would compile on every prompt.
 */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** Sleep without the event loop (the hook has nothing else to do meanwhile). */
function pause(ms: number, cell: Int32Array): void {
  Atomics.wait(cell, 0, 0, ms);
}

export function askWorker(dir: string, query: PromptQuery, timeoutMs = RECALL_TIMEOUT_MS): WorkerAnswer {
  const deadline = Date.now() + timeoutMs;
  // No worker (it removes its door on the way out): no question to write.
  const doorLine = readDoor(dir);
  if (doorLine === null) return { ok: false, reason: 'no worker' };
  const door = parseDoor(doorLine, BUILD_ID);
  if (!door.ok) return { ok: false, reason: door.error };
  const pid = door.value;
  // A door a killed worker left: its pid is gone.
  if (!alive(pid)) return { ok: false, reason: 'no worker' };
  const name = `${process.pid}-${Date.now().toString(36)}`;
  const question = join(dir, `${name}${QUESTION_SUFFIX}`);
  const answer = join(dir, `${name}${ANSWER_SUFFIX}`);
  const tmp = `${question}.tmp`;
  try {
    writeFileSync(tmp, requestLine(BUILD_ID, query), { mode: 0o600 });
    renameSync(tmp, question);
  } catch (error) {
    removeFile(tmp);
    return { ok: false, reason: (error as NodeJS.ErrnoException).code ?? 'could not ask' };
  }
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let reason: string;
  for (let look = 1; ; look++) {
    if (existsSync(answer)) {
      const text = readFileSync(answer, 'utf8');
      removeFile(answer);
      const end = text.indexOf('\n');
      if (end === -1) return { ok: false, reason: 'an answer without its line end' };
      if (end > RECALL_MAX_LINE_BYTES) return { ok: false, reason: 'an answer too long' };
      const reply = parseReply(text.slice(0, end), BUILD_ID);
      return reply.ok ? { ok: true, context: reply.value } : { ok: false, reason: reply.error };
    }
    if (Date.now() >= deadline) {
      reason = `no answer within ${timeoutMs} ms`;
      break;
    }
    if (look % LOOKS_PER_LIFE_CHECK === 0 && !alive(pid)) {
      reason = 'the worker ended';
      break;
    }
    pause(LOOK_EVERY_MS, cell);
  }
  // Taken back (the worker sweeps an answer it writes after this).
  removeFile(question);
  removeFile(answer);
  return { ok: false, reason };
}

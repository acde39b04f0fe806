/**
 * The worker's side of prompt-time recall through its recall folder: the recall thread (recall-thread.ts) started
 * beside the worker's loop and stopped with it. Speed only: when it cannot start, the prompt hooks read
 * the database themselves, as they do whenever no worker runs.
 */
import { Worker } from 'node:worker_threads';
import { describeError } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';
import type { RecallThreadData, RecallThreadMessage } from './recall-thread.ts';

export interface RecallService {
  /** Stop answering and remove the folder's door; resolves once the thread has ended. */
  stop(): Promise<void>;
}

/** How long a thread asked to stop gets before it is terminated. */
const STOP_GRACE_MS = 2_000;

/** Start the recall thread (`script`: dist/recall-thread.mjs); null when it could not start. */
export function startRecallService(
  options: RecallThreadData & { script: string; logger: Logger },
): Promise<RecallService | null> {
  const { logger } = options;
  const data: RecallThreadData = {
    recallDir: options.recallDir,
    dbPath: options.dbPath,
    toldDir: options.toldDir,
  };
  return new Promise((resolve) => {
    let thread: Worker;
    try {
      thread = new Worker(options.script, { workerData: data });
    } catch (error) {
      logger.warn('prompt-time recall did not start; prompt hooks read the database', {
        error: describeError(error),
      });
      resolve(null);
      return;
    }
    // Never what keeps the worker's process alive: the loop stops it on its way out.
    thread.unref();
    let ended = false;
    const exited = new Promise<void>((done) =>
      thread.once('exit', () => {
        ended = true;
        done();
      }),
    );
    const service: RecallService = {
      async stop() {
        if (ended) return;
        thread.postMessage('stop');
        const grace = setTimeout(() => void thread.terminate(), STOP_GRACE_MS);
        await exited;
        clearTimeout(grace);
      },
    };
    thread.on('message', (m: RecallThreadMessage) => {
      if (m.type === 'ready') {
        logger.info('answering prompt-time recall', { dir: options.recallDir });
        resolve(service);
      } else if (m.type === 'failed') {
        logger.warn('prompt-time recall did not start; prompt hooks read the database', { error: m.error });
        resolve(null);
      } else if (m.type === 'warn') logger.warn(m.message, m.fields);
    });
    thread.on('error', (error) => {
      logger.warn('the recall thread failed; prompt hooks read the database', {
        error: describeError(error),
      });
      resolve(null);
    });
    void exited.then(() => resolve(null));
  });
}

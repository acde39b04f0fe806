/**
 * The recall thread (bundled to dist/recall-thread.mjs): the worker's answer to prompt-time recall,
 * on a thread of its own so that an answer never waits for the worker's loop, whose write
 * transactions run synchronously (a turn's distillation can take a while). It reads through its own
 * read-only connection (WAL: readers never wait for the writer) and answers each query with the code
 * the prompt hook would run itself (recall/prompt-query), for as long as the database file is the one
 * it opened at this engram's schema; else it refuses and the hook reads the database itself.
 */
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { BUILD_ID } from '../core/build-id.ts';
import type { LogFields } from '../core/ports.ts';
import { answerPromptQuery } from '../recall/prompt-query.ts';
import { createStemMemo } from '../recall/prompt-relevance.ts';
import { SCHEMA_VERSION } from '../store/migrations/version.ts';
import { openReadStore } from '../store/read-store.ts';
import { listenForRecall, type RecallServer } from './recall-server.ts';

export interface RecallThreadData {
  /** The recall folder (`$ENGRAM_HOME/recall`). */
  recallDir: string;
  dbPath: string;
  toldDir: string;
}

/** What the thread tells the worker's main thread. */
export type RecallThreadMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'warn'; message: string; fields: LogFields }
  | { type: 'stopped' };

const post = (m: RecallThreadMessage) => parentPort?.postMessage(m);

async function start(data: RecallThreadData): Promise<void> {
  const store = openReadStore(data.dbPath, { busyTimeoutMs: 3000 });
  const opened = statSync(data.dbPath);
  const stems = createStemMemo();
  let server: RecallServer;
  try {
    server = await listenForRecall({
      dir: data.recallDir,
      build: BUILD_ID,
      answer(query) {
        // A file put in its place (a repair, a restore) or migrated since: not the store opened.
        const now = statSync(data.dbPath);
        if (now.dev !== opened.dev || now.ino !== opened.ino)
          throw new Error('the database file was replaced');
        const version = store.db.pragma('user_version', { simple: true }) as number;
        if (version !== SCHEMA_VERSION)
          throw new Error(`the database is at schema ${version}, this engram reads ${SCHEMA_VERSION}`);
        return answerPromptQuery(store, query, data.toldDir, stems);
      },
      warn: (message, fields) => post({ type: 'warn', message, fields }),
    });
  } catch (error) {
    store.db.close();
    throw error;
  }
  parentPort?.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void server.close().then(() => {
      store.db.close();
      post({ type: 'stopped' });
      parentPort?.close();
    });
  });
  post({ type: 'ready' });
}

start(workerData as RecallThreadData).catch((error: unknown) => {
  post({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
  parentPort?.close();
});

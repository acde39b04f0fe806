/**
 * A backfill thread (bundled to dist/backfill-thread.mjs): reads and distils transcript files for the
 * main thread, which alone writes to the database. Plain data in, plain data out.
 */
import { parentPort } from 'node:worker_threads';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { prepareIngest, type IngestPlan } from './ingest-transcript.ts';

const distiller = createHeuristicDistiller();

parentPort?.on('message', (plan: IngestPlan) => {
  try {
    parentPort?.postMessage({ ok: true, prepared: prepareIngest(plan, distiller) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: (error as Error).message });
  }
});

// npm run bench:opencode [-- --turns N]
// What reading opencode's store costs the worker at each turn's end, as a session grows: a store laid
// out as opencode 1.18.33 lays it out (src/capture/hosts/opencode/long-store.test-support.ts), one turn
// added at a time, and after each the worker's pass over that turn's plugin events (real SQLite, the
// heuristic distiller, the session's log written from the store and read as its transcript). Printed per
// window of turns, median ms: the store read + log write as the worker does it (from where the last
// turn's read stopped: a cursor kept in engram's database), the same for the whole session (as every
// turn did before the cursor; into a log folder of its own), and the rest of the worker's pass over the
// turn (distilling it, reading the new lines of the log; its own store read then finds nothing new).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LONG_SESSION,
  longOpencodeStore,
} from '../src/capture/hosts/opencode/long-store.test-support.ts';
import { createMemoryLogger } from '../src/core/ports.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import {
  captureLongTurn,
  opencodeCapture,
  opencodePass,
} from '../src/worker/opencode-capture.test-support.ts';
import { withHostTranscripts } from '../src/worker/host-transcripts.ts';
import { describeLoad } from './lib/machine.ts';
import { median } from './lib/stats.ts';

const args = process.argv.slice(2);
const turns = args.includes('--turns') ? Number(args[args.indexOf('--turns') + 1]) : 500;
const WINDOW = 50;

const work = mkdtempSync(join(tmpdir(), 'engram-bench-opencode-'));
try {
  const project = join(work, 'project');
  const dataHome = join(work, 'data');
  const logDir = join(work, 'engram', 'host-sessions');
  mkdirSync(project);
  mkdirSync(join(dataHome, 'opencode'), { recursive: true });
  const recorded = readFileSync(
    join(import.meta.dirname, '..', 'test', 'fixtures', 'hosts', 'opencode', 'store.json'),
    'utf8',
  );
  const oc = longOpencodeStore(join(dataHome, 'opencode'), project, recorded);
  const store = createStore(openDatabase(join(work, 'engram.db')));
  const logger = createMemoryLogger();
  const capture = opencodeCapture(store, { session: LONG_SESSION, project, home: work, dataHome });

  const wholeDir = join(work, 'whole');
  const cursors = {
    get: (path: string) => store.transcripts.sourceCursor(path),
    save: (path: string, cursor: string) => store.transcripts.saveSourceCursor(path, cursor, Date.now()),
  };
  const readMs: number[] = [];
  const wholeMs: number[] = [];
  const passMs: number[] = [];
  console.log(`bench:opencode: ${turns} turns of one session, ${describeLoad()}`);
  for (let i = 0; i < turns; i++) {
    const stop = captureLongTurn(capture, oc, i);
    oc.addTurn();
    const events = [{ seq: 0, sessionId: LONG_SESSION, transcriptPath: stop.transcriptPath } as never];
    // The whole session read and written, as every turn did without a cursor.
    const w = performance.now();
    withHostTranscripts(events, wholeDir, logger);
    wholeMs.push(performance.now() - w);
    // The read as the worker does it, from the cursor; the pass after it then finds nothing new there.
    const r = performance.now();
    withHostTranscripts(events, logDir, logger, cursors);
    readMs.push(performance.now() - r);
    const t = performance.now();
    opencodePass(store, logger, logDir, oc.timesOf(i).end + 1000);
    passMs.push(performance.now() - t);
  }
  console.log('turns        read from the cursor   whole read   rest of the pass (median ms per turn)');
  const col = (list: number[], w: number, to: number) => median(list.slice(w, to)).toFixed(2).padStart(10);
  for (let w = 0; w < turns; w += WINDOW) {
    const to = Math.min(turns, w + WINDOW);
    console.log(
      `${String(w + 1).padStart(4)}–${String(to).padEnd(4)}   ${col(readMs, w, to)}           ${col(wholeMs, w, to)}   ${col(passMs, w, to)}`,
    );
  }
  const memories = (store.db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;
  console.log(
    `memories stored: ${memories}; warnings: ${logger.lines.filter((l) => l.includes('opencode')).length}`,
  );
  console.log(describeLoad());
  store.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}

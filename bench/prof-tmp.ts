import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { searchMemories } from '../src/recall/search.ts';
import { corpus, queries } from './lib/synthetic-memories.ts';
const store = createStore(openDatabase(process.argv[2]!));
const c = corpus();
const pid = c.projects[0]!.project.id;
const qs = queries(c, 0, 200);
const times: number[] = [];
for (let round = 0; round < 3; round++) for (const { text } of qs) { const a = performance.now(); searchMemories(store, { query: text, projectId: pid, limit: 10, now: Date.now(), context: process.env['NOCTX'] ? false : true }); times.push(performance.now() - a); }
times.sort((a, b) => a - b);
console.log('p50', times[times.length >> 1]!.toFixed(2), 'p95', times[Math.floor(times.length * 0.95)]!.toFixed(2));

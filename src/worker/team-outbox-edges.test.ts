import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphWorld, type GraphWorld } from '../graph/graph.test-support.ts';
import { runGraphStep } from '../graph/graph-step.ts';
import { collectOutbox, planPush, shareProject } from './team-sync.ts';

let w: GraphWorld;
beforeEach(() => {
  w = createGraphWorld('shop');
  w.write('src/cart.ts', 'export function total() {}\n');
  w.write('src/tax.ts', 'export const RATE = 0.2;\n');
});
afterEach(() => w.cleanup());

describe("team push of the graph step's edges", () => {
  it('queues and plans each derived edge as its own link record, as when the log held a row per edge', () => {
    shareProject(w.store, w.project, 1);
    const m = w.remember('Cart totals include tax', {
      filesModified: ['src/cart.ts'],
      filesRead: ['src/tax.ts'],
    });
    runGraphStep(w.store, { now: 2, fileSummaryMinLines: 1, anchorMaxAgeMs: 0 });
    const edges = w.store.graph
      .around(m)
      .out.map((e) => `${e.from} ${e.kind} ${e.to}`)
      .sort();
    expect(edges).toHaveLength(3); // two files and the session
    expect(w.store.db.prepare(`SELECT COUNT(*) FROM changes WHERE entity = 'link'`).pluck().get()).toBe(1);

    const plan = planPush(w.store, 'alice').filter((p) => p.kind === 'link');
    expect(plan.map((p) => p.id).sort()).toEqual(edges);
    for (const p of plan) {
      const [from, kind, to] = p.id.split(' ');
      expect(p.record?.body).toEqual({ from, kind, to });
    }
    collectOutbox(w.store, 3);
    const queued = w.store.team
      .outbox(w.project.id, 100)
      .filter((e) => e.entity === 'link')
      .map((e) => e.entityId)
      .sort();
    expect(queued).toEqual(edges);
  });
});

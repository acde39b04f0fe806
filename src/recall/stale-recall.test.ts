import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphWorld, type GraphWorld } from '../graph/graph.test-support.ts';
import { createStaleLookup } from '../graph/anchor-freshness.ts';
import { runGraphStep } from '../graph/graph-step.ts';
import { refreshAnchors } from '../graph/staleness.ts';
import { renderPromptContext, renderSessionContext } from './render-context.ts';
import { searchMemories, STALE_WEIGHT } from './search.ts';

let w: GraphWorld;
let stale: string;
let fresh: string;

beforeEach(() => {
  w = createGraphWorld('atlas');
  w.write('src/retry.ts', 'export function retry() {\n  return 3;\n}\n');
  w.write('src/queue.ts', 'export function queue() {}\n');
  const at = Date.now() - 60_000;
  stale = w.remember(
    'Webhook retry count is three',
    { narrative: 'retry webhook three times', filesModified: ['src/retry.ts'] },
    { at },
  );
  fresh = w.remember(
    'Webhook retry queue is durable',
    { narrative: 'retry webhook from a queue', filesModified: ['src/queue.ts'] },
    { at: at - 1000 },
  );
  runGraphStep(w.store, { now: Date.now(), fileSummaryMinLines: 1, anchorMaxAgeMs: 3_600_000 });
  w.write('src/retry.ts', 'export function retry() {\n  return 5;\n}\n');
  refreshAnchors(w.store, w.project, { now: Date.now(), origin: 'cli', full: true });
});
afterEach(() => w.cleanup());

describe('stale memories in recall', () => {
  it('search ranks them down and says so', () => {
    const search = () =>
      searchMemories(w.store, {
        query: 'webhook retry three',
        projectId: w.project.id,
        limit: 5,
        now: Date.now(),
      });
    const hits = search();
    const s = hits.find((h) => h.observation.id === stale);
    expect(s?.stale?.reason).toBe('src/retry.ts changed');
    expect(hits.find((h) => h.observation.id === fresh)?.stale).toBeNull();
    // Put back as it was: fresh again, and its score without the stale weight.
    w.write('src/retry.ts', 'export function retry() {\n  return 3;\n}\n');
    refreshAnchors(w.store, w.project, { now: Date.now(), origin: 'cli', full: true });
    const again = search().find((h) => h.observation.id === stale);
    expect(again?.stale).toBeNull();
    expect((s?.score ?? 0) / (again?.score ?? 1)).toBeCloseTo(STALE_WEIGHT, 5);
  });

  it('the SessionStart index shows them apart, as stale, after the current ones and the key files', () => {
    const ctx = renderSessionContext(w.store, {
      project: w.project,
      sessionId: 'next',
      source: 'startup',
      now: Date.now(),
      budgetTokens: 1000,
      recentCount: 10,
      keyFiles: 3,
      staleOf: createStaleLookup(w.store, w.project),
    });
    const lines = ctx.text.split('\n');
    const current = lines.findIndex((l) => l.startsWith('Recent memories'));
    const keyFiles = lines.findIndex((l) => l.startsWith('Key files: '));
    const outdated = lines.findIndex((l) => l.startsWith('Stale memories'));
    expect(current).toBeGreaterThan(0);
    expect(keyFiles).toBeGreaterThan(current);
    expect(outdated).toBeGreaterThan(keyFiles);
    expect(lines[current + 1]).toContain(fresh);
    expect(lines[outdated + 1]).toContain(stale);
    expect(lines[outdated + 1]).toMatch(/stale since \d{4}-\d\d-\d\d \(src\/retry\.ts changed\)/);
  });

  it('a file changed since the worker last looked is shown stale at once (the hook only stats it)', () => {
    w.write('src/queue.ts', 'export function queue(n: number) {}\n');
    const marks = createStaleLookup(w.store, w.project)([fresh, stale]);
    expect(marks.get(fresh)?.reason).toBe('src/queue.ts changed since it was last checked');
    expect(marks.get(stale)?.reason).toBe('src/retry.ts changed');
  });

  it('prompt-time recall never offers a stale memory', () => {
    const ctx = renderPromptContext(w.store, {
      projectId: w.project.id,
      sessionId: 'next',
      prompt: 'how many times does the webhook retry?',
      now: Date.now(),
      budgetTokens: 300,
      maxItems: 3,
      minScore: 0.1,
    });
    expect(ctx.observationIds).toEqual([fresh]);
  });
});

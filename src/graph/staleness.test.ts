import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphWorld, type GraphWorld } from './graph.test-support.ts';
import { GRAPH_CURSOR, GRAPH_SEED, runGraphStep } from './graph-step.ts';
import { fileNodeId, sessionNodeId } from './node-ids.ts';
import { refreshAnchors } from './staleness.ts';

const A = `export function parse(text: string): string[] {
  return text.split(',');
}

export function unrelated(): number {
  return 1;
}
`;
const B = 'export const limit = 10;\nexport function check(n: number) {\n  return n < limit;\n}\n';

let w: GraphWorld;
const step = () =>
  runGraphStep(w.store, { now: Date.now(), fileSummaryMinLines: 3, anchorMaxAgeMs: 3_600_000 });
const recheck = () => refreshAnchors(w.store, w.project, { now: Date.now(), origin: 'cli', full: true });

beforeEach(() => {
  w = createGraphWorld();
  w.write('src/a.ts', A);
  w.write('src/b.ts', B);
  w.git('add', '.');
  w.git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
});
afterEach(() => w.cleanup());

describe('staleness anchored in code (a real git repository)', () => {
  it('anchors memories about files, links them, and tells content changes from whitespace and moves', () => {
    const aWhole = w.remember('Split input on commas', { filesModified: ['src/a.ts'] });
    const aParse = w.remember('`parse` splits on commas', { type: 'discovery', filesRead: ['src/a.ts'] });
    const bMemory = w.remember('Limit is ten', { filesModified: [`${w.root}/src/b.ts`] });
    const report = step();
    expect(report.anchors).toBe(3);
    expect(w.store.anchors.ofMemory(aParse)[0]?.scope).toMatchObject({ kind: 'symbol', name: 'parse' });
    const around = w.store.graph.around(bMemory).out.map((e) => `${e.kind} ${e.to}`);
    expect(around).toContain(`touches ${fileNodeId(w.project.id, 'src/b.ts')}`);
    expect(around).toContain(`part_of ${sessionNodeId('s1')}`);
    expect(w.store.graphFiles.byPath(w.project.id, 'src/a.ts')).toMatchObject({
      language: 'TypeScript',
      lines: 7,
      summarized: true,
      symbols: ['parse', 'unrelated'],
    });

    // A content change outside `parse`: the whole-file memory is stale, the `parse` one is not.
    w.write('src/a.ts', A.replace('return 1;', 'return 2;'));
    // Whitespace only in b.ts.
    w.write('src/b.ts', B.replace('return n < limit;', '    return n<limit;   '));
    const r = recheck();
    expect(r.becameStale.map((s) => s.memoryId)).toEqual([aWhole]);
    expect(w.store.anchors.staleOf([aWhole, aParse, bMemory]).has(aWhole)).toBe(true);
    expect(w.store.anchors.isStale(aParse)).toBe(false);
    expect(w.store.anchors.isStale(bMemory)).toBe(false);
    expect(r.followed.map((f) => [f.memoryId, f.reason])).toEqual(
      expect.arrayContaining([
        [aParse, 'untouched'],
        [bMemory, 'whitespace'],
      ]),
    );
    // The stale transition is in the change log, for the vault and the viewer.
    expect(w.store.changes.ofEntity(aWhole).map((c) => c.op)).toContain('stale');

    // A move: the anchor follows the file; the memory stays fresh.
    w.git('add', '.');
    w.git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'edit');
    w.git('mv', 'src/b.ts', 'src/limits.ts');
    const moved = recheck();
    expect(moved.followed).toEqual([
      { memoryId: bMemory, path: 'src/b.ts', reason: 'moved', newPath: 'src/limits.ts' },
    ]);
    expect(w.store.anchors.ofMemory(bMemory)[0]?.path).toBe('src/limits.ts');
    expect(w.store.anchors.isStale(bMemory)).toBe(false);

    // Putting a.ts back as it was makes its memory fresh again.
    w.write('src/a.ts', A);
    expect(recheck().becameFresh).toEqual([aWhole]);
  });

  it('a deleted file makes its memories stale and leaves other files alone', () => {
    const a = w.remember('About a', { filesModified: ['src/a.ts'] });
    const b = w.remember('About b', { filesModified: ['src/b.ts'] });
    step();
    w.git('rm', '-q', 'src/a.ts');
    const r = recheck();
    expect(r.becameStale).toEqual([{ memoryId: a, reason: 'src/a.ts was deleted' }]);
    expect(w.store.anchors.isStale(b)).toBe(false);
  });

  it('a later turn that edits the file re-checks the anchors on it', () => {
    const old = w.remember('Limit is ten', { filesModified: ['src/b.ts'] });
    step();
    w.write('src/b.ts', B.replace('10', '20'));
    w.remember('Raised the limit to twenty', { filesModified: ['src/b.ts'] });
    const r = step();
    expect(r.stale.map((s) => s.memoryId)).toEqual([old]);
  });

  it('memories older than the change log (an upgraded store) get their edges once, not anchors', () => {
    const id = w.remember('From before the graph', { filesModified: ['src/a.ts'] });
    // As if the change log had started after this memory was made.
    w.store.graph.setState(GRAPH_CURSOR, w.store.changes.lastSeq());
    const r = step();
    expect(r.anchors).toBe(0);
    expect(
      w.store.graph
        .around(id)
        .out.map((e) => e.kind)
        .sort(),
    ).toEqual(['part_of', 'touches']);
    expect(w.store.graph.state(GRAPH_SEED)).toBe(-1);
    // Only the step's own link changes are left: passed over (not acted on), the cursor at the log's end.
    expect(step().changes).toBe(0);
    expect(w.store.graph.state(GRAPH_CURSOR)).toBe(w.store.changes.lastSeq());
  });

  it('does not anchor old memories (a backfill describes code as it was)', () => {
    w.remember('Years ago', { filesModified: ['src/a.ts'] }, { at: Date.now() - 30 * 86_400_000 });
    expect(step().anchors).toBe(0);
  });

  it('a human edit re-anchors a stale memory at the current content', () => {
    const id = w.remember('Limit is ten', { filesModified: ['src/b.ts'] });
    step();
    w.write('src/b.ts', B.replace('10', '20'));
    recheck();
    expect(w.store.anchors.isStale(id)).toBe(true);
    w.store.memory.edit(id, { title: 'Limit is twenty' }, { origin: 'cli', at: Date.now() });
    step();
    expect(w.store.anchors.isStale(id)).toBe(false);
    expect(w.store.changes.ofEntity(id).map((c) => c.op)).toEqual(['create', 'stale', 'edit', 'fresh']);
  });
});

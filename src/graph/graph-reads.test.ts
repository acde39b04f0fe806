// The graph's lean reads (what the step reads of a memory, what ranking reads of a project) give what
// the full reads give: the same edges, the same ranks to the last bit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectId } from '../core/ids.ts';
import { summaryDraft } from '../core/model.ts';
import { createGraphWorld, type GraphWorld } from './graph.test-support.ts';
import { runGraphStep } from './graph-step.ts';
import { rankFiles } from './key-files.ts';
import { loadProjectGraph, loadRankGraph } from './project-graph.ts';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
let w: GraphWorld;
beforeEach(() => {
  w = createGraphWorld('atlas');
  w.write('src/store.ts', 'export function createStore() {\n  return 1;\n}\n');
  w.write('src/search.ts', 'export function search() {}\n');
});
afterEach(() => w.cleanup());

function catchUp(anchorMaxAgeMs = 0): void {
  const options = { now: NOW, fileSummaryMinLines: 1, anchorMaxAgeMs, batch: 100 };
  while (runGraphStep(w.store, options).changes > 0);
}

const wikiEdges = (id: string) =>
  w.store.graph
    .around(id)
    .out.filter((e) => e.kind === 'links_to')
    .map((e) => e.to);

describe("the graph step's read of a memory", () => {
  it('finds a wiki-link in each of its texts, and none where the texts only meet', () => {
    const target = w.remember('Store opens one connection', { filesModified: ['src/store.ts'] });
    const inTitle = w.remember('About [[Store opens one connection]]', {});
    const inSubtitle = w.remember('Subtitle', { subtitle: 'see [[Store opens one connection]]' });
    const inNarrative = w.remember('Narrative', { narrative: 'See [[Store opens one connection]].' });
    const inFact = w.remember('Fact', { facts: ['first', 'per [[Store opens one connection]]'] });
    const byId = w.remember('By id', { facts: [`[[${target}]]`] });
    // Two facts whose brackets meet only where the texts are joined, and a JSON-escaped one.
    const split = w.remember('Split', { facts: ['ends with [', '[Store opens one connection]]'] });
    const none = w.remember('None', { narrative: 'No link here, only [single] brackets.' });
    catchUp();
    for (const id of [inTitle, inSubtitle, inNarrative, inFact, byId])
      expect(wikiEdges(id)).toEqual([target]);
    expect(wikiEdges(split)).toEqual([]);
    expect(wikiEdges(none)).toEqual([]);
    const ids = [target, inTitle, inSubtitle, inNarrative, inFact, byId, split, none];
    // Read together, as the step reads them; a memory there is not is left out.
    const step = w.store.graph.stepMemories([...ids, 'obs_00000000000000000000']);
    expect([...step.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const full = w.store.observations.get(id);
      const lean = step.get(id);
      if (!full || !lean) throw new Error(`no memory ${id}`);
      expect(lean).toMatchObject({
        id: full.id,
        projectId: full.projectId,
        sessionId: full.sessionId,
        type: full.type,
        status: full.status,
        createdAt: full.createdAt,
        filesRead: full.filesRead,
        filesModified: full.filesModified,
        facts: full.facts,
        provenance: full.provenance,
      });
      // It may say a memory links where it does not (its texts are read then); never the other way.
      if ([full.title, full.subtitle, full.narrative, ...full.facts].join('\n').includes('[['))
        expect(lean.mayLink).toBe(true);
    }
    expect(step.get(none)?.mayLink).toBe(false);
  });
});

describe('ranking a project', () => {
  it('reads the same graph as the working set and ranks its files the same, to the last bit', () => {
    const older = (days: number) => ({ at: NOW - days * DAY });
    const pinned = w.remember(
      'Pinned decision',
      { type: 'decision', filesRead: ['src/search.ts'] },
      older(30),
    );
    w.store.memory.pin(pinned, true, { origin: 'cli', at: NOW - 29 * DAY });
    const archived = w.remember('Old note', { filesRead: ['src/store.ts', 'src/gone.ts'] }, older(20));
    w.store.memory.archive(archived, 'old', { origin: 'cli', at: NOW - 19 * DAY });
    w.store.sessions.touch(w.project, { id: 's2', cwd: w.root, transcriptPath: null }, 'SessionStart', 2);
    w.store.sessions.touch(w.project, { id: 's3', cwd: w.root, transcriptPath: null }, 'SessionStart', 3);
    for (let i = 0; i < 6; i++)
      w.remember(
        `Change ${i}`,
        { type: i % 2 ? 'bugfix' : 'discovery', filesModified: [i % 3 ? 'src/store.ts' : 'src/search.ts'] },
        { at: NOW - (10 - i) * DAY, sessionId: i < 3 ? 's1' : 's2' },
      );
    w.store.memory.saveSummary(
      's3',
      w.project.id as ProjectId,
      summaryDraft({ request: 'look around' }),
      true,
      { origin: 'hook', at: 4 },
    );
    catchUp(Number.MAX_SAFE_INTEGER);
    // The file changes under its anchors: a later memory's step finds the earlier ones stale.
    w.write('src/store.ts', 'export const nothing = 0;\n');
    w.remember('Rewrote the store', { filesModified: ['src/store.ts'] }, { at: NOW - DAY });
    catchUp(Number.MAX_SAFE_INTEGER);
    expect(w.store.anchors.staleInProject(w.project.id).size).toBeGreaterThan(0);
    // A small working set: the pinned memory is read beyond it, the archived one is left out.
    for (const limit of [3, 5000]) {
      const full = loadProjectGraph(w.store, w.project, { maxMemories: limit });
      const lean = loadRankGraph(w.store, w.project, limit);
      expect([...lean.nodes.keys()]).toEqual([...full.nodes.keys()]);
      expect([...lean.out].map(([k, v]) => [k, v.map((e) => `${e.kind} ${e.to}`)])).toEqual(
        [...full.out].map(([k, v]) => [k, v.map((e) => `${e.kind} ${e.to}`)]),
      );
      const ranks = rankFiles(lean, NOW);
      expect(ranks.size).toBeGreaterThan(0);
      expect([...ranks]).toEqual([...rankFiles(full, NOW)]);
    }
    expect(loadRankGraph(w.store, w.project, 3).nodes.has(pinned)).toBe(true);
    expect(loadRankGraph(w.store, w.project).nodes.has(archived)).toBe(false);
  });
});

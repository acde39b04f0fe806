/**
 * The agent's shell keeps a `cd` from one call to the next, and the host records where it is with every
 * transcript record and hook payload. A command runs where the shell was: a test run in a package
 * folder is that folder's, a later run of the same command at the root does not close its failure, and
 * the transcript and the hooks say the same.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { replayLive, transcriptPathOf } from '../../test/support/replay.ts';
import { resolveProject } from '../capture/project-identity.ts';
import type { ProjectId } from '../core/ids.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { drainStore, useFlowStore } from './flow.test-support.ts';
import { ingestTranscript } from './ingest-transcript.ts';

const CWD = '/home/dev/mono';
const project = resolveProject(CWD).id as ProjectId;
const BUILD_FAILED =
  '> web@1.0.0 build\n> vite build\n\nerror during build:\n[vite]: Rollup failed to resolve import "@acme/ui" from "src/App.tsx".';

function session() {
  const s = createClaudeSession({
    sessionId: 'd4000000-0000-4000-8000-000000000001',
    cwd: CWD,
    start: '2026-06-01T09:00:00Z',
  }).start();
  s.prompt('the web build is broken, fix it')
    .cd('packages/web')
    .bash('npm run build', { exit: 1, stdout: BUILD_FAILED })
    .say('The web package imports @acme/ui, which is not one of its dependencies.')
    .cd(CWD)
    // The same command at the root builds something else: it says nothing of the web build.
    .bash('npm run build', { stdout: '> mono@1.0.0 build\n> tsc -b\n' })
    .stop()
    .end();
  return s;
}

describe('commands run where the agent’s shell was', () => {
  const flow = useFlowStore('shell-cwd');

  const expectTheWebBuildStillFailing = () => {
    const memories = flow.store.observations.recent(project, 50).filter((o) => o.status === 'active');
    const failed = memories.filter((o) => o.type === 'failed_attempt');
    expect(failed.map((o) => o.title)).toEqual([
      '`npm run build` fails: error during build: [vite]: Rollup failed to resolve import "@acme/ui…',
    ]);
    expect(failed[0]?.narrative).toMatch(/in packages\/web|packages\/web/);
    const summary = flow.store.summaries.get('d4000000-0000-4000-8000-000000000001');
    expect(summary?.nextSteps).toMatch(/fix `npm run build` in packages\/web/);
  };

  it('from the transcript (backfill)', () => {
    const s = session();
    const path = transcriptPathOf(join(flow.dir, 'projects'), s);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, s.jsonl());
    ingestTranscript(flow.store, path, {
      mode: 'backfill',
      distiller: createHeuristicDistiller(),
      now: s.time(),
    });
    expectTheWebBuildStillFailing();
  });

  it('from the hooks (live)', async () => {
    await replayLive(flow.store, session(), join(flow.dir, 'projects'), (now) =>
      drainStore(flow.store, now, true),
    );
    expectTheWebBuildStillFailing();
  });
});

/**
 * Scenario sessions replayed live — transcript written as the host writes it, hook payloads captured,
 * the worker's drain after each turn with its transcript read — and what engram keeps of them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProject } from '../capture/project-identity.ts';
import type { ProjectId } from '../core/ids.ts';
import { scenarioSessions, SHOP_CWD } from '../../test/fixtures/quality/scenarios.ts';
import { replayLive } from '../../test/support/replay.ts';
import { drainStore, useFlowStore } from './flow.test-support.ts';

const shop = resolveProject(SHOP_CWD).id as ProjectId;
const scenario = (suffix: string) => {
  const s = scenarioSessions().find((x) => x.sessionId.endsWith(suffix));
  if (!s) throw new Error(`no scenario ${suffix}`);
  return s;
};

describe('live distillation of realistic sessions', () => {
  const flow = useFlowStore('flow');
  const drain = (now: number) => drainStore(flow.store, now);
  const replay = (suffix: string) =>
    replayLive(flow.store, scenario(suffix), join(flow.dir, 'projects'), drain);
  const memories = () => flow.store.observations.recent(shop, 200);
  const ofType = (type: string) => memories().filter((o) => o.type === type);

  it('closes a failure left open in one session when the next session fixes it', async () => {
    await replay('03');
    const [open] = ofType('failed_attempt');
    expect(open?.title).toBe('`npm run test:integration` fails: connect ECONNREFUSED 127.0.0.1:5432');
    expect(open?.facts).toContain(
      'also failed: `docker compose up -d db` (Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?)',
    );
    expect(flow.store.summaries.get('a1000000-0000-4000-8000-000000000003')?.nextSteps).toMatch(
      /^start Docker, then run `docker compose up -d db` and the integration tests again; fix `npm run test:integration`/,
    );

    await replay('04');
    expect(ofType('failed_attempt')).toEqual([]);
    const gotcha = flow.store.observations.get(open?.id ?? '');
    expect(gotcha).toMatchObject({
      type: 'gotcha',
      title:
        '`npm run test:integration` fails: connect ECONNREFUSED 127.0.0.1:5432 → run `docker compose up -d db` first',
    });
    const edits = flow.store.changes.since(0, 1000).filter((c) => c.entityId === gotcha?.id);
    expect(edits.map((c) => [c.op, c.origin])).toEqual([
      ['create', 'hook'],
      ['edit', 'hook'],
    ]);
    expect(flow.store.summaries.get('a1000000-0000-4000-8000-000000000004')?.nextSteps).toBe('');
  });

  it('keeps one memory per task of a long epic, its gotchas with their fix, and only real next steps', async () => {
    await replay('02');
    expect(
      ofType('feature')
        .map((o) => o.title)
        .sort(),
    ).toEqual([
      'Add checkout page route',
      'Shipping quotes from weight bands',
      'Validate shipping addresses',
    ]);
    const gotchas = ofType('gotcha')
      .map((o) => o.title)
      .sort();
    expect(gotchas).toEqual([
      '`git push` fails: The current branch feature/checkout has no upstream branch. → `git push --set-upstream origin feature/checkout`',
      '`npm test` fails: ReferenceError: structuredClone is not defined → run that file in the node environment with a `// @vitest-environment node` comment (in shipp…',
    ]);
    // The assistant's words between the tool calls came from the transcript: the fix is in the facts.
    const clone = ofType('gotcha').find((o) => o.title.includes('structuredClone'));
    expect(clone?.facts.join(' ')).toMatch(/run that file in the node environment/);
    expect(ofType('failed_attempt').map((o) => o.title)).toEqual([
      expect.stringMatching(/^`npx playwright test` fails: browserType\.launch: Executable doesn't exist/),
    ]);
    expect(ofType('task').map((o) => o.title)).toEqual([
      'Open tasks (1 of 4): Write e2e tests for the checkout flow',
    ]);
    expect(ofType('decision').map((o) => o.title)).toEqual([
      expect.stringMatching(/^For shipping I will compute quotes from weight bands/),
    ]);
    const next = flow.store.summaries.get('a1000000-0000-4000-8000-000000000002')?.nextSteps ?? '';
    expect(next).toMatch(
      /^Write e2e tests for the checkout flow; wire the shipping quote into the payment step/,
    );
    expect(next).not.toMatch(/push|upstream|structuredClone/);
  });

  it('takes back what a rewound branch left: the abandoned approach is invalidated', async () => {
    await replay('08');
    const all = flow.store.observations.ofSession('a1000000-0000-4000-8000-000000000008');
    expect(all.map((o) => o.title).join('\n')).not.toMatch(/Redis cache|Redis-backed/);
    const gone = flow.store.changes
      .since(0, 1000)
      .filter((c) => c.op === 'invalidate')
      .map((c) => flow.store.observations.get(c.entityId));
    expect(gone.map((o) => [o?.status, o?.statusReason, o?.title]).sort()).toEqual([
      [
        'invalidated',
        'the conversation was rewound past it',
        'Added a Redis-backed cache in front of `getProduct`.',
      ],
      [
        'invalidated',
        'the conversation was rewound past it',
        'I will put a Redis cache in front of `getProduct` because it is shared across instances.',
      ],
    ]);
    expect(ofType('decision').map((o) => o.title)).toEqual([
      expect.stringMatching(/^I will use an in-memory LRU map/),
    ]);
  });

  it('never reads a skill’s instructions, an approval or a topic change as the user’s words', async () => {
    await replay('06');
    await replay('07');
    expect(ofType('preference')).toEqual([]);
    expect(ofType('correction').map((o) => o.title)).toEqual([
      expect.stringMatching(/^Correction: No, don't use npm workspaces for packages/),
    ]);
    expect(ofType('task').map((o) => o.title)).toEqual([
      'Created 2 tickets: #57 Switch the repo to pnpm; #58 Workspaces for packages/*',
    ]);
  });
});

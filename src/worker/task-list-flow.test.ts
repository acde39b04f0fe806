/**
 * A session's task list through the worker (live hooks and transcript, then a backfill of the same
 * transcript; real SQLite): items the session later did under other words are closed by what the work
 * defined or changed; the item that names nothing the session touched, and the one whose function was
 * never written, stay open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProject } from '../capture/project-identity.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Store } from '../store/store.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { replayLive, transcriptPathOf } from '../../test/support/replay.ts';
import { backfill } from './backfill.ts';
import { drainStore, useFlowStore } from './flow.test-support.ts';

const CWD = '/home/dev/scenario-agent';
const project = resolveProject(CWD).id as ProjectId;
const BROWSER = `import { chromium, type Page } from 'playwright';

export class PlaywrightComputerUse {
  private page: Page | null = null;

  async initialize(): Promise<void> {
    this.page = await (await chromium.launch()).newPage();
  }

  async click(x: number, y: number): Promise<void> {
    await this.page?.mouse.click(x, y);
  }

  async type(text: string): Promise<void> {
    await this.page?.keyboard.type(text);
  }

  async press(key: string): Promise<void> {
    await this.page?.keyboard.press(key);
  }

  async navigate(url: string): Promise<void> {
    await this.page?.goto(url);
  }

  async screenshot(): Promise<string> {
    return (await this.page?.screenshot())?.toString('base64') ?? '';
  }
}
`;
const CLIENT = `export async function parseReply(res: Response): Promise<unknown> {
  return res.json();
}
`;
const DOCKERFILE = `FROM mcr.microsoft.com/playwright:v1.48.0-jammy
RUN apt-get update && apt-get install -y x11vnc xvfb
WORKDIR /app
`;
const OPEN_ITEMS = [
  'Implement click(x,y), type(text), screenshot() primitives',
  'Set up Docker container with Playwright and VNC',
  'Download/set up TodoMVC in container',
  'Add `retryFetch` to src/net/client.ts',
  'Test: Can agent complete happy-path scenario successfully?',
];

/** The session's transcript written where Claude Code keeps it, and read by a backfill at `day`. */
function backfillOf(
  flow: { readonly store: Store; readonly dir: string },
  s: ReturnType<typeof createClaudeSession>,
  day: string,
): void {
  const root = join(flow.dir, 'projects');
  const path = transcriptPathOf(root, s);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, s.jsonl());
  backfill(flow.store, { root, distiller: createHeuristicDistiller(), now: () => Date.parse(day) });
}

function session() {
  const s = createClaudeSession({
    sessionId: 'c3000000-0000-4000-8000-000000000001',
    cwd: CWD,
    start: '2026-05-01T09:00:00Z',
  }).start();
  s.prompt('ok, build it')
    .write('docker/Dockerfile', DOCKERFILE)
    .todo([
      { content: 'Set up project structure', status: 'completed' },
      { content: 'Build computer-use layer on Playwright', status: 'in_progress' },
      ...OPEN_ITEMS.map((content) => ({ content, status: 'pending' as const })),
    ])
    // After the list: the primitives it names are written (the Dockerfile before it does not count).
    .write('src/computer-use/browser.ts', BROWSER)
    .say('The computer-use layer is in place.')
    .stop();
  s.prompt("let's use apple container instead of docker. push all the way through")
    .edit('docker/Dockerfile', 'RUN apt-get update && apt-get install -y x11vnc xvfb\n', '', DOCKERFILE)
    .bash('mkdir -p docker/todomvc && cp -r todomvc-master/examples/react/* docker/todomvc/')
    .write('docker/todomvc/serve.sh', '#!/bin/sh\ncd dist && python3 -m http.server 8080\n')
    // The file retryFetch was to go in is changed, retryFetch itself is not written.
    .edit('src/net/client.ts', '  return res.json();', '  return await res.json();', CLIENT)
    .todo([
      { content: 'Build computer-use layer on Playwright', status: 'completed' },
      { content: 'Adapt Docker setup for Apple container', status: 'completed' },
      { content: 'Download TodoMVC and set up in container', status: 'completed' },
    ])
    .say('Everything on the list is done.')
    .stop()
    .end();
  return s;
}

describe('a task list kept true by the work of its session', () => {
  const flow = useFlowStore('task-list');
  const drain = (now: number) => drainStore(flow.store, now);
  const lists = () => flow.store.observations.recent(project, 200).filter((o) => o.type === 'task');
  const stillOpen = ['[ ] Add `retryFetch` to src/net/client.ts', `[ ] ${OPEN_ITEMS[4]}`];

  it('live: closes the items later work did, keeps the untouched ones open', async () => {
    await replayLive(flow.store, session(), join(flow.dir, 'projects'), drain);
    const [list, ...more] = lists();
    expect(more).toEqual([]);
    expect(list?.title).toBe('Open tasks (2 left of an earlier list): Add `retryFetch` to src/net/client.ts');
    expect(list?.facts).toEqual(stillOpen);
  });

  it('backfill of the same transcript: the same list', () => {
    backfillOf(flow, session(), '2026-05-02');
    expect(lists().map((o) => o.facts)).toEqual([stillOpen]);
  });
});

describe('the host’s numbered task tools: a later turn finishes by number what an earlier one created', () => {
  const flow = useFlowStore('task-tools');
  const drain = (now: number) => drainStore(flow.store, now);
  const lists = () =>
    flow.store.observations.recent(project, 200).filter((o) => o.type === 'task' && o.status === 'active');
  const numbered = () => {
    const s = createClaudeSession({
      sessionId: 'c3000000-0000-4000-8000-000000000002',
      cwd: CWD,
      start: '2026-05-03T09:00:00Z',
    }).start();
    s.prompt('Solve the three questions, one at a time, and pause for my review after each.')
      .taskCreate('1', 'Q1: total supply via RPC')
      .taskCreate('2', 'Q2: recent swaps screenshot')
      .taskCreate('3', 'Q3: decode the swap value')
      .taskUpdate('1', 'in_progress')
      .write('lib/first.rb', 'puts 1\n')
      .taskUpdate('1', 'completed')
      .say('Q1 is done; pausing for your review.')
      .stop();
    s.prompt('q1 looks good. proceed to q2.')
      .taskUpdate('2', 'in_progress')
      .write('lib/second.rb', 'puts 2\n')
      .taskUpdate('2', 'completed')
      .say('Q2 is done.')
      .stop();
    return s;
  };

  it('live: the list left open by the first turn loses the task the second turn finished', async () => {
    await replayLive(flow.store, numbered(), join(flow.dir, 'projects'), drain);
    expect(lists().map((o) => o.facts)).toEqual([['[ ] #3 Q3: decode the swap value']]);
  });

  it('backfill of the same transcript: the same list', () => {
    backfillOf(flow, numbered(), '2026-05-04');
    expect(lists().map((o) => o.facts)).toEqual([['[ ] #3 Q3: decode the swap value']]);
  });
});

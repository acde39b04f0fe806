import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeSession } from '../../test/support/claude-session.ts';
import { projectIdFromKey } from '../core/ids.ts';
import type { CapturedEvent, Project } from '../core/model.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { appendEvent } from '../store/store.test-support.ts';
import { drainOnce } from './drain.ts';
import { ingestTranscript } from './ingest-transcript.ts';

const project: Project = { id: projectIdFromKey('path:/p'), name: 'p', key: 'path:/p', root: '/p' };

/**
 * The user's words when no transcript can be read (Claude Code with `cleanupPeriodDays: 0` writes
 * none; other agents have none): the prompt, the call the user rejected and the assistant's last
 * message, as the hooks carried them, read the same way a transcript is.
 */
describe('the user’s words without a transcript', () => {
  let dir: string;
  let store: Store;
  let at = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-words-'));
    store = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const add = (sessionId: string, event: CapturedEvent) =>
    appendEvent(store, project, sessionId, event, ++at);
  const drain = () =>
    drainOnce(
      { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger(), readTranscripts: true },
      { force: false, now: 1_000_000, staleTurnMs: 10_000_000, maxAttempts: 2 },
    );
  const ofType = (type: string) =>
    store.observations.recent(project.id, 50).filter((o) => o.type === type && o.status === 'active');

  it('reads a correction against the assistant’s last message of the turn before', () => {
    add('s', { kind: 'prompt', prompt: 'Add caching to the user lookup' });
    add('s', { kind: 'stop', lastMessage: 'I will add Redis as a cache in front of the database.' });
    add('s', { kind: 'prompt', prompt: "No, don't add Redis; use an in-memory LRU map instead." });
    add('s', { kind: 'stop', lastMessage: 'Switched to an in-memory LRU map.' });
    drain();
    const corrections = ofType('correction');
    expect(corrections.map((o) => [o.title, o.pinned])).toEqual([
      ["Correction: No, don't add Redis; use an in-memory LRU map instead.", true],
    ]);
    expect(corrections[0]?.facts).toContain(
      'rejected: I will add Redis as a cache in front of the database.',
    );
  });

  it('reads the reason typed when rejecting a tool call, and never a slash command’s arguments', () => {
    add('r', { kind: 'prompt', prompt: 'silence the lint warning' });
    add('r', {
      kind: 'tool_failure',
      tool: 'Edit',
      input: {
        file_path: '/p/app/api.ts',
        old_string: 'import x',
        new_string: '// biome-ignore lint\nimport x',
      },
      error:
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nwe import it twice, remove the unused import instead",
      interrupted: false,
    });
    add('r', { kind: 'stop', lastMessage: 'Removed the unused import.' });
    add('r', { kind: 'prompt', prompt: '/review-pr always approve' });
    add('r', { kind: 'stop', lastMessage: 'Reviewed.' });
    drain();
    expect(ofType('correction').map((o) => o.facts)).toEqual([
      [
        'rejected: Edit /p/app/api.ts: // biome-ignore lint',
        'instead: we import it twice, remove the unused import instead',
      ],
    ]);
    expect(ofType('preference')).toEqual([]);
  });

  it('merges the same words read later from the transcript into the same memory', () => {
    add('t', { kind: 'prompt', prompt: 'Never commit directly to main. Fix the flaky test.' });
    add('t', { kind: 'stop', lastMessage: 'Fixed the flaky test.' });
    drain();
    const before = ofType('preference');
    expect(before.map((o) => [o.title, o.pinned])).toEqual([['Never commit directly to main.', true]]);

    // The transcript appears later (written late, or copied in): the same prompt is read again.
    const s = createClaudeSession({ sessionId: 't', cwd: '/p', start: '2026-03-01T10:00:00Z' })
      .prompt('Never commit directly to main. Fix the flaky test.')
      .say('Fixed the flaky test.')
      .stop();
    const path = join(dir, 't.jsonl');
    writeFileSync(path, s.jsonl());
    ingestTranscript(store, path, {
      mode: 'live',
      distiller: createHeuristicDistiller(),
      now: 2_000_000,
      sessionId: 't',
      cwd: '/p',
    });
    const after = ofType('preference');
    expect(after.map((o) => o.id)).toEqual(before.map((o) => o.id));
    expect(store.observations.get(after[0]?.id ?? '')?.seenCount).toBeGreaterThan(1);
  });

  it('reads "A" in a later read against options offered a message earlier, past many tool calls', () => {
    const s = createClaudeSession({ sessionId: 'o', cwd: '/p', start: '2026-03-01T10:00:00Z' })
      .prompt('how should we start the MVP?')
      .say(
        'For the MVP, do you want to:\n\n**A) Start with scenario execution** - prove the agent can drive\n\n**B) Start with bug detection** - find a known bug',
      );
    for (let i = 0; i < 12; i++) s.read(`/p/src/file${i}.ts`, `export const x${i} = ${i};`);
    s.say('Does this single-agent architecture match your intuition?').stop();
    const path = join(dir, 'o.jsonl');
    writeFileSync(path, s.jsonl());
    const options = {
      mode: 'live' as const,
      distiller: createHeuristicDistiller(),
      sessionId: 'o',
      cwd: '/p',
    };
    ingestTranscript(store, path, { ...options, now: 2_000_000 });
    s.prompt('A').say('Starting with scenario execution.').stop();
    writeFileSync(path, s.jsonl());
    const second = ingestTranscript(store, path, { ...options, now: 3_000_000 });
    expect(second).toMatchObject({ restarted: false });
    expect(ofType('decision').map((o) => o.title)).toEqual([
      'Chose option A: Start with scenario execution - prove the agent can drive',
    ]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { FORGOTTEN_LINE } from '../store/erase-injected.ts';
import { writeInbox } from '../store/inbox.ts';
import { createStore, type Store } from '../store/store.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { importInboxInto } from './import-inbox.ts';

describe('importing a context hook event', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-import-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = { name: 'app', key: 'app', root: '/app' };
  const projectId = projectIdFromKey('app');

  it('records what was injected, except a memory forgotten while the event waited', () => {
    const kept = insertMemory(store, { projectId, title: 'Prices are integer cents' });
    const gone = insertMemory(store, { projectId, title: 'The staging password lives in vault' });
    const text = `engram: memories that match this prompt:\n- ${kept} [fact] Prices are integer cents\n- ${gone} [fact] The staging password lives in vault`;
    const inbox = join(dir, 'inbox');
    writeInbox(inbox, {
      sessionId: 'sess-1',
      hook: 'UserPromptSubmit',
      cwd: '/app',
      transcriptPath: null,
      at: 10,
      event: { kind: 'prompt', prompt: 'how are prices stored?' },
      project,
      injected: {
        text,
        tokens: 30,
        observationIds: [kept, gone],
        items: [
          { id: kept, tokens: 12, score: 0.9, why: 'match' },
          { id: gone, tokens: 14, score: 0.6, why: 'match' },
        ],
        latencyMs: 41,
      },
    });
    store.memory.forget(gone, { origin: 'cli', at: 5 });

    expect(importInboxInto(store, inbox).imported).toBe(1);
    const [logged] = store.contextLog.ofSession('sess-1');
    expect(logged?.text).toContain(kept);
    expect(logged?.text).not.toContain('staging password');
    expect(logged?.text).toContain(FORGOTTEN_LINE);
    expect(logged?.latencyMs).toBe(41);
    expect(store.injections.has('sess-1', kept)).toBe(true);
    expect(store.injections.has('sess-1', gone)).toBe(false);
  });
});

describe('importing events of other hosts', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-import-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = { name: 'app', key: 'app', root: '/app' };
  const event = (sessionId: string, host?: string) => ({
    sessionId,
    hook: 'SessionStart',
    cwd: '/app',
    transcriptPath: null,
    at: 10,
    event: { kind: 'session_start' as const, source: 'startup' },
    project,
    ...(host === undefined ? {} : { host }),
  });

  it('records the host on the session (Claude Code when the record names none), and refuses a bad name', () => {
    const inbox = join(dir, 'inbox');
    writeInbox(inbox, event('from-codex', 'codex'));
    writeInbox(inbox, event('from-claude'));
    writeInbox(inbox, event('bad-host', 'Not A Host!'));
    const report = importInboxInto(store, inbox);
    expect(report.imported).toBe(2);
    expect(report.reasons.map((r) => r.reason)).toEqual(['host must be a short lower-case name']);
    expect(store.sessions.get('from-codex')?.host).toBe('codex');
    expect(store.sessions.get('from-claude')?.host).toBe('claude-code');
    expect(store.sessions.hostStats().map((h) => [h.host, h.sessions])).toEqual([
      ['claude-code', 1],
      ['codex', 1],
    ]);
  });

  it('counts the captured events per host across imports', () => {
    const inbox = join(dir, 'inbox');
    for (const hook of ['UserPromptSubmit', 'PostToolUse', 'Stop'])
      writeInbox(inbox, { ...event('from-codex', 'codex'), hook, at: 20 });
    writeInbox(inbox, event('from-claude'));
    importInboxInto(store, inbox);
    writeInbox(inbox, { ...event('from-codex', 'codex'), hook: 'SessionEnd', at: 30 });
    importInboxInto(store, inbox);
    importInboxInto(store, inbox);
    expect(store.sessions.hostStats().map((h) => [h.host, h.sessions, h.events, h.lastAt])).toEqual([
      ['claude-code', 1, 1, 10],
      ['codex', 1, 4, 30],
    ]);
  });
});

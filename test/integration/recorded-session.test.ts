import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import { FORGOTTEN_LINE } from '../../src/store/erase-injected.ts';
import { createStore } from '../../src/store/store.ts';
import { CLI_BIN, createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'hook-payloads', 'bugfix-session.jsonl');

describe('recorded Claude Code hook payloads through ./bin/engram hook', () => {
  let sb: Sandbox;
  let project: string;
  beforeAll(() => {
    sb = createSandbox();
    project = sb.project('calc', 'git@github.com:example/calc.git');
    const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
    for (const line of lines) {
      const payload = line.replaceAll('{{cwd}}', project).replaceAll('{{home}}', sb.home);
      const r = spawnSync(process.execPath, [CLI_BIN, 'hook'], { input: payload, env: sb.env, cwd: project });
      expect(r.status).toBe(0);
    }
    const flush = sb.engram(['flush']);
    expect(flush.status, flush.stderr).toBe(0);
  });
  afterAll(() => sb.cleanup());

  it('distils the turn into sensible memories and a session summary', () => {
    const results = (
      JSON.parse(sb.engram(['search', 'add test math', '--json', '--cwd', project]).stdout) as {
        results: { id: string; type: string; title: string }[];
      }
    ).results;
    const main = results.find((r) => r.type === 'bugfix');
    expect(main?.title).toBe('Fixed add() in math.js: it subtracted instead of adding.');
    const full = JSON.parse(sb.engram(['show', main?.id as string, '--json']).stdout) as {
      facts: string[];
      narrative: string;
      filesModified: string[];
      filesRead: string[];
    };
    expect(full.filesModified).toEqual(['math.js']);
    expect(full.filesRead).toEqual(['math.js']);
    expect(full.facts).toEqual(expect.arrayContaining(['math.js: changed add']));
    expect(full.narrative).toMatch(/subtracted instead of adding/);
    // The failing test the fix made pass is a fact of the fix, not a second memory.
    expect(results.filter((r) => r.type === 'error' || r.type === 'gotcha')).toEqual([]);
    expect(full.facts).toEqual(
      expect.arrayContaining([expect.stringMatching(/^fixed: FAIL add\(2, 3\) expected 5, got -1/)]),
    );
  });

  it('shows them to the next session of the project, and not to another project', () => {
    const ctx = JSON.parse(sb.engram(['context', '--cwd', project, '--json']).stdout) as {
      text: string;
      tokens: number;
    };
    expect(ctx.text).toContain('engram memory for project "calc"');
    expect(ctx.text).toContain('Last session');
    expect(ctx.text).toContain('Request: The add function is broken; make the test pass');
    expect(ctx.text).toMatch(/\[bugfix\] Fixed add\(\) in math\.js.* · math\.js · /);
    expect(ctx.tokens).toBeLessThanOrEqual(1000);
    // The same repository cloned elsewhere (https remote) is the same project.
    const clone = sb.project('calc-clone', 'https://github.com/example/calc.git');
    expect(sb.engram(['context', '--cwd', clone]).stdout).toContain('The add function is broken');
    const other = sb.project('unrelated', 'git@github.com:example/unrelated.git');
    const otherCtx = sb.engram(['context', '--cwd', other]).stdout;
    expect(otherCtx).not.toContain('add function');
    expect(otherCtx).toMatch(/nothing remembered yet/);
  });

  it('adapts the index to how the session starts and never repeats on resume', () => {
    const compact = sb.engram(['context', '--cwd', project, '--source', 'compact']).stdout;
    expect(compact).toContain('Recent memories');
    const startup = spawnSync(process.execPath, [CLI_BIN, 'hook'], {
      input: JSON.stringify({
        session_id: 'resumed-1',
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
      env: sb.env,
    });
    expect(startup.stdout.toString()).toContain('The add function is broken');
    const resume = spawnSync(process.execPath, [CLI_BIN, 'hook'], {
      input: JSON.stringify({
        session_id: 'resumed-1',
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'resume',
      }),
      env: sb.env,
    });
    // Everything was already shown to this session: nothing new to say.
    expect(resume.stdout.toString()).toBe('');
  });

  it('adds matching memories to a prompt once, above the relevance threshold only', () => {
    const ask = (prompt: string, session: string) =>
      spawnSync(process.execPath, [CLI_BIN, 'hook'], {
        input: JSON.stringify({
          session_id: session,
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt,
        }),
        env: sb.env,
      }).stdout.toString();
    const hit = ask('Why was the add function in math.js broken?', 'prompt-1');
    const parsed = JSON.parse(hit) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(parsed.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(parsed.hookSpecificOutput.additionalContext).toContain('Fixed add() in math.js');
    expect(ask('Why was the add function in math.js broken?', 'prompt-1')).toBe(''); // not repeated
    expect(ask('Please write a haiku about autumn leaves', 'prompt-2')).toBe(''); // not relevant

    // Each call is in the context log (recorded when the worker imports the event): exactly what was
    // injected, each memory's score and cost, the hook's time.
    expect(sb.engram(['flush']).status).toBe(0);
    const store = createStore(openDatabase(join(sb.engramHome, 'engram.db'), { readonly: true }));
    try {
      const [first, again] = store.contextLog.ofSession('prompt-1');
      expect(first?.text).toBe(parsed.hookSpecificOutput.additionalContext);
      expect(first?.items.length).toBeGreaterThan(0);
      for (const item of first?.items ?? []) {
        expect(item.why).toBe('match');
        expect(item.score).toBeGreaterThanOrEqual(0.35);
        expect(first?.text).toContain(item.id);
        expect(item.tokens).toBeGreaterThan(0);
      }
      expect(first?.latencyMs).toBeGreaterThan(0);
      expect(again).toMatchObject({ text: '', tokens: 0, items: [] });
    } finally {
      store.close();
    }

    // Forgetting a memory takes its line out of every injection that carried it.
    const told = JSON.parse(hit) as { hookSpecificOutput: { additionalContext: string } };
    const id = /obs_[0-9a-z]{20}/.exec(told.hookSpecificOutput.additionalContext)?.[0] as string;
    const { title } = JSON.parse(sb.engram(['show', id, '--json']).stdout) as { title: string };
    expect(told.hookSpecificOutput.additionalContext).toContain(title);
    const indexBefore = (() => {
      const before = createStore(openDatabase(join(sb.engramHome, 'engram.db'), { readonly: true }));
      try {
        return before.contextLog.ofSession('resumed-1')[0]?.text ?? '';
      } finally {
        before.close();
      }
    })();
    expect(indexBefore).toContain(id);
    expect(sb.engram(['forget', id]).status).toBe(0);
    const after = createStore(openDatabase(join(sb.engramHome, 'engram.db'), { readonly: true }));
    try {
      const [logged] = after.contextLog.ofSession('prompt-1');
      expect(logged?.text).not.toContain(id);
      expect(logged?.text).not.toContain(title);
      expect(logged?.text).toContain(FORGOTTEN_LINE);
      // (A SessionStart index may still quote the session summary, which is not the memory.)
      for (const row of after.contextLog.ofSession('resumed-1')) expect(row.text).not.toContain(id);
    } finally {
      after.close();
    }
  });
});

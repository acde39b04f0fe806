import { describe, expect, it } from 'vitest';
import type { CapturedEvent, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { abs, bash, edit, prompt, read, ROOT, stop, tool, turn } from './queued-events.test-support.ts';

const distil = (events: QueuedEvent[], previousSummary: SummaryDraft | null = null) =>
  createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary });

describe('heuristic distiller: odd input', () => {
  it('survives unknown tools, garbage fields and wrong types', () => {
    const weird = [
      tool('mcp__github__create_issue', { title: 5 }, null),
      tool('Edit', 'not an object', 42),
      tool('Bash', { command: 17 }, []),
      tool('Write', { file_path: null }, {}),
      tool('MultiEdit', { file_path: abs('x.ts'), edits: 'nope' }, {}),
      tool('TodoWrite', { todos: [null, 3, { content: 7 }, { content: 'real', status: 'weird' }] }),
      tool('Task', { description: ['x'] }, { content: 'short' }),
      tool('Edit', { file_path: abs('y.ts'), old_string: null, new_string: {} }, { structuredPatch: 'bad' }),
      { kind: 'tool_failure', tool: 'Read', input: {}, error: '', interrupted: true },
      { kind: 'tool_failure', tool: 'Bash', input: null, error: null, interrupted: 'no' },
      { kind: 'nonsense' },
      { kind: 'stop', lastMessage: null },
      { kind: 'prompt', prompt: 12 },
      null,
    ] as unknown as CapturedEvent[];
    const events = [...turn(...weird), null, 'x', { seq: 99 }] as unknown as QueuedEvent[];
    const r = createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary: null });
    expect(r.observations.map((o) => o.type)).toEqual(['change', 'task']);
    expect(r.observations[0]?.filesModified).toEqual(['x.ts', 'y.ts']);
    expect(r.summary?.notes).toBe('tools: mcp__github__create_issue');
    expect(() =>
      createHeuristicDistiller().distilTurn({
        projectRoot: null,
        events: null,
        previousSummary: null,
      } as never),
    ).not.toThrow();
  });

  it('says nothing about a turn with only a session start', () => {
    expect(distil(turn({ kind: 'session_start', source: 'startup' }))).toEqual({
      observations: [],
      summary: null,
      resolutions: [],
      finishedTasks: [],
    });
  });

  it('distils a partial turn without a prompt from what was done', () => {
    const r = distil(
      turn(
        edit('a.py', 'def f():\n    pass', 'def f():\n    return 1\n\n\ndef g():\n    pass'),
        read('b.go', 'func main() {}'),
      ),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        type: 'change',
        title: 'a.py: changed f; added g',
        facts: ['a.py: changed f; added g'],
        filesRead: ['b.go'],
      }),
    ]);
    expect(r.summary).toMatchObject({ request: '', filesEdited: ['a.py'], filesRead: ['b.go'] });
  });

  it('splits a flush that holds several prompts into their own tasks', () => {
    const r = distil(
      turn(
        prompt('Add a dark mode toggle'),
        edit(
          'src/theme.ts',
          'export const theme = light;',
          'export const theme = prefersDark() ? dark : light;',
        ),
        stop('Added.'),
        prompt('Also persist the choice'),
        edit('src/settings.ts', 'export const settings = {};', 'export const settings = { theme: load() };'),
        stop('The theme choice is now saved in `settings` and restored on load.'),
      ),
    );
    expect(r.observations.map((o) => [o.type, o.title, o.filesModified])).toEqual([
      ['feature', 'Added a dark mode toggle', ['src/theme.ts']],
      ['change', 'The theme choice is now saved in `settings` and restored on load.', ['src/settings.ts']],
    ]);
  });

  it('skips a turn whose only answer is a promise to look', () => {
    const r = distil(turn(prompt('the server does not start'), stop('Let me check the logs.')));
    expect(r.observations).toEqual([]);
    expect(r.summary?.request).toBe('the server does not start');
  });
});

describe('heuristic distiller: many events', () => {
  it('is deterministic and keeps a busy turn to a few observations', () => {
    const events = turn(
      prompt('Update all the request handlers to return JSON errors'),
      ...Array.from({ length: 50 }, (_, i) =>
        i % 5 === 0
          ? bash(`npx vitest run src/h${i}.test.ts`, `Tests  ${i + 1} passed (${i + 1})`)
          : i % 2
            ? read(`src/handlers/h${i}.ts`)
            : edit(
                `src/handlers/h${i}.ts`,
                `export function h${i}(req) {\n  return text(err);\n}`,
                `export function h${i}(req) {\n  return json(err);\n}`,
              ),
      ),
      stop('Updated 20 handlers; every handler test passes.'),
    );
    const a = distil(events);
    const b = createHeuristicDistiller().distilTurn({
      projectRoot: ROOT,
      events: structuredClone(events),
      previousSummary: null,
    });
    expect(b).toEqual(a);
    expect(a.observations.length).toBeLessThanOrEqual(5);
    const [main] = a.observations;
    expect(main?.type).toBe('change');
    expect(main?.facts.length).toBeLessThanOrEqual(12);
    expect(main?.facts).toContain('… and 10 more files changed');
    expect(main?.facts).toContain('test `npx vitest run`: passed (46 passed)');
    expect(main?.filesModified).toHaveLength(20);
  });
});

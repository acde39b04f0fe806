import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestErrors, digestGotchas, digestOpenItems, digestUserMessages } from './compact-summary.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import type { CapturedEvent } from '../core/model.ts';
import { bash, bashFail, edit, ROOT, turn } from './queued-events.test-support.ts';

/** The real compaction summary of the MIT fixture session (its `isCompactSummary` record). */
function realSummary(): string {
  const file = join(
    import.meta.dirname,
    '..',
    '..',
    'test',
    'fixtures',
    'transcripts',
    '258c7280-ae70-4798-800f-63464d01a85d.jsonl',
  );
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"isCompactSummary":true')) continue;
    const r = JSON.parse(line) as { message: { content: string } };
    return r.message.content;
  }
  throw new Error('no compaction summary in the fixture');
}

describe('the host’s compaction digest, section by section', () => {
  it('reads the user’s messages it quotes — never its paraphrases', () => {
    expect(digestUserMessages(realSummary())).toEqual([
      'Implement spotter-gqc',
      'check again',
      'new beads for the epic were added. tackle them',
    ]);
  });

  it('reads pending tasks and the next step as the open items', () => {
    const open = digestOpenItems(realSummary());
    expect(open[0]).toMatch(/^spotter-gqc\.6 \(in_progress\): Close project review session/);
    expect(open[1]).toMatch(/^spotter-gqc\.7 \(open, blocked by gqc\.5\)/);
    expect(open[2]).toMatch(/^Complete gqc\.6 by adding LiveView tests/);
  });

  it('makes a gotcha of each error and its fix, and none of an error the work expected', () => {
    const errors = digestErrors(realSummary());
    expect(errors.map((e) => e.problem)).not.toContain('Compile errors for missing AnnotationMessageRef');
    expect(errors.find((e) => /lazy_html/.test(e.problem))).toMatchObject({
      problem: 'LiveView test: missing lazy_html dependency',
      fix: 'Added {:lazy_html, ">= 0.1.0", only: :test} to mix.exs deps.',
    });
    const gotchas = digestGotchas(realSummary());
    expect(gotchas.find((g) => /SQLite/.test(g.title))).toMatchObject({
      type: 'gotcha',
      title:
        'Auto-generated migration uses ALTER TABLE MODIFY (unsupported in SQLite for nullability) → Rewrote migration manually using table rename+recreate+copy pattern already established in the repo.',
      subject: expect.stringMatching(/^gotcha:digest:/),
    });
  });

  it('finds the sections by their words, in markdown headings too, and reads nothing without them', () => {
    const text = [
      '<summary>',
      '## Errors and fixes',
      '- **`npm ci` fails in the container with "Exit handler never called!"**: switched the Containerfile to `npm install`.',
      '## All user messages',
      '- "use apple container instead of docker"',
      '## Pending tasks',
      '- run ./run.sh again',
      '</summary>',
    ].join('\n');
    expect(digestUserMessages(text)).toEqual(['use apple container instead of docker']);
    expect(digestOpenItems(text)).toEqual(['run ./run.sh again']);
    expect(digestErrors(text).map((e) => e.fix)).toEqual(['switched the Containerfile to npm install.']);
    expect(digestUserMessages('Just a plain summary with no sections.')).toEqual([]);
    expect(digestGotchas('Just a plain summary with no sections.')).toEqual([]);
  });
});

describe('the digest’s open items in the session summary', () => {
  it('makes the pending tasks and next step the session’s next steps, until later turns say otherwise', () => {
    const distiller = createHeuristicDistiller();
    const compacted = distiller.distilTurn({
      projectRoot: ROOT,
      events: turn({ kind: 'post_compact', trigger: 'auto', summary: realSummary() }),
      previousSummary: null,
    });
    expect(compacted.summary?.nextSteps).toMatch(
      /^pending at compaction: spotter-gqc\.6 \(in_progress\): Close project review session/,
    );
    const later = distiller.distilTurn({
      projectRoot: ROOT,
      events: turn(
        { kind: 'prompt', prompt: 'did you push?' },
        { kind: 'stop', lastMessage: 'Yes, everything is pushed. Next step: write the release notes.' },
      ),
      previousSummary: compacted.summary,
    });
    expect(later.summary?.nextSteps).toBe('write the release notes');
  });

  it('drops what the turn after the compaction did: tickets it closed (an epic with its sub-tasks), steps it ran, files it fixed with the checks passing', () => {
    const digest = [
      '<summary>',
      '7. Pending Tasks:',
      '   - **app-4te.3** (closed in beads but **code NOT committed**): The controller changes need the type error resolved before they can be committed',
      '   - **app-4te.4**: Enable tracing of the async jobs',
      '   - Session close protocol (git add, bd sync, git commit, git push) after all tasks complete',
      '   - Write the release notes for the tracing work',
      '9. Optional Next Step:',
      '   Fix the two errors in `transcript_components.ex` reported by the compiler',
      '</summary>',
    ].join('\n');
    const component = 'lib/app_web/components/transcript_components.ex';
    const after = (checks: CapturedEvent) =>
      createHeuristicDistiller().distilTurn({
        projectRoot: ROOT,
        events: turn(
          { kind: 'post_compact', trigger: 'auto', summary: digest },
          { kind: 'prompt', prompt: 'continue' },
          edit(component, 'when idx == line[:result_line_index]', 'when idx == result_index'),
          checks,
          bash('bd close app-4te.4', '✓ Closed app-4te.4'),
          bash('bd close app-4te', '✓ Closed app-4te'),
          bash('git add -A'),
          bash('bd sync'),
          bash(
            'git commit -m "feat: trace async jobs (app-4te)"',
            '[app-4te 1a2b3c4] feat: trace async jobs (app-4te)\n 3 files changed',
          ),
          bash('git push', 'To github.com:acme/app.git\n   0a1b2c3..1a2b3c4  app-4te -> app-4te'),
        ),
        previousSummary: null,
      }).summary?.nextSteps ?? '';
    expect(after(bash('mix test', 'Finished in 0.5 seconds\n40 tests, 0 failures'))).toBe(
      'pending at compaction: Write the release notes for the tracing work',
    );
    // With a check still failing, the file's errors are not known to be fixed.
    const failing = after(
      bashFail(
        'mix test',
        'Exit code 2\n  1) test renders rows (AppWeb.TranscriptTest)\n     ** (CompileError) undefined variable result_index\n40 tests, 1 failure',
      ),
    );
    expect(failing).toMatch(/Fix the two errors in transcript_components\.ex/);
    expect(failing).toMatch(/Write the release notes/);
    expect(failing).not.toMatch(/app-4te\.[34]|Session close protocol/);
  });

  it('drops a pending task once a later commit names its ticket, and keeps the others', () => {
    const distiller = createHeuristicDistiller();
    const compacted = distiller.distilTurn({
      projectRoot: ROOT,
      events: turn({ kind: 'post_compact', trigger: 'auto', summary: realSummary() }),
      previousSummary: null,
    });
    const committed = distiller.distilTurn({
      projectRoot: ROOT,
      events: turn(
        { kind: 'prompt', prompt: 'go on' },
        bash(
          'git commit -am "feat: close review session by closing all open annotations (spotter-gqc.6)"',
          '[spotter-gqc 05fd186] feat: close review session by closing all open annotations (spotter-gqc.6)\n 2 files changed',
        ),
      ),
      previousSummary: compacted.summary,
    });
    expect(committed.summary?.nextSteps).not.toMatch(/gqc\.6 \(in_progress\)|Complete gqc\.6/);
    expect(committed.summary?.nextSteps).toMatch(
      /^pending at compaction: spotter-gqc\.7 \(open, blocked by gqc\.5\)/,
    );
  });

  it('drops what the digest left pending once the user asks for something new; "continue" carries it on', () => {
    const distiller = createHeuristicDistiller();
    const digest = [
      '<summary>',
      '7. Pending Tasks:',
      '   - No explicitly pending tasks. All 7 tasks completed.',
      '8. Optional Next Step:',
      "   Wait for the user's feedback on the redesigned window.",
      '</summary>',
    ].join('\n');
    const compacted = distiller.distilTurn({
      projectRoot: ROOT,
      events: turn({ kind: 'post_compact', trigger: 'auto', summary: digest }),
      previousSummary: null,
    });
    expect(compacted.summary?.nextSteps).toBe(
      "pending at compaction: Wait for the user's feedback on the redesigned window.",
    );
    const after = (prompt: string) =>
      distiller.distilTurn({
        projectRoot: ROOT,
        events: turn({ kind: 'prompt', prompt }, bash('mv sticky notes-app', ''), {
          kind: 'stop',
          lastMessage: 'Renamed the folder.',
        }),
        previousSummary: compacted.summary,
      }).summary?.nextSteps;
    expect(after('rename the folder to notes-app and upload it to GitHub')).toBe('');
    expect(after('continue')).toBe(
      "pending at compaction: Wait for the user's feedback on the redesigned window.",
    );
    // In the user's own language too.
    expect(after('继续')).toBe(
      "pending at compaction: Wait for the user's feedback on the redesigned window.",
    );
  });
});

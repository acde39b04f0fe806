/**
 * `engram forget --match`: a phrase planted everywhere engram keeps text (memories, summaries,
 * prompts, raw events, the inbox, set-aside files, transcript tails, logs) is counted, erased, and
 * afterwards no file under ENGRAM_HOME holds a byte of it — not in free pages, index segments or the WAL.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import { createStore } from '../../src/store/store.ts';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

const NAME = 'Zebulon Quartermaine';
const WORDS = ['zebulon', 'quartermaine', 'quartermain']; // quartermain: its stem in the full-text index

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file under the home that holds the phrase or one of its words, in any case. */
function traces(home: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(home)) {
    const bytes = readFileSync(file).toString('latin1').toLowerCase();
    for (const w of [NAME.toLowerCase(), ...WORDS]) if (bytes.includes(w)) found.push(`${file}: ${w}`);
  }
  return found;
}

describe('engram forget --match', () => {
  let sb: Sandbox;
  let cwd: string;
  beforeAll(() => {
    sb = createSandbox();
    cwd = sb.project('erase-me');
  });
  afterAll(() => sb.cleanup());

  it('erases a phrase from everything engram stores, counted first, leaving no byte behind', () => {
    const p = payloads('sess-erase', cwd);
    // A transcript the worker reads after the turn (its tail is kept as context).
    const transcript = join(sb.root, 'transcript.jsonl');
    const base = { cwd, sessionId: 'sess-erase', version: '2.1.330', gitBranch: 'main', isSidechain: false };
    writeFileSync(
      transcript,
      [
        {
          ...base,
          type: 'user',
          uuid: 'u1',
          parentUuid: null,
          timestamp: '2026-11-20T10:00:00Z',
          message: { role: 'user', content: `Always greet ${NAME} by name in the emails` },
        },
        {
          ...base,
          type: 'assistant',
          uuid: 'a1',
          parentUuid: 'u1',
          timestamp: '2026-11-20T10:00:05Z',
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'claude-x',
            content: [{ type: 'text', text: `Noted: emails greet ${NAME} by name.` }],
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const withTranscript = <T extends object>(payload: T) => ({ ...payload, transcript_path: transcript });
    for (const call of [
      p.start(),
      p.prompt(`Always greet ${NAME} by name in the welcome email`),
      p.tool(
        'Bash',
        { command: 'grep -r greet src' },
        { stdout: `src/mail.ts: greet("${NAME}")`, stderr: '' },
      ),
      p.tool(
        'Edit',
        {
          file_path: `${cwd}/src/mail.ts`,
          old_string: 'greet(user)',
          new_string: `greet(user) // for ${NAME}`,
        },
        {},
      ),
      withTranscript(p.stop(`The welcome email now greets ${NAME} by name.`)),
    ])
      expect(sb.hook(call).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    // Still waiting in the inbox, and a file set aside as unreadable: both hold it too.
    expect(sb.hook(p.prompt(`And cc ${NAME.toUpperCase()} on the invoices`)).status).toBe(0);
    expect(sb.hook(p.tool('Bash', { command: `echo ${NAME}` }, { stdout: NAME, stderr: '' })).status).toBe(0);
    mkdirSync(join(sb.engramHome, 'inbox', 'rejected'), { recursive: true });
    writeFileSync(join(sb.engramHome, 'inbox', 'rejected', 'old.json'), `{"note": "${NAME}`);
    expect(traces(sb.engramHome).length).toBeGreaterThan(3);

    const dry = sb.engram(['forget', '--match', NAME, '--all', '--dry-run', '--json']);
    expect(dry.status, dry.stderr).toBe(0);
    const counted = JSON.parse(dry.stdout) as {
      found: number;
      store: { place: string; occurrences: number }[];
      files: { file: string }[];
    };
    expect(counted.found).toBeGreaterThan(5);
    expect(counted.store.map((s) => s.place)).toEqual(
      expect.arrayContaining(['memories', 'session summaries', 'prompts', 'raw events', 'transcript tails']),
    );
    expect(counted.files.map((f) => f.file)).toEqual(
      expect.arrayContaining([join('inbox', 'rejected', 'old.json')]),
    );
    expect(traces(sb.engramHome).length).toBeGreaterThan(3); // a dry run changes nothing

    // Without a person to ask and without --yes, nothing happens.
    const unconfirmed = sb.engram(['forget', '--match', NAME, '--all']);
    expect(unconfirmed.status).toBe(2);
    expect(unconfirmed.stderr).toMatch(/add --yes/);

    const done = sb.engram(['forget', '--match', NAME, '--all', '--yes', '--json']);
    expect(done.status, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ remaining: 0, compacted: true });
    expect(traces(sb.engramHome)).toEqual([]);

    // Everything else still works, and what was erased is marked as such.
    const search = JSON.parse(sb.engram(['search', 'welcome email', '--json', '--cwd', cwd]).stdout) as {
      results: { id: string; title: string }[];
    };
    expect(search.results.length).toBeGreaterThan(0);
    expect(search.results.map((r) => r.title).join(' ')).toMatch(/\[erased\]/);
    const changes = JSON.parse(sb.engram(['changes', '--json', '--limit', '1000']).stdout) as {
      changes: { op: string }[];
    };
    expect(changes.changes.some((c) => c.op === 'redact')).toBe(true);
    expect(sb.engram(['flush']).status).toBe(0);
    expect(traces(sb.engramHome)).toEqual([]);
  });

  it('a forget left waiting by a viewer that died is carried out by the next flush (or worker round)', () => {
    const p = payloads('sess-pending', cwd);
    for (const payload of [
      p.start(),
      p.prompt('Where do the invoices go?'),
      p.tool(
        'Write',
        { file_path: join(cwd, 'invoices.md'), content: 'Invoices go to the shared drive.' },
        {},
      ),
      p.stop('Invoices are written to invoices.md and go to the shared drive.'),
    ])
      expect(sb.hook(payload).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    const store = createStore(openDatabase(join(sb.engramHome, 'engram.db')));
    let id: string;
    try {
      const found = store.observations.ofSession('sess-pending')[0];
      id = found?.id as string;
      expect(id).toBeDefined();
      // What the viewer does on "forget": archive now, erase after the undo window (here already past).
      store.memory.archive(id, 'forget requested in the viewer', { origin: 'viewer', at: Date.now() });
      store.pendingForgets.add({
        observationId: id,
        batch: 'fgt_dead',
        archived: true,
        requestedAt: 1,
        dueAt: 2,
      });
    } finally {
      store.close();
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const shown = JSON.parse(sb.engram(['show', id, '--json']).stdout) as { status: string };
    expect(shown.status).toBe('forgotten');
  });
});

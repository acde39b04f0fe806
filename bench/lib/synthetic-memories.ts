// Deterministic synthetic coding-agent memories for bench:search: projects, sessions, observations and
// session summaries shaped like the heuristic distiller's (titles from requests, commits and errors;
// facts about files, checks and commits; concepts; files), written through the real store (schema, FTS
// triggers, content hash). Words follow Zipf-like frequencies, so FTS posting lists look like real ones.
import { projectIdFromKey } from '../../src/core/ids.ts';
import type { ObservationDraft, ObservationType, Project } from '../../src/core/model.ts';
import {
  cap,
  DIRS,
  int,
  LANGS,
  LIBS,
  NOUNS,
  pick,
  rng,
  TYPES,
  VERBS,
  vocabulary,
  zipf,
  type Rng,
} from './synthetic-vocabulary.ts';
import type { Store } from '../../src/store/store.ts';

/** Bump when the generated text changes: cached stores are keyed by it. */
export const GENERATOR_VERSION = 2;

interface ProjectModel {
  project: Project;
  lang: (typeof LANGS)[number];
  ident: (r: Rng) => string;
  /** Uniform over the project's identifiers: mostly tail (rare) ones. */
  rareIdent: (r: Rng) => string;
  file: (r: Rng) => string;
  lib: (r: Rng) => string;
}

export interface Corpus {
  projects: ProjectModel[];
  /** Project index by share of the memories: project 0 dominates (~40 %). */
  projectOf: (r: Rng) => number;
  word: (r: Rng) => string;
  verb: (r: Rng) => string;
}

export function corpus(seed = 7, projectCount = 20): Corpus {
  const r = rng(seed);
  const idents = vocabulary(r);
  const names =
    `atlas billing-api web-console mobile-app data-pipeline infra auth-service docs-site search-svc
  notifier cli-tools design-system analytics payments-core scheduler edge-proxy ml-serving admin-portal sdk-js
  chat-backend`.split(/\s+/);
  const projects = Array.from({ length: projectCount }, (_, p): ProjectModel => {
    const name = names[p % names.length] as string;
    // The key a clone of git@github.com:acme/<name>.git resolves to, so a hook run in such a clone
    // (bench:hooks) meets these memories as its own project's.
    const key = `git:github.com/acme/${name}${p >= names.length ? `-${p}` : ''}`;
    const lang = LANGS[p % LANGS.length] as (typeof LANGS)[number];
    // Each project favours its own slice of the shared identifiers (overlapping ones stay common).
    const shift = Math.floor(r() * idents.length);
    const own = idents.map((_, i) => idents[(i * 7 + shift) % idents.length] as string);
    const ident = zipf(own, 1.05);
    const files = Array.from({ length: 400 + p * 37 }, () => {
      const base = ident(r);
      const stem =
        lang.ext === 'py' || lang.ext === 'rb' || lang.ext === 'rs'
          ? base.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()
          : base.charAt(0).toLowerCase() + base.slice(1);
      const test = r() < 0.25;
      const dir = test ? pick(r, ['tests', 'test/unit', 'test/integration']) : pick(r, DIRS);
      return `${dir}/${test && lang.ext === 'py' ? 'test_' : ''}${stem.replace(/_+/g, '_')}${test && lang.ext === 'ts' ? '.test' : ''}.${lang.ext}`;
    });
    return {
      project: { id: projectIdFromKey(key), name, key, root: `/home/dev/code/${name}` },
      lang,
      ident,
      rareIdent: (r2) => pick(r2, own),
      file: zipf(files, 0.9),
      lib: zipf(LIBS.slice(p % 7).concat(LIBS.slice(0, p % 7)), 1.1),
    };
  });
  return {
    projects,
    projectOf: zipf(
      projects.map((_, i) => i),
      1.4,
    ),
    word: zipf(NOUNS, 0.9),
    verb: zipf(VERBS, 0.9),
  };
}

/** The error messages real tools print, with the project's identifiers and files in them. */
function errorMessage(c: Corpus, m: ProjectModel, r: Rng): string {
  const id = m.ident(r);
  const f = m.file(r);
  switch (int(r, 0, 9)) {
    case 0:
      return `TypeError: Cannot read properties of undefined (reading '${id}')`;
    case 1:
      return `ReferenceError: ${id} is not defined`;
    case 2:
      return `error TS2339: Property '${id}' does not exist on type '${cap(c.word(r))}${cap(c.word(r))}'`;
    case 3:
      return `ENOENT: no such file or directory, open '${f}'`;
    case 4:
      return `AssertionError: expected ${int(r, 0, 500)} to equal ${int(r, 0, 500)}`;
    case 5:
      return `ModuleNotFoundError: No module named '${m.lib(r)}'`;
    case 6:
      return `panic: runtime error: index out of range [${int(r, 1, 64)}] with length ${int(r, 0, 8)}`;
    case 7:
      return `error[E0382]: borrow of moved value: \`${id}\``;
    case 8:
      return `SQLITE_BUSY: database is locked while running ${id}`;
    default:
      return `connect ECONNREFUSED 127.0.0.1:${pick(r, [3000, 5432, 6379, 8080, 9092])}`;
  }
}

/** A user request as typed: an imperative or a question, with identifiers, files and libraries. */
function request(c: Corpus, m: ProjectModel, r: Rng, type: ObservationType): string {
  const id = m.ident(r);
  const f = m.file(r);
  const w = c.word(r);
  switch (type) {
    case 'bugfix':
      return pick(r, [
        `Fix the ${w} bug in ${id}: it returns stale ${c.word(r)} data after ${c.verb(r)}`,
        `${id} throws when the ${w} is empty, can you fix it`,
        `fix failing test in ${f}`,
        `The ${w} page crashes after login, please debug ${id}`,
      ]);
    case 'feature':
      return pick(r, [
        `Add ${w} support to ${id} using ${m.lib(r)}`,
        `Implement ${c.verb(r)} for ${w}s in ${f}`,
        `Create a ${w} endpoint that calls ${id} and caches the result`,
        `Add a --${w} flag to the cli`,
      ]);
    case 'refactor':
      return pick(r, [
        `Refactor ${id} into smaller functions`,
        `Rename ${id} to ${m.ident(r)} everywhere`,
        `Extract the ${w} logic from ${f} into its own module`,
        `Clean up ${f}, it has grown too large`,
      ]);
    case 'decision':
      return pick(r, [
        `Should we use ${m.lib(r)} or ${m.lib(r)} for the ${w} layer?`,
        `Which approach is better for ${w} ${c.word(r)}s: ${id} or a new table?`,
      ]);
    default:
      return pick(r, [
        `How does ${id} handle ${w} ${c.word(r)}s?`,
        `Where is ${w} validation done? I think ${f}`,
        `Update ${id} so the ${w} limit comes from config`,
        `Why is ${id} slow on large ${w}s`,
        `Look into ${f} and explain the ${w} flow`,
      ]);
  }
}

function sentence(c: Corpus, m: ProjectModel, r: Rng): string {
  const id = m.ident(r);
  const w = c.word(r);
  return pick(r, [
    `Moved the ${w} check into ${id} so that ${c.word(r)} ${c.word(r)}s are validated before ${c.verb(r)}.`,
    `${id} now ${c.verb(r)}s the ${w} once per ${c.word(r)} instead of on every call.`,
    `The root cause was ${id} reading the ${w} before ${m.ident(r)} had finished.`,
    `Switched the ${w} ${c.word(r)} to ${m.lib(r)}; the old code path in ${m.file(r)} is gone.`,
    `Found that ${m.file(r)} owns the ${w} state and ${id} only forwards it.`,
    `Added a test in ${m.file(r)} covering the empty ${w} case.`,
    `${cap(w)} ${c.word(r)}s are cached for ${int(r, 1, 60)} seconds by ${id}.`,
    `Kept ${id} behind the ${w} flag until the ${c.word(r)} migration is done.`,
  ]);
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

export function observation(c: Corpus, m: ProjectModel, r: Rng, type: ObservationType): ObservationDraft {
  const files = Array.from({ length: int(r, 0, 4) }, () => m.file(r));
  const read = Array.from({ length: int(r, 0, 5) }, () => m.file(r));
  const check = pick(r, m.lang.checks);
  const fileFacts = files.map((f) =>
    pick(r, [
      `${f}: changed ${m.ident(r)}`,
      `${f}: added ${m.ident(r)}, ${m.ident(r)}`,
      `created ${f} (${int(r, 10, 400)} lines)`,
      `${f}: edited (+${int(r, 1, 80)} −${int(r, 0, 40)} lines)`,
    ]),
  );
  const other = [
    `test \`${files[0] ? m.lang.test(files[0]) : check}\`: ${r() < 0.8 ? 'passed' : 'failed'} (${int(r, 3, 400)} passed)`,
    `committed: ${request(c, m, r, 'change').slice(0, 60)}`,
    `dependencies added: ${m.lib(r)}`,
    `decision: use ${m.lib(r)} for ${c.word(r)} ${c.word(r)}s`,
  ];
  const concepts = [
    m.lang.lang,
    c.word(r),
    c.word(r),
    m.lib(r),
    ...files.slice(0, 2).map((f) => f.replace(/.*\/|\..*$/g, '')),
  ];
  const prompt = request(c, m, r, type);
  const narrative = Array.from({ length: int(r, 1, 4) }, () => sentence(c, m, r)).join(' ');
  if (type === 'error' || type === 'failed_attempt') {
    const msg = errorMessage(c, m, r);
    const cmd = files[0] ? m.lang.test(files[0]) : check;
    const fixed = type === 'error';
    return {
      type,
      title: clip(fixed ? `Fixed error: ${msg}` : `Failed: \`${cmd}\` — ${msg}`, 80),
      subtitle: '',
      narrative: fixed
        ? `1 error(s) met and fixed in this turn: \`${cmd}\` (${msg}). Fixed by changing ${files.join(', ') || m.file(r)}; the same command then succeeded.`
        : `Tried and failed: \`${cmd}\` (${msg}). Still failing at the end of the turn.`,
      facts: [`${fixed ? 'fixed' : 'open'}: \`${cmd}\` → ${msg}`],
      concepts: [
        'error',
        ...(fixed ? [] : ['failed attempt']),
        ...(/(\w+(?:Error|Exception))/.exec(msg)?.slice(1, 2) ?? []),
      ],
      filesRead: [],
      filesModified: files,
    };
  }
  if (type === 'task') {
    const todos = Array.from({ length: int(r, 2, 7) }, () => request(c, m, r, 'feature'));
    return {
      type,
      title: clip(`Open tasks (${int(r, 1, todos.length)} of ${todos.length}): ${todos[0]}`, 80),
      subtitle: '',
      narrative: `Task list at the end of the turn: ${int(r, 0, 3)} done, ${todos.length} open.`,
      facts: todos.map((t, i) => `${i === 0 ? '[in progress]' : '[pending]'} ${t}`),
      concepts: ['todo', c.word(r)],
      filesRead: [],
      filesModified: [],
    };
  }
  const title = clip(prompt.replace(/[.?!](?:\s.*)?$/, ''), 80);
  return {
    type,
    title,
    subtitle: prompt.length > 80 ? clip(prompt, 200) : '',
    narrative: clip(narrative, 600),
    facts: [...fileFacts, ...other.filter(() => r() < 0.35)].slice(0, 8),
    concepts: [...new Set(concepts)],
    filesRead: read,
    filesModified: files,
  };
}

export interface Generated {
  observations: number;
  sessions: number;
  ms: number;
}

/** Fill `store` with `count` observations (and their sessions and summaries), deterministically. */
export function generate(store: Store, c: Corpus, count: number, seed = 11): Generated {
  const r = rng(seed);
  const typeOf = (() => {
    const total = TYPES.reduce((n, [, w]) => n + w, 0);
    return () => {
      let x = r() * total;
      for (const [t, w] of TYPES) if ((x -= w) < 0) return t;
      return 'discovery' as ObservationType;
    };
  })();
  const t0 = performance.now();
  const start = Date.UTC(2024, 0, 1);
  const step = (730 * 86_400_000) / count; // two years of work, whatever the size
  let made = 0;
  let sessions = 0;
  while (made < count) {
    store.transaction(() => {
      const end = Math.min(count, made + 20_000);
      while (made < end) {
        const m = c.projects[c.projectOf(r)] as ProjectModel;
        const sid = `sess-${seed}-${sessions++}`;
        const at = start + made * step;
        store.sessions.touch(
          m.project,
          { id: sid, cwd: m.project.root, transcriptPath: null },
          'SessionStart',
          at,
        );
        const n = Math.min(end - made, int(r, 3, 40));
        const edited = new Set<string>();
        let first = '';
        for (let i = 0; i < n; i++) {
          const draft = observation(c, m, r, typeOf());
          first ||= draft.title;
          for (const f of draft.filesModified) edited.add(f);
          // A rare duplicate hash is skipped by the store (like a real re-distillation); count what exists.
          const { outcome } = store.memory.create(
            {
              projectId: m.project.id,
              sessionId: sid,
              source: 'hook',
              createdAt: Math.floor(at + i * step),
              provenance: [`session:${sid}`],
              draft,
            },
            { origin: 'hook', at: Math.floor(at + i * step) },
          );
          if (outcome === 'created') made++;
        }
        store.memory.saveSummary(
          sid,
          m.project.id,
          {
            request: first,
            investigated: `read ${[m.file(r), m.file(r), m.file(r)].join(', ')}`,
            learned: sentence(c, m, r),
            completed: sentence(c, m, r),
            nextSteps: request(c, m, r, 'feature'),
            filesRead: [m.file(r), m.file(r)],
            filesEdited: [...edited].slice(0, 30),
            notes: '',
          },
          true,
          { origin: 'hook', at: Math.floor(at + n * step) },
        );
      }
    });
  }
  return { observations: made, sessions, ms: performance.now() - t0 };
}

export type QueryKind = 'identifier' | 'question' | 'path' | 'rare' | 'common' | 'nomatch';
const KINDS: [QueryKind, number][] = [
  ['identifier', 30],
  ['question', 30],
  ['path', 15],
  ['rare', 10],
  ['common', 10],
  ['nomatch', 5],
];

/** A realistic mix of queries for project `p`, from the same vocabulary, deterministic. */
export function queries(c: Corpus, p: number, n: number, seed = 23): { kind: QueryKind; text: string }[] {
  const r = rng(seed + p);
  const m = c.projects[p] as ProjectModel;
  const total = KINDS.reduce((s, [, w]) => s + w, 0);
  const out: { kind: QueryKind; text: string }[] = [];
  for (let i = 0; i < n; i++) {
    let x = r() * total;
    const kind = KINDS.find(([, w]) => (x -= w) < 0)?.[0] ?? 'identifier';
    const text = {
      identifier: () => Array.from({ length: int(r, 1, 3) }, () => m.ident(r)).join(' '),
      question: () =>
        pick(r, [
          `how did we fix the ${c.word(r)} error in ${m.ident(r)}`,
          `why does ${m.ident(r)} ${c.verb(r)} the ${c.word(r)} twice when ${c.word(r)} is empty`,
          `what did we decide about ${m.lib(r)} for ${c.word(r)} ${c.word(r)}s`,
          `where is the ${c.word(r)} ${c.word(r)} validated before ${c.verb(r)}`,
          `which test covers the ${c.word(r)} retry in ${m.file(r).replace(/.*\//, '')}`,
        ]),
      path: () => m.file(r),
      rare: () => m.rareIdent(r),
      common: () => pick(r, [c.word(r), `${c.word(r)} ${c.word(r)}`, m.lang.lang, pick(r, m.lang.checks)]),
      nomatch: () => `zq${int(r, 1000, 9999)}xv frobnicate${int(r, 10, 99)}`,
    }[kind]();
    out.push({ kind, text });
  }
  return out;
}

/**
 * The state of a session's uncommitted work, kept true as the session goes on: a later outcome on the
 * same files is the work as it now stands (the earlier memory — a first version the user then had
 * reversed, a step the next turn rewrote — is superseded by it, its file facts carried over); a commit
 * belongs to the work whose files it staged; a task list is finished only when the items that were open
 * on it are done.
 */
import type { ObservationDraft } from '../core/model.ts';
import { topicWords } from './knowledge.ts';
import { attemptTitle, stillFailedFact } from './outcomes.ts';
import { CHANGED_SINCE_FACT, FAILURE_TITLE, listFiles } from './gotchas.ts';
import { isProjectCode } from './purpose-state.ts';
import { doneFromRequest } from './done-request.ts';
import { requestedType } from './classify-request.ts';
import { explainsCause, proseSentences } from './narration.ts';
import { clip, unique } from './text.ts';
import { openTodo } from './todo-list.ts';

const OUTCOME_TYPES = new Set(['feature', 'bugfix', 'refactor', 'change']);

/** An outcome memory: work done (committed or not), not a named fact. */
export function isWork(d: Pick<ObservationDraft, 'type' | 'subject'>): boolean {
  return OUTCOME_TYPES.has(d.type) && (d.subject ?? '') === '';
}

/** An outcome memory (work done) that no commit recorded yet. */
export function isUncommittedWork(d: Pick<ObservationDraft, 'type' | 'facts' | 'subject'>): boolean {
  return (
    OUTCOME_TYPES.has(d.type) && (d.subject ?? '') === '' && !d.facts.some((f) => f.startsWith('committed'))
  );
}

type WorkDraft = Pick<ObservationDraft, 'filesModified' | 'facts' | 'title'>;

/** `file#symbol` for each symbol a file fact names as changed ("a.go: changed X, Y; added Z"). */
export function changedSymbols(facts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of facts) {
    const m = /^([^\s:]+): (.+)$/.exec(f);
    if (!m?.[1] || !m[2]) continue;
    for (const part of m[2].split('; ')) {
      const names = /^(?:changed|added|removed|renamed) (.+)$/.exec(part)?.[1] ?? '';
      for (const name of names.split(', ')) {
        const clean = name.replace(/\s*\(\+\d+ more\)$/, '').trim();
        if (clean !== '') out.add(`${m[1]}#${clean}`);
      }
    }
  }
  return out;
}

/**
 * Whether `later` (work of the same session, after `earlier`) restates the same work: it changed at
 * least half of the files the earlier one changed (and at least one), and it is about the same thing —
 * the same symbol changed again, or titles that share their subject. Two requests that happened to
 * edit one file stay two memories.
 */
export function sameWork(earlier: WorkDraft, later: WorkDraft, correctedBetween = false): boolean {
  if (earlier.filesModified.length === 0 || later.filesModified.length === 0) return false;
  const now = new Set(later.filesModified);
  const shared = earlier.filesModified.filter((f) => now.has(f)).length;
  if (shared === 0) return false;
  // Told the same way (the later one committed under the earlier one's name, a ticket id added) and
  // touching what it touched: the same work, finished, though the last step changed fewer files.
  const said = topicWords(earlier.title);
  const common = [...topicWords(later.title)].filter((w) => said.has(w)).length;
  if (common >= 3 && common * 3 >= said.size * 2) return true;
  if (shared * 2 < earlier.filesModified.length) return false;
  const before = changedSymbols(earlier.facts);
  const after = changedSymbols(later.facts);
  if ([...after].some((x) => before.has(x))) return true;
  // Neither names what it changed (edits inside a body), and the user corrected the first between
  // them: the very same files changed again, and nothing else, is that work redone.
  if (
    correctedBetween &&
    before.size === 0 &&
    after.size === 0 &&
    shared === now.size &&
    shared === earlier.filesModified.length
  )
    return true;
  return common >= 2;
}

/** The file a file fact is about ("src/a.ts: changed x", "created src/a.ts (3 lines)"), or null. */
function factFile(fact: string): string | null {
  const created = /^created (\S+) \(/.exec(fact);
  if (created?.[1]) return created[1];
  const changed = /^([^\s:]+): /.exec(fact);
  return changed?.[1] && /[./]/.test(changed[1]) ? changed[1] : null;
}

/** Facts of an earlier version that stay true of the work redone: the test it fixed, the versions before it. */
const CARRIED_HISTORY =
  /^(?:fixed: |earlier in the session: |an earlier version, rejected by the user's correction: )/;

/**
 * The later work with what the earlier memories said of files it did not touch again (they are still
 * part of the work), the tests they fixed and the versions before them, what they explained that it
 * does not, and their titles as what came before.
 */
export function restatedWork(
  later: ObservationDraft,
  earlier: readonly (Pick<ObservationDraft, 'title' | 'facts' | 'filesModified'> & {
    narrative?: string;
    /** The user corrected the work after it was done (a correction came between it and `later`). */
    corrected?: boolean;
  })[],
  maxFacts = 14,
): ObservationDraft {
  const covered = new Set(later.facts.map(factFile).filter((f): f is string => f !== null));
  const carried = earlier.flatMap((e) =>
    e.facts.filter((f) => {
      // What the earlier versions fixed, and the versions before them, stay the work's history.
      if (CARRIED_HISTORY.test(f)) return true;
      const file = factFile(f);
      return file !== null && !covered.has(file);
    }),
  );
  const before = earlier
    .filter((e) => e.title !== later.title)
    .map((e) =>
      e.corrected
        ? `an earlier version, rejected by the user's correction: ${clip(e.title, 100)}`
        : `earlier in the session: ${clip(e.title, 120)}`,
    );
  // A cause the earlier versions found on the way is still part of the work's story (what they said
  // the work did is not: the later version says that), unless the user corrected that version.
  const explained = earlier
    .filter((e) => !e.corrected)
    .flatMap((e) => proseSentences(e.narrative ?? ''))
    .filter((x) => explainsCause(x) && !later.narrative.includes(x));
  return {
    ...later,
    narrative: clip([later.narrative, ...unique(explained)].filter(Boolean).join(' '), 900),
    facts: unique([...later.facts, ...carried, ...before]).slice(0, maxFacts),
    filesModified: unique([...later.filesModified, ...earlier.flatMap((e) => e.filesModified)]),
  };
}

/**
 * Whether a commit that staged `staged` (empty: not known) belongs to `work`: with known paths, the
 * work changed one of them; without, any uncommitted work of the session is the best evidence there is.
 */
export function commitBelongsTo(
  work: Pick<ObservationDraft, 'filesModified'>,
  staged: readonly string[],
): boolean {
  if (staged.length === 0) return true;
  const files = new Set(work.filesModified);
  return staged.some(
    (p) => files.has(p) || work.filesModified.some((f) => f.startsWith(`${p.replace(/\/+$/, '')}/`)),
  );
}

/** The items still open on a stored task list (its `[ ] …` facts). */
export function openItems(facts: readonly string[]): string[] {
  return facts.map((f) => openTodo(f)?.content ?? '').filter((x) => x !== '');
}

/**
 * A stored task list after a later list of the session was finished: the items that list did are no
 * longer open; null when it did none of them (or all of them: the list is then archived instead).
 */
export function remainingList(
  stored: Pick<ObservationDraft, 'facts'>,
  done: readonly string[],
): Pick<ObservationDraft, 'title' | 'narrative' | 'facts'> | null {
  const finished = new Set(done.map((d) => clip(d, 120)));
  const open = openItems(stored.facts);
  const left = open.filter((item) => !finished.has(item));
  if (left.length === open.length || left.length === 0) return null;
  const facts = stored.facts.filter((f) => {
    const item = openTodo(f)?.content;
    return item === undefined || !finished.has(item);
  });
  return {
    title: clip(`Open tasks (${left.length} left of an earlier list): ${left[0] ?? ''}`, 100),
    narrative: `Still open from an earlier task list after a later one was finished (${open.length - left.length} of its items done there): ${left.join('; ')}.`,
    facts,
  };
}

/** Whether a finished list (`done`: its items) finished every item open on the stored list. */
export function finishesList(storedFacts: readonly string[], done: readonly string[] | undefined): boolean {
  if (done === undefined) return true;
  const finished = new Set(done.map((d) => clip(d, 120)));
  return openItems(storedFacts).every((item) => finished.has(item));
}

/**
 * Whether a finished list (`done`: its items) is the stored list rewritten: it did two or more of the
 * stored list's open items and at least half of them. What such a rewrite left out was taken off the
 * plan (merged into another item, given up), not left open.
 */
export function rewritesList(storedFacts: readonly string[], done: readonly string[] | undefined): boolean {
  if (done === undefined) return false;
  const finished = new Set(done.map((d) => clip(d, 120)));
  const open = openItems(storedFacts);
  const shared = open.filter((item) => finished.has(item)).length;
  return shared >= 2 && shared * 2 >= open.length;
}

/**
 * `later` without what it carried over from `abandoned` (a memory of a branch the user rewound away
 * from): its facts and the files only it had changed.
 */
export function withoutCarried(
  later: Pick<ObservationDraft, 'facts' | 'filesModified' | 'title'>,
  abandoned: Pick<ObservationDraft, 'facts' | 'filesModified' | 'title'>,
): Pick<ObservationDraft, 'facts' | 'filesModified'> {
  const carried = new Set([...abandoned.facts, `earlier in the session: ${clip(abandoned.title, 120)}`]);
  const facts = later.facts.filter((f) => !carried.has(f));
  const stillNamed = (file: string) => facts.some((f) => f.includes(file));
  const onlyAbandoned = new Set(abandoned.filesModified.filter((f) => !stillNamed(f)));
  return { facts, filesModified: later.filesModified.filter((f) => !onlyAbandoned.has(f)) };
}

/** A memory of work on a file the session then renamed: its files and facts name the new path. */
export function withRenamedFile(
  memory: Pick<ObservationDraft, 'facts' | 'filesModified'>,
  from: string,
  to: string,
): Pick<ObservationDraft, 'facts' | 'filesModified'> {
  return {
    filesModified: unique(memory.filesModified.map((f) => (f === from ? to : f))),
    facts: memory.facts.map((f) => (factFile(f) === from ? f.replace(from, to) : f)),
  };
}

/**
 * A memory of work without what it said of a file removed later in the session (its facts about it
 * and the file itself), or null when nothing else is left of it.
 */
export function withoutRemovedFile(
  memory: Pick<ObservationDraft, 'facts' | 'filesModified'>,
  path: string,
): Pick<ObservationDraft, 'facts' | 'filesModified'> | null {
  const filesModified = memory.filesModified.filter((f) => f !== path);
  if (filesModified.length === 0) return null;
  return { facts: memory.facts.filter((f) => factFile(f) !== path), filesModified };
}

/**
 * A failure still open when later work changed the project's code and nothing ran it again: it failed
 * at its last run, and whether it still does is not known. Told so (title, fact, narrative); null when
 * the work changed no code or the failure already says so.
 */
export function unconfirmedFailure(
  failure: Pick<ObservationDraft, 'title' | 'facts' | 'narrative' | 'type'>,
  work: Pick<ObservationDraft, 'filesModified'>,
): Pick<ObservationDraft, 'title' | 'facts' | 'narrative'> | null {
  const m = /^`([^`]+)` fails: (.*)$/.exec(failure.title);
  if (failure.type !== 'failed_attempt' || !m) return null;
  const code = work.filesModified.filter(isProjectCode);
  if (code.length === 0) return null;
  const files = listFiles(code);
  return {
    title: clip(`\`${m[1]}\` failed, not re-run after the change: ${m[2]}`, 120),
    facts: unique([...failure.facts, `${CHANGED_SINCE_FACT}${files}`]).slice(0, 12),
    narrative: failure.narrative.replace(
      /^Still failing at the end of the turn: /,
      `Failed at its last run, and not run again after later work changed ${files}: `,
    ),
  };
}

/** Work told as tried and not run again (`Tried: fix X — \`npm test\` not re-run`, see outcomes). */
const UNCONFIRMED_TRY = /^Tried: (.+) — `([^`]+)` not re-run$/;

/** The command a failure memory is about (`\`./run.sh\` fails: …` → `./run.sh`). */
const failingCommand = (title: string) => FAILURE_TITLE.exec(title)?.[1]?.replace(/…$/, '') ?? null;

/**
 * Work done after a failure, and the same failure seen again later: the work was an attempt, not the
 * fix. Its title says so and its facts say what still failed; null when `work` did not answer that
 * failure or already says it failed again.
 */
export function refutedAttempt(
  work: Pick<ObservationDraft, 'title' | 'facts' | 'type'>,
  failure: Pick<ObservationDraft, 'title' | 'facts' | 'type'>,
): Pick<ObservationDraft, 'title' | 'facts'> | null {
  if (failure.type !== 'failed_attempt' || work.type === 'failed_attempt') return null;
  const command = failingCommand(failure.title);
  if (!command) return null;
  const sameCommand = (c: string) => c === command || c.startsWith(command) || command.startsWith(c);
  const unconfirmed = UNCONFIRMED_TRY.exec(work.title)?.[2]?.replace(/…$/, '');
  const answered =
    (unconfirmed !== undefined && sameCommand(unconfirmed)) ||
    work.facts.some((f) => {
      const c = /^after `([^`]+)` failed:/.exec(f)?.[1]?.replace(/…$/, '');
      return c !== undefined && sameCommand(c);
    });
  if (!answered || work.facts.some((f) => /^`[^`]+` still failed after it:/.test(f))) return null;
  const error =
    failure.facts.find((f) => f.startsWith('error: '))?.slice('error: '.length) ??
    failure.title.replace(FAILURE_TITLE, '');
  return {
    title: attemptTitle(work.title, command),
    // A later run answered what the work left untested: it still failed.
    facts: unique([
      ...work.facts.filter((f) => !/^untested: `[^`]+` not run after it/.test(f)),
      stillFailedFact(command, error),
    ]).slice(0, 12),
  };
}

/**
 * Work the turn could not confirm — its failure was not run again after it — and a later run of that
 * command passed: the work did what was asked. Its title says so ("Fixed X"); null when `work` is not
 * such an attempt at `command` (the command of the failure that closed).
 */
export function confirmedAttempt(
  work: Pick<ObservationDraft, 'title' | 'facts' | 'type'>,
  command: string,
  passed: string,
): Pick<ObservationDraft, 'title' | 'facts' | 'type'> | null {
  const m = UNCONFIRMED_TRY.exec(work.title);
  const tried = m?.[2]?.replace(/…$/, '');
  const cmd = command.replace(/…$/, '');
  if (!m?.[1] || !tried || !(tried === cmd || cmd.startsWith(tried) || tried.startsWith(cmd))) return null;
  const title = doneFromRequest(m[1]);
  if (title === '') return null;
  return {
    title,
    type: work.type === 'change' ? (requestedType(m[1]) ?? 'change') : work.type,
    facts: unique([...work.facts, `confirmed later: \`${clip(passed, 80)}\` passed`]).slice(0, 12),
  };
}

/**
 * The title of earlier work that described code the session changed after it: what it said held
 * before that change, and says so ("Before `InstallHooks` changed: `InstallHooks` always writes to
 * settings.json") — it is history, not what is now true.
 */
export function staleTitle(title: string, symbol: string): string {
  const mark = `Before \`${symbol}\` changed: `;
  return title.startsWith('Before `') ? title : clip(`${mark}${title}`, 140);
}

/**
 * What later work of the same session made stale in an earlier memory: a symbol the earlier memory
 * names as code, which it did not change itself, and which the later work changed. A finding (what a
 * look at the code found: its title and points, about a file it read) is then about code that is no
 * longer so; the title of earlier work that describes code it did not touch, likewise. The symbol and
 * its file, or null while the memory holds.
 */
export function staleFinding(
  earlier: Pick<ObservationDraft, 'type' | 'title' | 'facts' | 'filesRead' | 'filesModified'> & {
    subject?: string;
  },
  work: Pick<ObservationDraft, 'facts' | 'filesModified'>,
): { symbol: string; file: string } | null {
  const finding = earlier.type === 'discovery';
  if (!finding && !isWork(earlier)) return null;
  const read = new Set(earlier.filesRead);
  const touched = new Set(earlier.filesModified);
  const own = changedSymbols(earlier.facts);
  const said = finding ? [earlier.title, ...earlier.facts].join('\n') : earlier.title;
  for (const key of changedSymbols(work.facts)) {
    const [file = '', symbol = ''] = key.split('#');
    if (!/^[A-Za-z_$][\w$.]*$/.test(symbol) || symbol.length < 3) continue;
    const about = finding
      ? read.has(file) || earlier.filesRead.some((r) => r.endsWith(`/${file}`))
      : !touched.has(file) && ![...own].some((k) => k.endsWith(`#${symbol}`));
    if (!about) continue;
    const name = symbol.replace(/[.$]/g, (c) => `\\${c}`);
    // Named as code: an identifier's own shape (camelCase, snake_case), or quoted or called as code.
    const codeShaped = /[a-z][A-Z]|_|^[A-Z][a-z]+[A-Z]/.test(symbol);
    const named = codeShaped
      ? new RegExp(`(?<![\\w$])${name}(?![\\w$])`)
      : new RegExp(`\`${name}(?:\\(\\))?\`|(?<![\\w$])${name}\\(`);
    if (named.test(said)) return { symbol, file };
  }
  return null;
}

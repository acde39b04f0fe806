/**
 * When later work closes an item of a task list: the item names things of the project — a function or
 * type (`click(x,y)`, `retryFetch`, `TodoMVC`), a file (`src/net/client.ts`), a tool or folder by its
 * proper name (Docker) — and later work of the session defined or changed them (the symbols its edits
 * touched, the files and folders it created or changed). Never by the item's phrasing: an item that
 * names nothing of the project stays open until the list itself says it is done.
 */
import { clip, withoutCode } from './text.ts';
import type { TodoItem } from './todo-list.ts';
import { changedSymbols, openItems } from './work-state.ts';

/** What an item names: code (every one must be touched) and proper names (one is enough). */
export interface ItemNames {
  code: string[];
  proper: string[];
}

const FILE_EXT = /\.[A-Za-z][\w]{0,5}$/;
/** A word written as code: camelCase or an inner capital (TodoMVC), snake_case, dotted, `$`. */
const CODE_SHAPED = /[a-z][A-Z]|[A-Z]{2,}[a-z]|_|\$|\w\.\w/;

/** A slash-joined word that is a path (`./run.sh`, `src/net/client.ts`), not "Download/set". */
const isPath = (word: string) =>
  /^(?:\.{1,2}|~)?\//.test(word) || (word.includes('/') && FILE_EXT.test(word)) || /\/.*\/.*\//.test(word);

/** The identifiers an item names. */
export function itemNames(item: string): ItemNames {
  const code = new Set<string>();
  const proper = new Set<string>();
  for (const m of item.matchAll(/`([^`]+)`/g)) {
    const name = (m[1] ?? '').replace(/\(.*\)$/, '').trim();
    if (/^[\w$./-]+$/.test(name)) code.add(name);
  }
  const plain = withoutCode(item);
  // Words with their position: the first word of the item or of a clause is capitalised as prose.
  const words = [...plain.matchAll(/[A-Za-z_$~.][\w$./~-]*/g)];
  for (const m of words) {
    const raw = (m[0] ?? '').replace(/[.\-/]+$/, '');
    if (raw === '') continue;
    const at = m.index ?? 0;
    const before = plain.slice(0, at).trimEnd();
    const clauseStart = before === '' || /[:;.!?(\-–—]$/.test(before);
    const called = plain[at + (m[0] ?? '').length] === '(';
    const parts = isPath(raw) ? [raw] : raw.split('/');
    parts.forEach((word, i) => {
      if (word === '' || word.length < 2) return;
      if (isPath(word) || (FILE_EXT.test(word) && /^[\w-]+\.\w+$/.test(word) && !/^\d/.test(word)))
        code.add(word);
      else if ((called && i === parts.length - 1) || CODE_SHAPED.test(word)) code.add(word);
      // A short acronym (API, UI, CI, VNC) names a kind of thing, not one thing of the project.
      else if (/^[A-Z]/.test(word) && !(clauseStart && i === 0) && !/^[A-Z]{1,4}s?$/.test(word))
        proper.add(word);
    });
  }
  return { code: [...code], proper: [...proper] };
}

/** What later work defined or changed: files (with their folders and names) and symbols. */
export interface WorkNames {
  files: string[];
  symbols: string[];
}

/** The lower-cased names a piece of work makes known: each file's path, name, stem and folders; each symbol. */
function known(work: WorkNames): { paths: string[]; names: Set<string> } {
  const names = new Set<string>();
  const paths = work.files.map((f) => f.replace(/^\.\//, '').toLowerCase());
  for (const p of paths) {
    const segments = p.split('/').filter((s) => s !== '');
    for (const s of segments) names.add(s);
    const base = segments[segments.length - 1] ?? '';
    names.add(base.replace(/\.[^.]+$/, ''));
  }
  for (const s of work.symbols) {
    const lower = s.toLowerCase();
    names.add(lower);
    // A method named with its class (`Browser.click`) is also the method.
    const last = lower.split('.').pop();
    if (last) names.add(last);
  }
  return { paths, names };
}

/** Whether later work defined or changed what the item names (false when it names nothing). */
export function doneByWork(item: string, work: WorkNames): boolean {
  const { code, proper } = itemNames(item);
  if (code.length === 0 && proper.length === 0) return false;
  const { paths, names } = known(work);
  const touched = (name: string) => {
    const lower = name.replace(/^\.\//, '').replace(/\(.*$/, '').toLowerCase();
    if (lower.includes('/')) return paths.some((p) => p === lower || p.endsWith(`/${lower}`));
    return names.has(lower);
  };
  if (code.length > 0) return code.every(touched);
  return proper.some(touched);
}

/**
 * What a stored memory records of work: the files it changed and the symbols its file facts name
 * ("a.ts: changed x", "created a.ts (3 lines): x, y", "changed: a.ts (x)").
 */
export function recordedWork(memory: {
  facts: readonly string[];
  filesModified: readonly string[];
}): WorkNames {
  const symbols = [...changedSymbols(memory.facts)].map((k) => k.slice(k.indexOf('#') + 1));
  for (const f of memory.facts) {
    const created = /^created \S+ \([^)]*\): (.+)$/.exec(f)?.[1];
    if (created) symbols.push(...created.replace(/\s*\(\+\d+ more\)$/, '').split(', '));
    const changed = /^changed: \S+ \((.+)\)$/.exec(f)?.[1];
    if (changed) symbols.push(...changed.split(', '));
  }
  return { files: [...memory.filesModified], symbols: symbols.map((s) => s.trim()).filter((s) => s !== '') };
}

/**
 * The turn's list with the items that edits after its last write did (what they name was defined or
 * changed by those edits) as done. Edits outside the project (absolute paths) are not its work.
 */
export function withLaterEdits(
  items: TodoItem[] | null,
  edits: readonly { index: number; path: string; defined: readonly string[] }[],
  after: number,
): TodoItem[] | null {
  if (!items) return items;
  const later = edits.filter((e) => e.index > after && !/^(?:\/|~)/.test(e.path));
  if (later.length === 0) return items;
  const work = { files: later.map((e) => e.path), symbols: later.flatMap((e) => e.defined) };
  return items.map((t) =>
    t.status !== 'completed' && doneByWork(t.content, work) ? { ...t, status: 'completed' } : t,
  );
}

/**
 * A stored task list after later work of the session: the open items that work did are no longer
 * open. Null when it did none of them; `archive` when it did every one.
 */
export function listAfterWork(
  stored: { facts: readonly string[] },
  work: WorkNames,
): { archive: true } | { title: string; narrative: string; facts: string[] } | null {
  const open = openItems(stored.facts);
  const done = new Set(open.filter((item) => doneByWork(item, work)));
  if (done.size === 0) return null;
  const left = open.filter((item) => !done.has(item));
  if (left.length === 0) return { archive: true };
  return {
    title: clip(`Open tasks (${left.length} left): ${left[0] ?? ''}`, 100),
    narrative: `Still open on the session's task list after later work did what ${done.size} of its items named: ${left.join('; ')}.`,
    facts: stored.facts.filter((f) => !done.has(openItems([f])[0] ?? '')),
  };
}

/**
 * The commands card: one standing memory per project folder (the project's root, or the sub-folder the
 * commands were run in) holding every purpose's command — how to test, check, type-check, lint, format,
 * build, run, migrate and deploy — instead of one memory per purpose. The distiller still drafts one
 * fact per purpose (`command-facts.ts`, subject `command:<purpose>[:suite][@dir]`: the evidence units);
 * each is folded into the card of its folder, entry by entry, with the per-purpose merge rules
 * (`mergedCommandFact`: other forms as "also:", CI runs, one file, port) kept per entry.
 *
 * An entry is stored as the card's facts prefixed by its key (`typecheck · command: \`tsc\``), so the
 * card reads back into entries (`cardEntries`) and every reader of command facts reads entries, not
 * subjects (`commandEntries`: cards and the per-purpose facts a store written before the card holds).
 * The title, the narrative and the facts are all made from the entries.
 */
import type { ObservationDraft } from '../core/model.ts';
import { purposeText, type Purpose } from './canonical-command.ts';
import { mergedCommandFact } from './knowledge.ts';
import { unique } from './text.ts';

/** A card's subject: `commands:.` for the project's root, `commands:web` for commands run in `web`. */
export const CARD_PREFIX = 'commands:';
/** A per-purpose draft's (and a store's before the card) subject: `command:test`, `command:lint@web`. */
export const PURPOSE_PREFIX = 'command:';

export interface CardEntry {
  /** The purpose, with its suite: `test`, `test:e2e`, `gate`. */
  key: string;
  /** The purpose's facts as a per-purpose fact states them (`command: \`npm test\``, `also: …`). */
  facts: string[];
}

/** The order entries are listed in: how to check the work first, then how to build, run and ship it. */
const ORDER = ['test', 'gate', 'typecheck', 'lint', 'format', 'build', 'run', 'migrate', 'deploy'];
/**
 * A card's title is at most this long, so the index line (`recall/context-lines.ts` `indexLine`, which
 * shows a card's title up to the same length) never cuts a command: one line instead of one per purpose.
 */
export const CARD_TITLE_MAX = 160;
/** The store keeps 40 facts a memory (`MAX_LIST`). */
const FACTS_MAX = 40;
const ENTRY_FACT = /^([a-z]+(?::[\w.-]+)?) · (.+)$/;
const COMMAND = /^command: `(.+)`$/;
const PURPOSE_SUBJECT = /^command:([a-z]+(?::[^@\s]+)?)(?:@(.+))?$/;

export const cardSubject = (dir: string) => `${CARD_PREFIX}${dir === '' ? '.' : dir}`;
export const isCardSubject = (subject: string | null | undefined) => (subject ?? '').startsWith(CARD_PREFIX);

/** A per-purpose subject's entry key and folder: `command:lint@web` → `lint`, `web`; null for others. */
export function purposeOf(subject: string | null | undefined): { key: string; dir: string } | null {
  const m = PURPOSE_SUBJECT.exec(subject ?? '');
  return m?.[1] ? { key: m[1], dir: m[2] ?? '' } : null;
}

/** The folder a card is of (`''` for the root). */
export function cardDir(subject: string): string {
  const dir = subject.slice(CARD_PREFIX.length);
  return dir === '.' ? '' : dir;
}

/** A card's entries, in the order its facts list them. */
export function cardEntries(card: Pick<ObservationDraft, 'facts'>): CardEntry[] {
  const byKey = new Map<string, string[]>();
  for (const f of card.facts) {
    const m = ENTRY_FACT.exec(f);
    if (!m?.[1] || m[2] === undefined) continue;
    byKey.set(m[1], [...(byKey.get(m[1]) ?? []), m[2]]);
  }
  return [...byKey].map(([key, facts]) => ({ key, facts }));
}

/**
 * Every entry the command knowledge of a project states: the cards' entries and the per-purpose facts
 * of a store written before the card (each one entry). Other memories give none.
 */
export function commandEntries(
  memories: readonly Pick<ObservationDraft, 'subject' | 'facts'>[],
): CardEntry[] {
  return memories.flatMap((o) => {
    if (isCardSubject(o.subject)) return cardEntries(o);
    const p = purposeOf(o.subject);
    return p ? [{ key: p.key, facts: [...o.facts] }] : [];
  });
}

const mainOf = (e: CardEntry) => e.facts.map((f) => COMMAND.exec(f)?.[1]).find((c) => c !== undefined);
const factOf = (e: CardEntry, name: string) =>
  e.facts.map((f) => new RegExp(`^${name}: (.+)$`).exec(f)?.[1]).find((x) => x !== undefined);
const rank = (key: string) => {
  const i = ORDER.indexOf(key.split(':')[0] ?? '');
  return i === -1 ? ORDER.length : i;
};
const label = (key: string) => {
  const [purpose = key, suite] = key.split(':');
  const name = purpose === 'gate' ? 'check' : purpose;
  return suite ? `${name} (${suite})` : name;
};
const whatOf = (key: string) => {
  const [purpose = key, suite = ''] = key.split(':');
  return purposeText(purpose as Purpose, suite);
};

/** One sentence per purpose, as the per-purpose fact said it. */
function sentence(e: CardEntry): string {
  const main = mainOf(e) ?? '';
  const body = factOf(e, 'runs')?.replace(/^`|`$/g, '');
  const port = factOf(e, 'port');
  const ci = factOf(e, 'CI runs it');
  return `\`${main}\` ${whatOf(e.key)}${body ? ` (it runs \`${body}\`)` : ''}${port ? ` (on port ${port})` : ''}${ci ? `; CI runs it (${ci})` : ''}.`;
}

/** The title: every entry that fits whole, in order, then how many more there are. */
function titleOf(entries: readonly CardEntry[], where: string): string {
  const head = `Commands${where}:`;
  const parts = entries.map(
    (e) => `${label(e.key)} \`${mainOf(e) ?? ''}\`${factOf(e, 'CI runs it') ? ' (CI runs it)' : ''}`,
  );
  for (let n = parts.length; n >= 1; n--) {
    const more = n < parts.length ? ` · +${parts.length - n} more` : '';
    const title = `${head} ${parts.slice(0, n).join(' · ')}${more}`;
    if (title.length <= CARD_TITLE_MAX) return title;
  }
  // Not even the first command fits whole: the purposes only.
  const names = entries.map((e) => label(e.key));
  for (let n = names.length; n >= 1; n--) {
    const more = n < names.length ? ` +${names.length - n} more` : '';
    const title = `${head} ${names.slice(0, n).join(', ')}${more}`;
    if (title.length <= CARD_TITLE_MAX || n === 1) return title;
  }
  return head;
}

/** The card of `dir` stating `entries` (ordered here), its trust left to the caller. */
export function cardDraft(entries: readonly CardEntry[], dir: string): ObservationDraft {
  const ordered = [...entries].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
  const where = dir === '' ? '' : ` in ${dir}`;
  // Each entry's command first; the rest in order while the store keeps them.
  const kept = new Set(
    ordered.map((e) => `${e.key} · ${e.facts.find((f) => COMMAND.test(f)) ?? e.facts[0]}`),
  );
  for (const e of ordered) for (const f of e.facts) if (kept.size < FACTS_MAX) kept.add(`${e.key} · ${f}`);
  const facts = ordered.flatMap((e) => e.facts.map((f) => `${e.key} · ${f}`).filter((f) => kept.has(f)));
  return {
    type: 'fact',
    title: titleOf(ordered, where),
    subtitle: '',
    narrative: `${dir === '' ? 'In this project' : `In ${dir}`}: ${ordered.map(sentence).join(' ')}`,
    facts: unique(facts),
    concepts: unique(['project command', 'commands', ...ordered.map((e) => e.key.split(':')[0] ?? e.key)]),
    filesRead: [],
    filesModified: [],
    subject: cardSubject(dir),
  };
}

/**
 * A per-purpose draft folded into the card (null: no card yet): a new purpose becomes an entry; a
 * purpose the card has takes the per-purpose merge rules (another main form → "also:", CI runs, one
 * file, port). `changed` is false when the card states all of it already (it is only seen again).
 */
export function foldIntoCard(
  card: Pick<ObservationDraft, 'facts'> | null,
  purpose: ObservationDraft,
): { draft: ObservationDraft; changed: boolean } {
  const p = purposeOf(purpose.subject);
  if (!p) throw new Error(`not a command fact: ${purpose.subject ?? '(no subject)'}`);
  const entries = card ? cardEntries(card) : [];
  const entry = entries.find((e) => e.key === p.key);
  let changed = card === null;
  if (!entry) {
    entries.push({ key: p.key, facts: unique(purpose.facts) });
    changed = true;
  } else {
    const patch = mergedCommandFact({ ...purpose, title: '', narrative: '', facts: entry.facts }, purpose);
    if (patch?.facts) {
      entry.facts = [...patch.facts];
      changed = true;
    }
  }
  return { draft: cardDraft(entries, p.dir), changed };
}

/** The card after folding in `purposes` in order (a store's older per-purpose facts, then the new one). */
export function cardWith(
  card: Pick<ObservationDraft, 'facts'> | null,
  purposes: readonly ObservationDraft[],
): ObservationDraft | null {
  let folded: ObservationDraft | null = null;
  for (const p of purposes) folded = foldIntoCard(folded ?? card, p).draft;
  return folded;
}

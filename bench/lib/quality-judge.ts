/**
 * The quality benchmark's judge: stored memories against the hand labels
 * (`test/fixtures/quality/labels.ts`), by an explicit rule, nothing learned or tuned:
 *
 * - a memory is in an item's scope when its session is one of the item's sessions, or its project is
 *   the project of the item's cwd;
 * - it matches the item's keywords when every keyword group has at least one of its words in the
 *   memory's text (title, subtitle, narrative and facts, case-insensitive) and every `title` group
 *   in its title;
 * - wrong: it matches a must-never item (of the item's types, when given);
 * - useful: it matches a gold item with one of the item's types that no earlier memory matched;
 * - duplicate: every gold item it matches was matched by an earlier memory, or an earlier memory of
 *   its project has the same title;
 * - junk: anything else (also a memory with a gold item's words but a type the item does not accept).
 * Mistyped memories are wrong only through explicit must-never items of kind `mistyped`.
 * Memories are judged oldest first. Next-step items may also be met by a session summary's next
 * steps; must-never items about next steps are checked against the summaries in their scope.
 */
import type { GoldItem, MustNever, Scope, WrongKind } from '../../test/fixtures/quality/labels.ts';

export interface JudgedMemory {
  id: string;
  sessionId: string | null;
  projectId: string;
  type: string;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string[];
  createdAt: number;
}

export interface JudgedSummary {
  sessionId: string;
  projectId: string;
  nextSteps: string;
}

export interface JudgeInput {
  memories: JudgedMemory[];
  summaries: JudgedSummary[];
  gold: GoldItem[];
  mustNever: MustNever[];
  projectOf: (cwd: string) => string;
  /** Memory ids in each project's SessionStart index (after the filler sessions). */
  indexed: Map<string, Set<string>>;
}

export type VerdictKind = 'useful' | 'duplicate' | 'wrong' | 'junk';

export interface Verdict {
  memory: JudgedMemory;
  verdict: VerdictKind;
  /** The gold or must-never items it matched. */
  items: string[];
  wrongKind?: WrongKind;
}

export interface JudgeReport {
  stored: number;
  useful: number;
  duplicates: number;
  junk: number;
  wrong: Record<WrongKind, number>;
  wrongItems: string[];
  recall: { matched: number; total: number; missing: string[] };
  optional: { matched: number; total: number };
  standing: { kept: number; total: number; missing: string[] };
  verdicts: Verdict[];
}

const lower = (s: string) => s.toLowerCase();
const textOf = (m: JudgedMemory) => lower([m.title, m.subtitle, m.narrative, ...m.facts].join('\n'));
const groupsMatch = (text: string, groups: readonly string[][]) =>
  groups.every((g) => g.some((word) => text.includes(lower(word))));

function inScope(
  scope: Scope,
  sessionId: string | null,
  projectId: string,
  projectOf: (cwd: string) => string,
) {
  if (scope.sessions && sessionId !== null && scope.sessions.includes(sessionId)) return true;
  return scope.cwd !== undefined && projectOf(scope.cwd) === projectId;
}

function keywordsMatch(m: JudgedMemory, item: { all: string[][]; title?: string[][] }): boolean {
  return groupsMatch(textOf(m), item.all) && groupsMatch(lower(m.title), item.title ?? []);
}

export function judge(input: JudgeInput): JudgeReport {
  const { gold, mustNever, projectOf } = input;
  const memories = [...input.memories].sort(
    (a, b) => a.createdAt - b.createdAt || a.title.localeCompare(b.title) || a.type.localeCompare(b.type),
  );
  const wrong: Record<WrongKind, number> = {
    'non-user-statement': 0,
    'resolved-as-open': 0,
    mistyped: 0,
    'abandoned-branch': 0,
    'false-fix': 0,
    guess: 0,
  };
  const wrongItems: string[] = [];
  const matchedBy = new Map<string, string[]>();
  const titles = new Set<string>();
  const verdicts: Verdict[] = [];
  for (const m of memories) {
    const scoped = <T extends { scope: Scope }>(items: readonly T[]) =>
      items.filter((i) => inScope(i.scope, m.sessionId, m.projectId, projectOf));
    const titleKey = `${m.projectId}\u0000${lower(m.title).replace(/\W+/g, ' ').trim()}`;
    const bad = scoped(mustNever).find(
      (i) =>
        (i.where ?? 'memory') === 'memory' && (!i.types || i.types.includes(m.type)) && keywordsMatch(m, i),
    );
    if (bad) {
      wrong[bad.kind]++;
      wrongItems.push(`${bad.id}: ${m.type} "${m.title}"`);
      verdicts.push({ memory: m, verdict: 'wrong', items: [bad.id], wrongKind: bad.kind });
      titles.add(titleKey);
      continue;
    }
    const byWords = scoped(gold).filter((i) => keywordsMatch(m, i));
    const accepted = byWords.filter((i) => i.types.includes(m.type));
    const fresh = accepted.filter((i) => !matchedBy.has(i.id));
    for (const i of accepted) matchedBy.set(i.id, [...(matchedBy.get(i.id) ?? []), m.id]);
    const verdict: VerdictKind =
      fresh.length > 0 ? 'useful' : accepted.length > 0 || titles.has(titleKey) ? 'duplicate' : 'junk';
    titles.add(titleKey);
    const noted =
      verdict === 'junk' ? byWords.map((i) => `${i.id} (type not accepted)`) : accepted.map((i) => i.id);
    verdicts.push({ memory: m, verdict, items: noted });
  }
  for (const s of input.summaries) {
    for (const i of mustNever) {
      if (i.where !== 'summary' || !inScope(i.scope, s.sessionId, s.projectId, projectOf)) continue;
      if (groupsMatch(lower(s.nextSteps), i.all)) {
        wrong[i.kind]++;
        wrongItems.push(`${i.id}: summary next steps "${s.nextSteps.slice(0, 120)}"`);
      }
    }
  }
  const metBySummary = (item: GoldItem) =>
    item.nextStep === true &&
    input.summaries.some(
      (s) =>
        inScope(item.scope, s.sessionId, s.projectId, projectOf) && groupsMatch(lower(s.nextSteps), item.all),
    );
  const met = (item: GoldItem) => matchedBy.has(item.id) || metBySummary(item);
  const required = gold.filter((i) => i.required);
  const optional = gold.filter((i) => !i.required);
  const standingItems = gold.filter((i) => i.standing);
  const standingMissing = standingItems.filter((item) => {
    const ids = matchedBy.get(item.id) ?? [];
    return !ids.some((id) => [...input.indexed.values()].some((set) => set.has(id)));
  });
  const count = (v: VerdictKind) => verdicts.filter((x) => x.verdict === v).length;
  return {
    stored: verdicts.length,
    useful: count('useful'),
    duplicates: count('duplicate'),
    junk: count('junk'),
    wrong,
    wrongItems,
    recall: {
      matched: required.filter(met).length,
      total: required.length,
      missing: required.filter((i) => !met(i)).map((i) => i.id),
    },
    optional: { matched: optional.filter(met).length, total: optional.length },
    standing: {
      kept: standingItems.length - standingMissing.length,
      total: standingItems.length,
      missing: standingMissing.map((i) => i.id),
    },
    verdicts,
  };
}

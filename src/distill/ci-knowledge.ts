/**
 * What the project's CI runs, gathered in one memory: the CI file states its triggers and steps (as far
 * as the assistant read it), and a CI log the user pasted shows commands the file's unread part runs.
 * Those commands are first kept on the command facts of their purpose ("CI runs it: a CI log"); here
 * they are added to the CI fact too, so the gate reads whole in one place.
 */
import type { ObservationDraft } from '../core/model.ts';
import { clip, unique } from './text.ts';

export interface CiRun {
  command: string;
  /** Where it was seen: "a CI log", or the CI file's path. */
  seen: string;
}

/** The commands a command fact (or an entry of the commands card) says CI runs, each with where that was seen. */
export function ciRunsOf(d: Pick<ObservationDraft, 'facts'>): CiRun[] {
  const main = d.facts.map((f) => /^command: `(.+)`$/.exec(f)?.[1]).find(Boolean);
  const out: CiRun[] = [];
  for (const f of d.facts) {
    const own = /^CI runs it: (.+)$/.exec(f);
    if (own?.[1] && main) out.push({ command: main, seen: own[1] });
    const other = /^CI runs(?: it)?(?: \(`(.+?)`\))?: (?:`(.+?)` \((.+)\)|(.+))$/.exec(f);
    if (other && !own) {
      const command = other[2] ?? other[1];
      const seen = other[3] ?? other[4];
      if (command && seen) out.push({ command, seen });
    }
  }
  return out;
}

const RUNS = /^runs: `(.+?)`/;
const TITLE = /^CI \((.+?)\) runs /;

/**
 * A CI fact with the commands other evidence saw CI run added (after the steps its file shows); null
 * when it adds nothing. Only what was seen outside the file itself is added (the file's own steps are
 * already there).
 */
export function ciFactWithRuns(ci: ObservationDraft, runs: readonly CiRun[]): ObservationDraft | null {
  const name = TITLE.exec(ci.title)?.[1];
  if (!name) return null;
  const known = ci.facts.map((f) => RUNS.exec(f)?.[1]).filter((c): c is string => c !== undefined);
  const source = ci.facts.find((f) => f.startsWith('source: '))?.slice('source: '.length) ?? '';
  const added = unique(
    runs
      .filter((r) => r.seen !== source && !r.seen.endsWith(name) && !known.includes(r.command))
      .map((r) => r.command),
  );
  if (added.length === 0) return null;
  const seen = unique(runs.filter((r) => added.includes(r.command)).map((r) => r.seen));
  const all = [...known, ...added].map((c) => `\`${clip(c, 80)}\``);
  const title = clip(`CI (${name}) runs ${all.slice(0, 6).join(', ')}`, 120);
  const also = added.map((c) => `\`${clip(c, 80)}\``).join(', ');
  return {
    ...ci,
    title,
    narrative: `${ci.narrative.replace(/\s*$/, '')} ${seen.join(' and ').replace(/^a /, 'A ')} shows it also runs ${also}.`,
    facts: unique([
      ...ci.facts,
      ...added.map(
        (c) =>
          `runs: \`${clip(c, 100)}\` (${unique(runs.filter((r) => r.command === c).map((r) => r.seen)).join(', ')})`,
      ),
    ]),
  };
}

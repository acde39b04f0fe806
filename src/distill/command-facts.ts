/**
 * Project knowledge from the commands a turn ran: one fact per purpose (how to test, build, lint,
 * type-check, run, migrate, deploy), with its other forms and how a single file is run, named by its
 * purpose so the same fact seen again is merged instead of stored twice; and the conventions commits
 * show — the checks that pass before each commit, the commit message style.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { CommandRun, TurnAnalysis } from './analyse-turn.ts';
import { commandParts, purposeText, type CommandPart, type Purpose } from './canonical-command.ts';
import { clip, unique } from './text.ts';

interface Seen {
  part: CommandPart;
  run: CommandRun;
}

/** `npm test -- src/x.test.ts` → `npm test -- <file>`. */
function singleFileForm(raw: string): string {
  return raw
    .split(/\s+/)
    .map((w, i) => (i > 0 && !w.startsWith('-') && /[/\\]|\.\w{1,5}$|::/.test(w) ? '<file>' : w))
    .join(' ')
    .replace(/(?:\s<file>)+/g, ' <file>');
}

/** The port a dev server says it listens on. */
export function portOf(output: string): string {
  const m =
    /(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})\b/.exec(output) ??
    /\b(?:listening|running|serving|started|available)\b[^\n]*?\bport\s+(\d{2,5})\b/i.exec(output) ??
    /\bport\s+(\d{2,5})\b/i.exec(output);
  return m?.[1] ?? '';
}

/** The canonical forms of each purpose run successfully in the turn, most used first. */
function byPurpose(a: TurnAnalysis): Map<Purpose, Seen[]> {
  const out = new Map<Purpose, Seen[]>();
  for (const run of a.commands) {
    if (!run.ok) continue;
    for (const part of commandParts(run.command)) {
      if (!part.purpose || part.canonical.length > 100) continue;
      out.set(part.purpose, [...(out.get(part.purpose) ?? []), { part, run }]);
    }
  }
  return out;
}

export function commandFactObservations(a: TurnAnalysis): ObservationDraft[] {
  const out: ObservationDraft[] = [];
  for (const [purpose, seen] of byPurpose(a)) {
    const counts = new Map<string, number>();
    for (const s of seen) counts.set(s.part.canonical, (counts.get(s.part.canonical) ?? 0) + 1);
    // The form used most; on a tie the plainest (fewest words).
    const ranked = [...counts.entries()].sort(
      (x, y) => y[1] - x[1] || x[0].split(' ').length - y[0].split(' ').length,
    );
    const main = ranked[0]?.[0];
    if (!main) continue;
    const singles = unique(
      seen.filter((s) => s.part.variant === 'single file').map((s) => singleFileForm(s.part.raw)),
    );
    const port = purpose === 'run' ? seen.map((s) => portOf(s.run.output)).find((p) => p !== '') : '';
    out.push({
      type: 'fact',
      title: `\`${clip(main, 60)}\` ${purposeText(purpose)}`,
      subtitle: '',
      narrative: `In this project, \`${main}\` ${purposeText(purpose)}${port ? ` (on port ${port})` : ''}.`,
      facts: unique([
        `command: \`${main}\``,
        ...ranked.slice(1, 4).map(([c]) => `also: \`${clip(c, 80)}\``),
        ...singles.slice(0, 2).map((s) => `one file: \`${clip(s, 80)}\``),
        ...(port ? [`port: ${port}`] : []),
      ]),
      concepts: ['project command', purpose],
      filesRead: [],
      filesModified: [],
      subject: `command:${purpose}`,
    });
  }
  return out;
}

const CHECK_PURPOSES = new Set<Purpose>(['test', 'lint', 'typecheck', 'build']);
const CONVENTIONAL = /^(?:feat|fix|chore|docs|refactor|test|perf|build|ci|style)(?:\([^)]+\))?!?: \S/;

/** Conventions the turn's commits show (two commits or more): the gate before them, the message style. */
export function conventionObservations(a: TurnAnalysis): ObservationDraft[] {
  if (a.commits.length < 2) return [];
  const out: ObservationDraft[] = [];
  // The checks that passed since the previous commit, for each commit.
  const before = a.commits.map((commit, i) => {
    const from = i === 0 ? -1 : (a.commits[i - 1]?.index ?? -1);
    const passed = new Map<Purpose, string>();
    for (const run of a.commands) {
      if (!run.ok || run.index <= from || run.index >= commit.index) continue;
      for (const p of commandParts(run.command))
        if (p.purpose && CHECK_PURPOSES.has(p.purpose) && p.variant !== 'single file')
          passed.set(p.purpose, p.canonical);
    }
    return passed;
  });
  const common = [...(before[0]?.keys() ?? [])].filter((p) => before.every((b) => b.has(p)));
  if (common.length >= 2) {
    const commands = common.map((p) => `\`${before[before.length - 1]?.get(p) ?? p}\``);
    out.push({
      type: 'convention',
      title: `Before each commit, ${commands.join(' and ')} pass`,
      subtitle: '',
      narrative: `Each of the ${a.commits.length} commits of this turn came after ${commands.join(' and ')} passed.`,
      facts: commands.map((c) => `check before committing: ${c}`),
      concepts: ['convention', 'commit', ...common],
      filesRead: [],
      filesModified: [],
      subject: 'convention:gate',
    });
  }
  const styled = a.commits.filter((c) => CONVENTIONAL.test(c.message));
  if (styled.length >= 2 && styled.length === a.commits.length) {
    const withId = styled.every((c) => /\([\w.-]+\)\s*$/.test(c.message));
    const example = styled[styled.length - 1]?.message ?? '';
    out.push({
      type: 'convention',
      title: `Commit messages follow Conventional Commits (\`${clip(example, 60)}\`)${withId ? ', ending with the task id' : ''}`,
      subtitle: '',
      narrative: `Commits are written as \`type(scope): summary\`${withId ? ' with the task id in parentheses at the end' : ''}, e.g. ${styled
        .slice(0, 3)
        .map((c) => `"${clip(c.message, 80)}"`)
        .join(', ')}.`,
      facts: styled.slice(0, 4).map((c) => `commit: ${clip(c.message, 100)}`),
      concepts: ['convention', 'commit', 'git'],
      filesRead: [],
      filesModified: [],
      subject: 'convention:commit-style',
    });
  }
  return out;
}

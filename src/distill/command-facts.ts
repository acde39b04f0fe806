/**
 * Project knowledge from the commands a turn ran: one fact per purpose (how to test, build, lint,
 * type-check, format, run, migrate, deploy, and the project's gate), with what its task runs (npm's
 * and mise's echo), whether CI runs it (a CI file read in the turn), its other forms and how a single
 * file is run, named by its purpose so the same fact seen again is merged instead of stored twice; and
 * the conventions commits show — the checks that pass before each commit, the commit message style.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { PartRun, TurnAnalysis } from './analyse-turn.ts';
import {
  commandParts,
  purposeText,
  withEnvironment,
  type CommandPart,
  type Purpose,
} from './canonical-command.ts';
import { lowestTrust } from '../core/trust.ts';
import { toolCallTrust } from './evidence-trust.ts';
import { clip, unique } from './text.ts';

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

/**
 * What a task runner said a task runs: npm/pnpm/yarn echo `> name` then `> command`; mise and just
 * print `[name] $ command`.
 */
export function scriptBody(task: string, output: string): string {
  if (task === '') return '';
  const esc = task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const npm = new RegExp(`^> (?:\\S+@\\S+ )?${esc}\\s*\\n> (.+)$`, 'm').exec(output);
  const bracket = new RegExp(`^\\[${esc}\\] \\$ (.+)$`, 'm').exec(output);
  return (npm?.[1] ?? bracket?.[1] ?? '').trim();
}

/** Purposes a project has a command for. */
const FACT_PURPOSES = new Set<Purpose>([
  'test',
  'build',
  'lint',
  'typecheck',
  'format',
  'gate',
  'run',
  'migrate',
  'deploy',
]);

/** The subject of a purpose's fact: `command:test`, `command:test:e2e`, `command:lint@web`. */
const subjectOf = (p: Pick<PartRun, 'purpose' | 'suite' | 'dir'>) =>
  `command:${p.purpose}${p.suite ? `:${p.suite}` : ''}${p.dir ? `@${p.dir}` : ''}`;

/**
 * Steps of a CI log pasted into the prompt, as GitHub Actions prints them: `Run <command>` followed
 * by the command's own output (npm's `> script` echo, the `shell:` line, a `+ ` trace).
 */
export function ciLogCommands(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*Run (\S.{1,120})$/.exec(lines[i] as string);
    if (!m?.[1]) continue;
    const next = lines.slice(i + 1, i + 4).find((l) => l.trim() !== '') ?? '';
    if (/^\s*(?:> \S|shell: |env:|\+ \S)/.test(next)) out.push(m[1].trim());
  }
  return out;
}

/** The commands CI runs (from the CI files read in the turn, or a CI log pasted in), by canonical form. */
function ciRuns(a: TurnAnalysis): Map<string, { file: string; part: CommandPart }> {
  const out = new Map<string, { file: string; part: CommandPart }>();
  const logged = a.prompts.flatMap(ciLogCommands);
  for (const ci of [...a.ci, ...(logged.length > 0 ? [{ file: 'a CI log', commands: logged }] : [])])
    for (const line of ci.commands)
      for (const part of commandParts(line))
        if (FACT_PURPOSES.has(part.purpose) && part.purpose !== 'run' && part.purpose !== 'deploy')
          out.set(part.canonical, { file: ci.file, part });
  return out;
}

export function commandFactObservations(a: TurnAnalysis): ObservationDraft[] {
  const out: ObservationDraft[] = [];
  const ci = ciRuns(a);
  const groups = new Map<string, PartRun[]>();
  for (const p of a.commands.flatMap((c) => c.parts)) {
    const worked = p.outcome === 'passed' || (p.purpose === 'run' && p.outcome === 'inconclusive');
    if (!worked || p.where !== 'project' || p.adhoc || !FACT_PURPOSES.has(p.purpose)) continue;
    if (p.canonical.length > 100 || p.canonical === '') continue;
    // Starting containers (`docker compose up -d db`) sets up the environment; it is not the app.
    if (p.purpose === 'run' && /^(?:docker|podman|container|docker-compose)\b/.test(p.tool)) continue;
    const subject = subjectOf(p);
    groups.set(subject, [...(groups.get(subject) ?? []), p]);
  }
  // A check CI runs is a command of the project even when it was not run here.
  for (const [canonical, { part }] of ci) {
    const subject = subjectOf(part);
    if (!groups.has(subject) && ![...groups.values()].flat().some((p) => p.canonical === canonical))
      groups.set(subject, [
        {
          ...part,
          outcome: 'passed',
          summary: null,
          index: -1,
          at: 0,
          command: canonical,
          detail: '',
          message: '',
        },
      ]);
  }
  for (const [subject, seen] of groups) {
    const counts = new Map<string, number>();
    for (const s of seen)
      if (s.variant !== 'single file') counts.set(s.canonical, (counts.get(s.canonical) ?? 0) + 1);
    for (const s of seen) if (!counts.has(s.canonical)) counts.set(s.canonical, 0);
    // The whole-suite form used most; on a tie the plainest (fewest words).
    const ranked = [...counts.entries()].sort(
      (x, y) => y[1] - x[1] || x[0].split(' ').length - y[0].split(' ').length,
    );
    const canonicalMain = ranked[0]?.[0];
    const first = seen[0];
    if (!canonicalMain || !first) continue;
    // The environment every whole run of it was given (`COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build`)
    // is part of how it runs here: the canonical form leaves it out to key the runs, the fact keeps it.
    const main = withEnvironment(
      canonicalMain,
      seen.filter((x) => x.canonical === canonicalMain && x.variant !== 'single file'),
    );
    const singles = unique(seen.filter((s) => s.variant === 'single file').map((s) => singleFileForm(s.raw)));
    const output = (p: PartRun) => a.commands.find((c) => c.index === p.index)?.output ?? '';
    const port = first.purpose === 'run' ? seen.map((s) => portOf(output(s))).find((x) => x !== '') : '';
    // What the task runs, as a whole run shows it (a single-file run shows its own arguments).
    const mainRun = seen.find((s) => s.canonical === canonicalMain && s.variant !== 'single file');
    const ciOthers = [...ci.entries()]
      .filter(([c, { part }]) => c !== canonicalMain && subjectOf(part) === subject)
      .map(([c, { file }]) => `CI runs: \`${clip(c, 80)}\` (${file})`);
    const body = mainRun ? scriptBody(mainRun.task, output(mainRun)) : '';
    const inCi = ci.get(canonicalMain);
    const where = first.dir ? ` (in ${first.dir})` : '';
    const what = purposeText(first.purpose, first.suite);
    out.push({
      type: 'fact',
      title: `\`${clip(main, 60)}\` ${what}${where}${inCi ? ' — CI runs it' : ''}`,
      subtitle: '',
      narrative: `In this project, \`${main}\` ${what}${where}${body ? ` (it runs \`${clip(body, 160)}\`)` : ''}${port ? ` (on port ${port})` : ''}.${inCi ? ` CI runs it (${inCi.file}).` : ''}`,
      facts: unique([
        `command: \`${main}\``,
        ...(body ? [`runs: \`${clip(body, 160)}\``] : []),
        ...(inCi ? [`CI runs it: ${inCi.file}`] : []),
        ...ciOthers.slice(0, 2),
        ...ranked.slice(1, 4).map(([c]) => `also: \`${clip(c, 80)}\``),
        ...singles.slice(0, 2).map((x) => `one file: \`${clip(x, 80)}\``),
        ...(port ? [`port: ${port}`] : []),
      ]),
      concepts: ['project command', first.purpose],
      filesRead: [],
      filesModified: [],
      subject,
      // Made of the runs themselves (command line, exit code, the runner's output) and the CI files,
      // not of anything else the turn read: the commands' own trust, whatever else came in.
      trust: lowestTrust(seen.map((s) => toolCallTrust('Bash', { command: s.raw }))),
    });
  }
  return out;
}

const CHECK_PURPOSES = new Set<Purpose>(['test', 'lint', 'typecheck', 'build', 'gate', 'format']);
const CONVENTIONAL = /^(?:feat|fix|chore|docs|refactor|test|perf|build|ci|style)(?:\([^)]+\))?!?: \S/;

/** Conventions the turn's commits show (two commits or more): the gate before them, the message style. */
export function conventionObservations(a: TurnAnalysis): ObservationDraft[] {
  if (a.commits.length < 2) return [];
  const out: ObservationDraft[] = [];
  // The checks that passed since the previous commit, for each commit.
  const before = a.commits.map((commit, i) => {
    const from = i === 0 ? -1 : (a.commits[i - 1]?.index ?? -1);
    const passed = new Map<Purpose, string>();
    for (const p of a.commands.flatMap((c) => c.parts)) {
      if (p.outcome !== 'passed' || p.where !== 'project' || p.index <= from || p.index >= commit.index)
        continue;
      if (CHECK_PURPOSES.has(p.purpose) && p.variant !== 'single file') passed.set(p.purpose, p.canonical);
    }
    return passed;
  });
  // Read off the commits and the runs themselves (git and the checks' own output), whatever else the
  // turn took in: the runs' own trust.
  const committing = new Set(a.commits.map((c) => c.index));
  const trust = lowestTrust(
    a.commands
      .filter((c) => committing.has(c.index) || CHECK_PURPOSES.has(c.purpose))
      .map((c) => toolCallTrust('Bash', { command: c.command })),
  );
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
      trust,
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
      trust,
    });
  }
  return out;
}

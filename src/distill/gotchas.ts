/**
 * Errors with their resolution, by purpose. An error fixed in the turn — by an edit, another command,
 * a changed flag — that is worth keeping (see `worthAGotcha`) becomes a gotcha: symptom (the error's
 * telling line) → cause (the assistant's explanation in between) → fix (the edit with its file and
 * symbols, or the command). A purpose whose latest run still fails at the end of the turn becomes one
 * failed attempt, named by its purpose key so a later run of the same purpose — in this session or
 * another, whatever its spelling — closes it; each purpose whose latest run passed is reported as a
 * resolution (with what was done before it) to close older failures.
 */
import type { ObservationDraft } from '../core/model.ts';
import { unsupportedClaim } from './claims.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { commandName, covers, partRuns, type PartRun, type TurnError } from './command-runs.ts';
import { conceptsOf } from './concepts.ts';
import { isErrorCount, namesNoSymptom } from './diagnostics.ts';
import { fixBetween, worthAGotcha, type Fix } from './failure-fix.ts';
import { mainPart } from './canonical-command.ts';
import { explanation, isPlan, isStep, proseSentences } from './narration.ts';
import { editedAfter, purposeState } from './purpose-state.ts';
import { withoutMessage } from './commit-commands.ts';
import { clip, unique } from './text.ts';

/** A purpose whose latest run in a turn passed, and what was done before it (to close an earlier failure). */
export interface Resolution {
  /** `purpose:<key>`: the key of the failures it closes. */
  key: string;
  /** '' when the whole purpose passed, else the one target that passed. */
  target: string;
  /** The command as it ran. */
  command: string;
  /** Its normalised form. */
  canonical?: string;
  /** What made it work: another command run first, the files changed — never a later prompt. */
  fix: string;
  files: string[];
  at: number;
}

/** "error: undefined function get/2 (expected …)" → "undefined function get/2". */
export function shortError(message: string, max = 60): string {
  const m = message
    .replace(/^(?:exit code \d+\s*)?/i, '')
    .replace(/^\*\*\s*\((\w+)\)\s*/, '$1: ')
    .replace(/^(?:error|fatal|Error)\s*:\s*/, '')
    .replace(/^(?:[\w-]+\/)+([\w-]+):/, '$1:')
    .replace(/\s*\((?:expected|see|use|hint)[^)]*\)\s*/gi, ' ')
    .trim();
  return clip(m, max);
}

/**
 * A stable name for an error: its words without paths, numbers, hashes and quotes, and without the
 * names of the moment it gives (the branch it was on: "The current branch feature-x has no upstream").
 */
export function errorSignature(message: string, instance: readonly string[] = []): string {
  let text = shortError(message, 200);
  for (const name of instance)
    if (name.length >= 2)
      // As a whole name only: `main` leaves `maintainAspectRatio` and `domain` alone.
      text = text.replace(
        new RegExp(`(?<![\\w./-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-]|\\.\\w)`, 'g'),
        ' ',
      );
  return text
    .toLowerCase()
    .replace(/\S*[/\\]\S*/g, ' ')
    .replace(/\b[0-9a-f]{7,}\b|\d+/g, ' ')
    .replace(/[^a-z_ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}

/**
 * The error without its own sentence naming the remedy the fix then took ("… out of sync. Run 'bd sync
 * --import-only' to fix." → "… out of sync."): the title says the fix once, after the arrow.
 */
function withoutRemedy(message: string, fix: string): string {
  const named = [...fix.matchAll(/`([^`]{4,})`/g)].map((m) => (m[1] as string).toLowerCase());
  if (named.length === 0) return message;
  const kept = message
    .split(/(?<=[.!])\s+/)
    .filter((sentence) => !named.some((c) => sentence.toLowerCase().includes(c)));
  return kept.length > 0 ? kept.join(' ') : message;
}

/** The part of a key after `purpose:` (`test:e2e@web`). */
const keyOf = (key: string) => key.replace(/^(?:purpose|cmd):/, '');

/** The gotcha memory of an error and what resolved it. */
export function gotchaDraft(
  e: {
    canonical: string;
    message: string;
    command: string;
    key: string;
    rule?: string;
    snippet?: string;
    test?: string;
    /** Names of the moment the error gives, left out of its signature (the branch). */
    instance?: readonly string[];
  },
  fix: Pick<Fix, 'short' | 'cause' | 'files' | 'steps'> &
    Partial<Pick<Fix, 'bare'>> & {
      symbols?: string[];
      lines?: string[];
      resolvedBy: string;
    },
  extraFacts: readonly string[] = [],
): ObservationDraft {
  const title = clip(
    `\`${clip(e.canonical, 40)}\` fails: ${shortError(withoutRemedy(e.message, fix.short), 70)} → ${fix.short}`,
    160,
  );
  const names = unique([...(/\b(\w*(?:Error|Exception))\b/.exec(e.message)?.slice(1, 2) ?? [])]);
  // Beside the cause, the fix without the cause restated ("change x.ex", not "change x.ex: Dialyzer …").
  const fixText = fix.bare ?? fix.short;
  return {
    type: 'gotcha',
    title,
    subtitle: '',
    narrative: clip(
      `\`${clip(withoutMessage(e.command), 100)}\` failed with: ${clip(e.message, 200).replace(/[.!]+$/, '')}${e.snippet ? ` (at \`${clip(e.snippet, 100)}\`)` : ''}.${fix.cause ? ` ${fix.cause}` : ''} The fix: ${fixText}${fix.resolvedBy ? ` (then \`${clip(fix.resolvedBy, 100)}\` worked)` : ''}.`,
      800,
    ),
    facts: unique([
      `error: ${clip(e.message, 200)}`,
      ...(e.test ? [`failing test: ${clip(e.test, 150)}`] : []),
      ...(e.rule ? [`rule: ${e.rule}`] : []),
      ...(e.snippet ? [`code: \`${clip(e.snippet, 150)}\``] : []),
      ...(fix.cause ? [`cause: ${clip(fix.cause, 200)}`] : []),
      `fix: ${clip(fixText, 200)}`,
      ...(fix.steps.length > 0 ? [`ran first: ${fix.steps.slice(0, 3).join(', ')}`] : []),
      ...(fix.files.length > 0
        ? [
            `changed: ${fix.files.slice(0, 4).join(', ')}${fix.symbols && fix.symbols.length > 0 ? ` (${fix.symbols.slice(0, 4).join(', ')})` : ''}`,
          ]
        : []),
      // The line the fix wrote, when the title's fix is said in other words.
      ...(fix.lines ?? [])
        .filter((l) => !plain(fix.short).includes(plain(clip(l, 100))))
        .map((l) => `now reads: \`${clip(l, 150)}\``),
      ...(fix.resolvedBy ? [`then passed: \`${clip(fix.resolvedBy, 100)}\``] : []),
      ...extraFacts,
    ]).slice(0, 10),
    concepts: conceptsOf({
      prompt: '',
      files: fix.files,
      commands: [e.command],
      extra: ['gotcha', ...names, ...(e.rule ? [e.rule.split('/').pop() ?? e.rule] : [])],
    }),
    filesRead: [],
    filesModified: fix.files.slice(0, 10),
    // A checker's rule is one pitfall whichever command ran the checker (the linter, a pre-commit hook).
    subject: `gotcha:${e.rule ? 'rule' : keyOf(e.key)}:${errorSignature(e.message, e.instance)}`,
  };
}

/** Text without code quotes, in lower case: what a sentence says, for comparing two of them. */
const plain = (s: string) => s.replace(/`/g, '').toLowerCase();

/** The run where a command error stopped showing, and the last run before it that still showed it. */
function resolvedAt(a: TurnAnalysis, e: TurnError): { failed: PartRun; resolving: PartRun } | null {
  if (e.fixedAt === null) return null;
  const runs = partRuns(a.commands);
  const resolving = runs.find((r) => r.index === e.fixedAt && covers(r, e));
  const failed = [...runs]
    .reverse()
    .find(
      (r) =>
        r.index < (e.fixedAt ?? 0) &&
        r.outcome === 'failed' &&
        `purpose:${r.key}` === e.key &&
        r.message === e.message,
    );
  return resolving && failed ? { failed, resolving } : null;
}

/** Errors of the turn that something in the turn fixed, when worth keeping (see `worthAGotcha`). */
export function gotchaObservations(a: TurnAnalysis): ObservationDraft[] {
  const out: ObservationDraft[] = [];
  const seen = new Set<string>();
  for (const e of a.errors) {
    if (e.minor || !e.fixed || !e.key.startsWith('purpose:') || e.purpose === 'inspect') continue;
    // Only a count of errors the output did not show: the symptom is not known.
    if (isErrorCount(e.message) || namesNoSymptom(e.message)) continue;
    const at = resolvedAt(a, e);
    if (!at) continue;
    const fix = fixBetween(a, at.failed, at.resolving);
    if (!worthAGotcha(e, fix)) continue;
    // A tool of no known purpose: its pitfall is kept only when it then worked, and either its own
    // output named the remedy or the error was about the setup (the tool missing) and a step in
    // between made it work.
    if (
      e.purpose === 'other' &&
      !(at.resolving.outcome === 'passed' && (fix.named || (e.cls === 'setup' && fix.kind === 'step')))
    )
      continue;
    // The error stopped showing only because the next run failed otherwise: an edit or a step that
    // worked in between took it away; another spelling of the command that failed too did not (it is
    // a dead end, not a fix).
    if (at.resolving.outcome !== 'passed' && fix.kind === 'command') continue;
    // Inline code (`curl … | python3 -c "…"`) that worked only as other inline code: the probe was
    // rewritten, and what ran in between fixed nothing.
    if (
      at.failed.target === 'inline' &&
      at.resolving.target === 'inline' &&
      at.failed.raw !== at.resolving.raw
    )
      continue;
    // Outside the project only a tool's pitfall is worth keeping (the command or a step fixed it).
    if (e.where !== 'project' && fix.kind !== 'command' && fix.kind !== 'step') continue;
    const draft = gotchaDraft(
      {
        canonical: commandName(at.failed),
        message: e.message,
        command: at.failed.raw,
        key: e.key,
        ...(e.rule ? { rule: e.rule } : {}),
        ...(e.snippet ? { snippet: e.snippet } : {}),
        ...(e.test ? { test: e.test } : {}),
        ...(a.hostBranch ? { instance: [a.hostBranch] } : {}),
      },
      { ...fix, resolvedBy: '' },
    );
    const subject = draft.subject ?? draft.title;
    if (seen.has(subject)) continue;
    seen.add(subject);
    out.push(draft);
  }
  return out;
}

/** Checks whose run can be meant to fail (a new test on the old code, a type error on purpose). */
const CHECK_PURPOSES = new Set(['test', 'gate', 'typecheck', 'lint', 'build']);
/** A sentence that only says the run passed ("Hmm, the test passes."), with no reason in it. */
const ONLY_PASSED = /\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|works?)\b/i;
const REASON =
  /\b(?:because|since|so|too|also|still|without|doesn'?t|does not|didn'?t|did not|can'?t|cannot|never|only|not)\b/i;

/**
 * A check run to see it fail that passed instead, with what the assistant said of it right after: the
 * way it was checked did not do what was meant ("The stash reverted the test too"). Kept only with such
 * words — never a plan, a step, or a sentence that only says it passed.
 */
export function unmetPredictions(a: TurnAnalysis): ObservationDraft[] {
  const out: ObservationDraft[] = [];
  const later = [...a.commands.map((c) => c.index), ...a.edits.map((e) => e.index)];
  for (const c of a.commands) {
    if (!c.predicted) continue;
    const part = c.parts.find((p) => CHECK_PURPOSES.has(p.purpose) && p.outcome === 'passed');
    if (!part) continue;
    const next = Math.min(...later.filter((i) => i > c.index), Number.POSITIVE_INFINITY);
    const lesson = a.narration
      .filter((n) => n.index > c.index && n.index < next)
      .flatMap((n) => proseSentences(n.text))
      .find(
        (s) =>
          s.length >= 15 &&
          s.length <= 240 &&
          !isStep(s) &&
          !isPlan(s) &&
          !(ONLY_PASSED.test(s) && !REASON.test(s)),
      );
    if (!lesson) continue;
    const command = clip(withoutMessage(c.command), 100);
    // As the title shows it: its parts as written, without redirections and the filters its output
    // went through.
    const shown = withoutMessage(
      c.parts.map((p, i) => (i < c.parts.length - 1 ? `${p.raw} ${p.joiner}` : p.raw)).join(' '),
    );
    out.push({
      type: 'gotcha',
      title: clip(`\`${clip(shown, 60)}\` passed where it was meant to fail: ${lesson}`, 160),
      subtitle: '',
      narrative: clip(
        `Run to see it fail (“${clip(c.predicted, 160)}”), \`${command}\` passed${part.detail ? ` (${part.detail})` : ''}. ${lesson}`,
        800,
      ),
      facts: [
        `expected to fail: ${clip(c.predicted, 200)}`,
        `passed: \`${command}\``,
        `why: ${clip(lesson, 200)}`,
      ],
      concepts: conceptsOf({
        prompt: '',
        files: [],
        commands: [c.command],
        extra: ['gotcha', 'expected failure'],
      }),
      filesRead: [],
      filesModified: [],
      subject: `gotcha:unmet:${errorSignature(lesson)}`,
    });
  }
  return out.slice(0, 1);
}

/** A failed attempt's title (`\`npm test\` fails: …`), the command in its first group. */
export const FAILURE_TITLE = /^`([^`]+)` (?:fails|failed, not re-run after the change): /;

/** The fact of a failure whose code changed after its last run (it was not run again). */
export const CHANGED_SINCE_FACT = 'changed after it, not re-run: ';
/** Files as a short list: the first four, the rest counted. */
export const listFiles = (files: readonly string[]) =>
  `${files.slice(0, 4).join(', ')}${files.length > 4 ? ` (+${files.length - 4} more)` : ''}`;

/** The failures still open at the end of the turn (the first, with what else fails), as one failed attempt. */
export function openFailure(a: TurnAnalysis): ObservationDraft | null {
  const state = purposeState(a.commands);
  const first = state.open[0];
  if (!first) return null;
  const last = first.runs[first.runs.length - 1] as PartRun;
  const error = a.errors.find((e) => e.index === last.index && e.key === `purpose:${last.key}`);
  const message = last.message || error?.message || 'failed';
  const after = a.narration.filter((n) => n.index > last.index).map((n) => n.text);
  const texts = a.lastMessage !== '' && !after.includes(a.lastMessage) ? [...after, a.lastMessage] : after;
  // The assistant's report that all went well is refuted by the failure still open.
  const why = explanation(texts, 400, (s) => !unsupportedClaim(s, a));
  // Where it ran when the command itself does not say (the agent's shell had changed folder before it).
  const where = last.dir !== '' && !last.raw.includes(last.dir) ? ` in ${last.dir}` : '';
  const others = state.open.slice(1).map((o) => o.runs[o.runs.length - 1] as PartRun);
  // What the output, or else the assistant, said would fix it: a command, not yet run.
  const proposed = texts
    .flatMap((t) => proseSentences(t))
    .flatMap((x) => [...x.matchAll(/`([^`\n]{4,100})`/g)].map((m) => m[1] as string))
    .find((c) => {
      // A path or file name alone, which a shell would not run as written (`scripts/lib/trace.sh`,
      // `notify-session.sh`), names a file.
      if (/^[^\s./~]\S*(?:\/\S*|\.[A-Za-z]{1,5})$/.test(c.trim())) return false;
      const p = mainPart(c);
      return p !== null && p.key !== last.key && p.purpose !== 'inspect' && p.purpose !== 'other';
    });
  const hint = error?.hint || proposed || '';
  // Code changed after its last run and it was not run again: it failed, and whether it still does is
  // not known — the change may have fixed it.
  const changed = editedAfter(a.edits, last.index);
  const unconfirmed = changed.length > 0;
  return {
    type: 'failed_attempt',
    title: clip(
      unconfirmed
        ? `\`${clip(last.canonical, 50)}\` failed, not re-run after the change: ${shortError(message, 60)}`
        : `\`${clip(last.canonical, 50)}\` fails: ${shortError(message, 70)}`,
      120,
    ),
    subtitle: others.length > 0 ? `${others.length} other check(s) failing too` : '',
    narrative: clip(
      `${
        unconfirmed
          ? `Failed at its last run in the turn, and not run again after ${listFiles(changed)} changed: \`${clip(last.raw, 100)}\`${where} (${clip(message, 160)}).`
          : `Still failing at the end of the turn: \`${clip(last.raw, 100)}\`${where} (${clip(message, 160)}).`
      }${why ? ` ${why}` : ''}${hint ? ` The output suggests \`${hint}\`.` : ''}`,
      800,
    ),
    facts: unique([
      `error: ${clip(message, 200)}`,
      ...(unconfirmed ? [`${CHANGED_SINCE_FACT}${listFiles(changed)}`] : []),
      ...(error?.test ? [`failing test: ${clip(error.test, 150)}`] : []),
      ...(error?.rule ? [`rule: ${error.rule}`] : []),
      ...(first.targets.length > 0 ? [`target: ${first.targets.join(' ')}`] : []),
      `command: \`${clip(last.raw, 120)}\`${where}`,
      ...(hint ? [`suggested: \`${hint}\``] : []),
      ...others.map((o) => `also failed: \`${clip(o.raw, 80)}\` (${clip(o.message, 100)})`),
    ]).slice(0, 8),
    concepts: conceptsOf({
      prompt: '',
      files: [],
      commands: [last.raw, ...others.map((o) => o.raw)],
      extra: [
        'failed attempt',
        first.purpose,
        ...unique(
          [last, ...others].flatMap((r) => /\b(\w*(?:Error|Exception))\b/.exec(r.message)?.slice(1, 2) ?? []),
        ),
      ],
    }),
    filesRead: [],
    filesModified: [],
    subject: `fail:${first.key}`,
  };
}

/** Each purpose whose latest run in the turn passed, with what was done before it (to close older failures). */
export function resolutions(a: TurnAnalysis): Resolution[] {
  return purposeState(a.commands).passed.map((p) => {
    const fix = fixBetween(a, { index: -1 }, p.run, { loose: true });
    const short =
      fix.kind === 'step' || fix.kind === 'imports'
        ? fix.short
        : fix.files.length > 0
          ? fix.short
          : fix.cause;
    return {
      key: `purpose:${p.key}`,
      target: p.target,
      command: p.run.raw,
      canonical: p.run.canonical,
      fix: short,
      files: fix.files,
      at: p.run.at,
    };
  });
}

/**
 * Errors with their resolution. A setup error (a missing import, dependency, config key, service or
 * flag) followed by what made it go away — the same command run again without it, after an edit, a
 * command, or a different flag — becomes a gotcha: "X fails: E → do Y". A failure still open at the
 * end of a turn becomes one failed attempt per turn (what was tried, and how it failed), named by its
 * command so a later turn or session can close it; each command that succeeded is reported as a
 * resolution for that purpose.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { CommandRun, TurnAnalysis, TurnError } from './analyse-turn.ts';
import { conceptsOf } from './concepts.ts';
import { causeSentences, explanation } from './narration.ts';
import { clip, unique } from './text.ts';
import { isSetupError, requestOf } from './turn-observations.ts';

/** A command that succeeded in a turn, and what was done before it (to close an earlier failure). */
export interface Resolution {
  /** `cmd:<canonical>`: the key of the failures it resolves. */
  key: string;
  /** The command as it ran. */
  command: string;
  /** What made it work: a different command, a step, an explanation. */
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
    .replace(/\s*\((?:expected|see|use|hint)[^)]*\)\s*/gi, ' ')
    .trim();
  return clip(m, max);
}

/** A stable name for an error: its words without paths, numbers, hashes and quotes. */
export function errorSignature(message: string): string {
  return shortError(message, 200)
    .toLowerCase()
    .replace(/\S*[/\\]\S*/g, ' ')
    .replace(/\b[0-9a-f]{7,}\b|\d+/g, ' ')
    .replace(/[^a-z_ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}

const canonicalOf = (e: TurnError) => (e.key.startsWith('cmd:') ? e.key.slice(4) : e.what);

/** Narration, successful commands and edits strictly between two points of the turn. */
function between(a: TurnAnalysis, from: number, to: number) {
  return {
    texts: a.narration.filter((n) => n.index > from && n.index < to).map((n) => n.text),
    commands: a.commands.filter(
      (c) => c.ok && c.index > from && c.index < to && c.kind !== 'inspect' && c.kind !== 'commit',
    ),
    files: unique(a.edits.filter((x) => x.index > from && x.index < to).map((x) => x.path)),
  };
}

const normalised = (c: string) =>
  c
    .replace(/\s*\d?>>?\s*&?\s*\S+/g, '')
    .replace(/\s*\|.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** What made a failure go away, in one short phrase, and the longer account for the facts. */
function fixOf(
  a: TurnAnalysis,
  failed: { command: string; hint: string; index: number },
  resolving: CommandRun,
): { short: string; cause: string; files: string[]; steps: string[] } {
  const b = between(a, failed.index, resolving.index);
  const said = causeSentences(b.texts);
  const cause = said.fix ? `${said.cause} ${said.fix}` : said.cause;
  const steps = b.commands.map((c) => `\`${clip(normalised(c.command), 80)}\``);
  const differs = normalised(resolving.command) !== normalised(failed.command);
  const hinted = b.commands.find((c) => failed.hint !== '' && normalised(c.command) === failed.hint);
  const short = differs
    ? `\`${clip(normalised(resolving.command), 80)}\``
    : hinted
      ? `\`${clip(failed.hint, 80)}\``
      : said.cause !== ''
        ? said.cause
        : steps.length > 0
          ? `run ${steps.slice(0, 2).join(', ')} first`
          : b.files.length > 0
            ? `change ${b.files.slice(0, 2).join(', ')}`
            : 'it passed on a second run';
  return { short, cause, files: b.files, steps };
}

/** The gotcha memory of an error and what resolved it. */
export function gotchaDraft(
  e: { canonical: string; message: string; command: string },
  fix: { short: string; cause: string; files: string[]; steps: string[]; resolvedBy: string },
  extraFacts: readonly string[] = [],
): ObservationDraft {
  const title = clip(`\`${clip(e.canonical, 40)}\` fails: ${shortError(e.message, 70)} → ${fix.short}`, 150);
  const names = unique([...(/\b(\w*(?:Error|Exception))\b/.exec(e.message)?.slice(1, 2) ?? [])]);
  return {
    type: 'gotcha',
    title,
    subtitle: '',
    narrative: clip(
      `\`${clip(e.command, 100)}\` failed with: ${clip(e.message, 200)}.${fix.cause ? ` ${fix.cause}` : ''} It worked after ${fix.short === 'it passed on a second run' ? 'a second run' : fix.short}${fix.resolvedBy ? ` (\`${clip(fix.resolvedBy, 100)}\`)` : ''}.`,
      800,
    ),
    facts: unique([
      `error: ${clip(e.message, 200)}`,
      `fix: ${clip(fix.short, 200)}`,
      ...(fix.cause && fix.cause !== fix.short ? [`cause: ${clip(fix.cause, 200)}`] : []),
      ...(fix.steps.length > 0 ? [`ran first: ${fix.steps.slice(0, 3).join(', ')}`] : []),
      ...(fix.files.length > 0 ? [`changed: ${fix.files.slice(0, 4).join(', ')}`] : []),
      ...(fix.resolvedBy ? [`then passed: \`${clip(fix.resolvedBy, 100)}\``] : []),
      ...extraFacts,
    ]).slice(0, 10),
    concepts: conceptsOf({
      prompt: '',
      files: fix.files,
      commands: [e.command],
      extra: ['gotcha', ...names],
    }),
    filesRead: [],
    filesModified: fix.files.slice(0, 10),
    subject: `gotcha:${e.canonical}:${errorSignature(e.message)}`,
  };
}

/** Setup errors of the turn that something in the turn resolved. */
export function gotchaObservations(a: TurnAnalysis): ObservationDraft[] {
  const out: ObservationDraft[] = [];
  const seen = new Set<string>();
  for (const e of a.errors) {
    if (e.minor || !e.fixed || e.fixedAt === null || !e.key.startsWith('cmd:') || !isSetupError(e.message))
      continue;
    const resolving = a.commands.find((c) => c.index === e.fixedAt);
    const failed = a.commands.find((c) => c.index === e.index);
    if (!resolving || !failed) continue;
    const draft = gotchaDraft(
      { canonical: canonicalOf(e), message: e.message, command: failed.command },
      { ...fixOf(a, { command: failed.command, hint: e.hint, index: e.index }, resolving), resolvedBy: '' },
    );
    if (seen.has(draft.subject ?? draft.title)) continue;
    seen.add(draft.subject ?? draft.title);
    out.push(draft);
  }
  return out;
}

/** The failure still open at the end of the turn (with what else was tried), as one failed attempt. */
export function openFailure(a: TurnAnalysis): ObservationDraft | null {
  const open = a.errors.filter((e) => !e.minor && !e.fixed);
  const first = open[0];
  if (!first) return null;
  const canonical = canonicalOf(first);
  const after = a.narration.filter((n) => n.index > first.index).map((n) => n.text);
  const texts = a.lastMessage !== '' && !after.includes(a.lastMessage) ? [...after, a.lastMessage] : after;
  const why = explanation(texts, 400);
  const others = open.slice(1).filter((e) => e.key !== first.key);
  return {
    type: 'failed_attempt',
    title: clip(`\`${clip(canonical, 50)}\` fails: ${shortError(first.message, 70)}`, 120),
    subtitle: others.length > 0 ? `${others.length} other attempt(s) failed too` : '',
    narrative: clip(
      `Still failing at the end of the turn: \`${clip(first.what, 100)}\` (${clip(first.message, 160)}).${why ? ` ${why}` : ''}${first.hint ? ` The output suggests \`${first.hint}\`.` : ''}`,
      800,
    ),
    facts: unique([
      `error: ${clip(first.message, 200)}`,
      ...(first.hint ? [`suggested: \`${first.hint}\``] : []),
      ...others.map((e) => `also failed: \`${clip(e.what, 80)}\` (${clip(e.message, 100)})`),
    ]).slice(0, 8),
    concepts: conceptsOf({
      prompt: '',
      files: [],
      commands: open.map((e) => e.what),
      extra: [
        'failed attempt',
        ...unique(open.flatMap((e) => /\b(\w*(?:Error|Exception))\b/.exec(e.message)?.slice(1, 2) ?? [])),
      ],
    }),
    filesRead: [],
    filesModified: [],
    subject: `fail:${canonical}`,
  };
}

/** Each command that ended the turn working, with what was done before it (to close older failures). */
export function resolutions(a: TurnAnalysis): Resolution[] {
  const lastByKey = new Map<string, CommandRun>();
  for (const c of a.commands) if (c.kind !== 'inspect') lastByKey.set(`cmd:${c.canonical}`, c);
  const out: Resolution[] = [];
  for (const [key, last] of lastByKey) {
    if (!last.ok) continue;
    const first = a.commands.find((c) => c.ok && `cmd:${c.canonical}` === key) ?? last;
    const fix = fixOf(a, { command: first.command, hint: '', index: -1 }, first);
    // What was done first in the turn, else why it works now, else what the user said it changed.
    const request = requestOf(a);
    const short =
      fix.steps.length > 0
        ? `run ${fix.steps.slice(0, 2).join(', ')} first`
        : fix.cause || (request !== '' ? `after "${clip(request, 80)}"` : '');
    out.push({ key, command: first.command, fix: short, files: fix.files, at: first.at });
  }
  return out;
}

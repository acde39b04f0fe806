/**
 * What fixed a failure: what changed between the run that failed and the run that passed — the
 * command's own spelling (another flag, another tool), another command that succeeded in between,
 * the imported API an edit swapped, the files (and symbols) edited — never a later prompt and never a
 * step that itself failed; with the assistant's explanation of the cause said in between. And whether
 * the error and its fix are worth keeping as a gotcha, or were just progress on the code being written.
 */
import type { TurnAnalysis } from './analyse-turn.ts';
import { sameCommand, samePath, type PartRun, type TurnError } from './command-runs.ts';
import { diagnostics } from './diagnostics.ts';
import { describeImportSwap, type ImportChanges } from './import-changes.ts';
import { SILENCES } from './turn-edits.ts';
import { stem } from './extractors/shared-words.ts';
import { causeSentences } from './narration.ts';
import { clip, unique } from './text.ts';
import { isTrackerCommand } from './tickets.ts';

export interface Fix {
  /** What kind of change made it pass. */
  kind: 'command' | 'step' | 'imports' | 'config' | 'code' | 'none';
  /** The fix in a few words, for a title. */
  short: string;
  /**
   * The fix where its cause is told beside it: `short` without the cause it restates when the change
   * is known only by its place ("change x.ex" for "change x.ex: Dialyzer knows …"); else `short`.
   */
  bare: string;
  /** The assistant's explanation of the cause, when it gave one. */
  cause: string;
  files: string[];
  symbols: string[];
  /** Other commands that succeeded in between (`\`npm run format\``). */
  steps: string[];
  /** The spelling that worked, when it differs from the one that failed. */
  command: string;
  /** The fix touched files other than the ones being written when it failed. */
  beyondWork: boolean;
  /** Characters the edits in between changed (a typo-sized fix is a few). */
  size: number;
  /** The edits in between only took code out. */
  deletion: boolean;
  /** The line or two a small fix wrote, in the code's own words (none for a larger change). */
  lines: string[];
  /**
   * The edits name what the error named (a file, a symbol or a word of a line they wrote is in the
   * error): an edit that shares nothing with a missing tool's error did not fix it.
   */
  related: boolean;
  /** The failure's output named the step that fixed it beside its error ("Run 'bd sync' to fix"). */
  named: boolean;
  /**
   * The fix was running the project's formatter and nothing else: the code was only not formatted,
   * which is the formatter's everyday job, not a pitfall (the commands card says how to format).
   */
  formatting: boolean;
}

/** Flags and environment settings that make git or a hook manager skip the repository's hooks. */
const SKIPS_HOOKS = /(?:^|\s)(?:--no-verify|(?:HUSKY|LEFTHOOK)=0|SKIP_HOOKS?=\S+|SKIP=\S+)(?=\s|$)/;

/** The run that passed skipped the hooks the failed run went through. */
function skippedHooks(failed: PartRun, passed: PartRun): boolean {
  const skips = (p: PartRun) => SKIPS_HOOKS.test(p.raw);
  return skips(passed) && !skips(failed);
}

/** Files that are configuration, manifests or infrastructure rather than the program's code. */
const CONFIG_FILE =
  /(?:^|\/)(?:[^/]+\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|lock|env|properties|xml|gradle|mod|sum|plist)|\.[\w.-]+rc(?:\.\w+)?|\.env[\w.]*|\.gitignore|\.\w*ignore|Dockerfile[\w.-]*|Containerfile[\w.-]*|Makefile|Justfile|Gemfile|Procfile|Rakefile|mix\.exs|Cargo\.toml|go\.mod|package\.json|tsconfig[\w.-]*\.json|requirements[\w.-]*\.txt|setup\.(?:py|cfg)|pyproject\.toml|[\w.-]*\.config\.[cm]?[jt]s|lefthook\.ya?ml|\.lefthook\.ya?ml|\.pre-commit-config\.yaml)$/i;

/** Flags of a part as written (`--no-verify`, `--legacy-peer-deps`), values dropped. */
const flagsOf = (raw: string) =>
  new Set(
    (raw.match(/(?:^|\s)(--?[A-Za-z][\w-]*)/g) ?? [])
      .map((f) => f.trim())
      .filter((f) => !/^-(?:m|am|qm|v|q|vv)$/.test(f)),
  );

/** How the spelling that passed differs from the one that failed ('' when only files or targets differ). */
function spellingChange(failed: PartRun, passed: PartRun): string {
  const before = flagsOf(failed.raw);
  const after = flagsOf(passed.raw);
  const added = [...after].filter((f) => !before.has(f));
  const removed = [...before].filter((f) => !after.has(f));
  const head = (p: PartRun) =>
    p.canonical
      .split(' ')
      .filter((w) => !w.startsWith('-'))
      .join(' ');
  if (head(failed) !== head(passed) && !(failed.purpose === 'other' && sameCommand(failed, passed)))
    return clip(passed.canonical, 80);
  if (added.length === 0 && removed.length === 0) return '';
  // The checker told to fix what it found (`ruff check --fix`, `biome check --write`) fixed the code,
  // not a pitfall of the command.
  if (
    /^(?:lint|format|gate)$/.test(failed.purpose) &&
    removed.length === 0 &&
    added.every((f) => AUTOFIX.test(f))
  )
    return '';
  if (passed.raw.length <= 60 && !/["'$`<]/.test(passed.raw)) return passed.raw;
  const base = head(passed);
  return [
    added.length > 0 ? `${base} ${added.join(' ')}` : '',
    removed.length > 0 ? `without ${removed.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

const basename = (p: string) => p.split('/').pop() ?? p;

/**
 * A step as it is worth repeating: its normal form, with what it installed or removed (`npm install
 * -D @tauri-apps/cli@latest`), and git's with the line as written (`git pull --rebase origin main`).
 */
function stepText(p: PartRun): string {
  const what =
    /^(?:install|uninstall)$/.test(p.purpose) && p.target !== '' && !p.canonical.includes(p.target)
      ? `${p.canonical} ${p.target}`
      : /^git /.test(p.canonical) && p.raw.length <= 80
        ? p.raw
        : p.canonical || p.raw;
  return `\`${clip(what, 80)}\``;
}

/** Words that say nothing about which failure a sentence is about. */
const GENERIC = new Set(
  'the this that with from have been were will when then there their they error errors fail failed fails failing file files test tests check checks change changes code line lines type types run runs running need needs issue problem still also just into some should would could make sure'.split(
    ' ',
  ),
);

/** The telling words of a text, lightly stemmed (`imported` → `import`, `files` → `file`). */
function words(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z][a-z0-9_]{3,}/g) ?? [])
      .filter((w) => !GENERIC.has(w))
      .map(stem)
      .filter((w) => w.length >= 4 && !GENERIC.has(w)),
  );
}

/** Flags that make a linter or formatter fix what it finds. */
const AUTOFIX =
  /^(?:--fix|--fix-only|--unsafe-fixes|--unsafe|--write|-w|--apply|--apply-unsafe|--autocorrect|--autocorrect-all|-a|-A)$/;

/**
 * Whether a failed run's output names `p` beside its error (within 400 characters of where `message`
 * is printed; anywhere when the message cannot be found): "Run 'bd sync --import-only' to fix".
 */
function namedBeside(p: PartRun, printed: string, message: string): boolean {
  const told = printed.toLowerCase();
  // The message as printed: without the rule a diagnostic put before it (`design: …`).
  const errorAt = [message, message.replace(/^[\w/.-]+:\s*/, '')]
    .map((m) => (m.length >= 12 ? told.indexOf(m.slice(0, 30)) : -1))
    .reduce((found, at) => (found >= 0 ? found : at), -1);
  const said = (p.canonical || p.raw).toLowerCase();
  if (said.length < 4) return false;
  for (let at = told.indexOf(said); at >= 0; at = told.indexOf(said, at + 1))
    if (errorAt < 0 || Math.abs(at - errorAt) <= 400) return true;
  return false;
}

/**
 * What changed between a failure (`from`: the last run that still showed the error) and the run that
 * passed (`to`).
 */
export function fixBetween(
  a: TurnAnalysis,
  from: PartRun | { index: number; raw?: string },
  to: PartRun,
  options: { loose?: boolean } = {},
): Fix {
  const inside = (i: number) => i > from.index && i < to.index;
  // An edit that changed nothing (old text = new text) is not a fix.
  const edits = a.edits.filter((e) => inside(e.index) && (e.size ?? 1) > 0);
  const files = unique(edits.map((e) => e.path));
  const symbols = unique(edits.flatMap((e) => e.symbols ?? []));
  const imports: ImportChanges = {
    added: edits.flatMap((e) => e.imports?.added ?? []),
    removed: edits.flatMap((e) => e.imports?.removed ?? []),
  };
  const failedKey = 'key' in from ? (from as PartRun).key : to.key;
  const failedCanonical = 'key' in from ? (from as PartRun).canonical : to.canonical;
  // The parts of the line that passed, run before it in the same chain (`bd sync && bd ready` after
  // `bd ready` failed): each ran between the failure and the pass.
  const line = a.commands.find((c) => c.parts.includes(to))?.parts ?? [];
  const before = new Set(line.slice(0, Math.max(0, line.indexOf(to))));
  const printed = a.commands.find((c) => c.index === from.index)?.output ?? '';
  const message = 'key' in from ? (from as PartRun).message.toLowerCase() : '';
  const stepRuns = a.commands
    .flatMap((c) => c.parts)
    .filter(
      (p) =>
        // A part chained before the passing run (`mkdir -p x && …`) is a fix only when it changes the
        // project's state or the failure named it; else it only set the run up.
        (inside(p.index) ||
          (before.has(p) &&
            (/^(?:install|uninstall|migrate|format)$/.test(p.purpose) ||
              namedBeside(p, printed, message)))) &&
        p.outcome === 'passed' &&
        // Another run of what failed is no step; for a tool of its own (`bd`), another of its commands is.
        (p.key !== failedKey || (p.purpose === 'other' && p.canonical !== failedCanonical)) &&
        // A check that passed in between verified the fix; it did not make it.
        !/^(?:inspect|commit|push|test|lint|typecheck|gate)$/.test(p.purpose) &&
        // The tracker's bookkeeping (`bd close …`) changes no code: a step only of a tracker's own failure.
        !(isTrackerCommand(p.raw) && !isTrackerCommand(failedCanonical)) &&
        // git's bookkeeping is no fix, unless the failure named it beside its error ("Updates were
        // rejected … integrate the remote changes (e.g. 'git pull ...')").
        !(
          p.purpose === 'other' &&
          (/^git /.test(p.tool) || options.loose === true) &&
          !namedBeside(p, printed, message)
        ) &&
        !(p.purpose === 'run' && p.adhoc) &&
        (p.where === 'project' || ('where' in from && (from as PartRun).where !== 'project')),
    );
  const steps = stepRuns.map(stepText);
  // Why it failed is said on seeing it, or with the first change made for it; once more edits follow,
  // what the assistant says is about the code half-way (a warning an edit itself raised), not this error.
  const secondEdit = edits[1];
  const beforeEdits = (n: { index: number; at: number }) =>
    secondEdit === undefined ||
    n.index < secondEdit.index ||
    (secondEdit.at !== undefined && secondEdit.at > 0 && n.at <= secondEdit.at);
  const texts = a.narration.filter((n) => inside(n.index) && beforeEdits(n)).map((n) => n.text);
  // The assistant's explanation counts only when it is about this failure: it shares a word with the
  // error, the command, or what the fix changed.
  const about = words(
    [
      'key' in from ? `${(from as PartRun).message} ${(from as PartRun).canonical}` : '',
      ...files,
      ...symbols,
    ].join(' '),
  );
  const shares = (text: string) => [...words(text)].some((w) => about.has(w));
  // Why it failed and what the assistant said it would do about it, apart: a plan is no cause.
  const said = causeSentences(texts, shares);
  const cause = said.cause;
  let command = 'key' in from ? spellingChange(from as PartRun, to) : '';
  // The same script, run from the folder it expects (`node assets/build.js` failed, `cd assets && node
  // build.js` worked): the folder was the fix.
  const fromFolder =
    'key' in from &&
    (from as PartRun).script !== undefined &&
    (from as PartRun).script === to.script &&
    (from as PartRun).dir !== to.dir
      ? to.dir
      : null;
  if (fromFolder !== null) command = fromFolder === '' ? to.raw : `cd ${fromFolder} && ${to.raw}`;
  if ('key' in from && (from as PartRun).target === 'inline' && to.target !== 'inline') {
    // Inline code that failed, run as a file that worked: the file was the fix.
    const line = a.commands.find((c) => c.index === to.index);
    const written = line?.parts.find((p) => p.index === to.index && p.writes.length > 0)?.writes[0];
    command = written ? `write it to ${written}, then ${to.raw}` : to.raw;
  }
  // It failed where it was run from (`cd elsewhere && …`) and worked from the project's folder.
  const failedRun = 'key' in from ? (from as PartRun) : null;
  const moved =
    failedRun?.where === 'outside' && failedRun.dir !== '' && to.where !== 'outside' && to.dir === ''
      ? `, from the project's folder${a.root ? ` (${basename(a.root.replace(/[\\/]+$/, ''))})` : ''}, not ${basename(failedRun.dir)}`
      : '';
  // Files being written when it failed: the code under construction.
  const work = new Set([
    ...(a.earlierEdits ?? []),
    ...a.edits.filter((e) => e.index < from.index).map((e) => e.path),
  ]);
  const beyondWork = files.some((f) => !work.has(f));
  const swap = describeImportSwap(imports, 'key' in from ? (from as PartRun).message : '');
  const where =
    files.length > 0
      ? `${files.slice(0, 2).map(basename).join(', ')}${
          symbols.length > 0
            ? ` ${symbols
                .slice(0, 2)
                .map((s) => `\`${s}\``)
                .join(', ')}`
            : ''
        }`
      : '';
  const steps2 = unique(steps);
  const deletion = edits.length > 0 && edits.every((e) => e.deletion === true);
  const removed = unique(edits.flatMap((e) => e.removed ?? []));
  // The lines a small fix wrote: only when the edits in between were few (one or two changes).
  const lines = edits.length <= 2 ? unique(edits.flatMap((e) => e.lines ?? [])).slice(0, 3) : [];
  // For a larger edit, the lines it wrote that name what the error named (the setting it said was
  // missing, the endpoint it named).
  const errorWords = 'key' in from ? words((from as PartRun).message) : new Set<string>();
  const namesTheError = (l: string) => [...words(l)].some((w) => errorWords.has(w));
  const tellingEdit = lines.length > 0 ? undefined : edits.find((e) => (e.wrote ?? []).some(namesTheError));
  const telling = unique((tellingEdit?.wrote ?? []).filter(namesTheError)).slice(0, 2);
  const editWords = words(
    [
      ...files.map((f) => basename(f).replace(/\.[^.]+$/, '')),
      ...symbols,
      ...removed,
      ...edits.flatMap((e) => e.wrote ?? []),
    ].join(' '),
  );
  // What the failed run printed names the files and symbols involved (a stack frame, a path).
  const failureWords = new Set([...errorWords, ...words(printed.slice(0, 6000))]);
  const related = [...editWords].some((w) => failureWords.has(w));
  // Beside edits, only a step that changes the project's state (installs, migrates, formats) can have
  // fixed it — a build, or a tool of another kind, only ran alongside; and a formatter fixes how code
  // is laid out, not what a linter's or type checker's rule found.
  const fitting = stepRuns.filter(
    (p) =>
      !(p.purpose === 'format' && message !== '' && !/\bformat/.test(message)) &&
      (files.length === 0 || /^(?:install|uninstall|migrate|format)$/.test(p.purpose)),
  );
  // Named by the failure beside its error (a report of several checks names each one's remedy in its
  // own section: "Run 'mix format' to fix").
  const named = fitting.some((p) => namedBeside(p, printed, message));
  const declaredHere = edits.some(
    (e) => CONFIG_FILE.test(e.path) && [...(e.lines ?? []), ...(e.wrote ?? [])].some(namesTheError),
  );
  // Such a step is the fix when the failure named it, when nothing edited in between touched what
  // failed, or when it installed what an edit in between declared for this error (a dependency added
  // to the manifest, then installed); otherwise the edit that touched what failed is. With no failed
  // run to compare (a failure of an earlier turn), when there is one.
  const stepFixes =
    'key' in from
      ? named || !related || (declaredHere && fitting.some((p) => p.purpose === 'install'))
      : fitting.length > 0;
  let kind: Fix['kind'] = 'none';
  let short = '';
  let bare: string | undefined;
  // It passed by switching the checks off (`git commit --no-verify`, `HUSKY=0 git push`): what they
  // reported was skipped, not fixed.
  if ('key' in from && skippedHooks(from as PartRun, to)) {
    kind = 'command';
    short = `skipped the hooks (\`${clip(command || to.raw, 60)}\`), not fixed`;
  } else if (fromFolder !== null) {
    kind = 'command';
    short = `run it from ${fromFolder === '' ? "the project's folder" : fromFolder}: \`${command}\``;
  } else if (command !== '') {
    kind = 'command';
    short = `\`${command}\`${moved}`;
  } else if (fitting.length > 0 && stepFixes) {
    kind = 'step';
    // A dependency declared, then installed: both are the fix.
    const config = files.find((f) => CONFIG_FILE.test(f));
    const declared =
      config && lines.length > 0 ? `in ${basename(config)}: \`${clip(lines[0] ?? '', 80)}\`; then ` : '';
    const run = unique(fitting.map(stepText));
    short = `${declared}run ${run.slice(0, 2).join(', ')}${declared ? '' : ' first'}`;
  } else if (swap !== '') {
    kind = 'imports';
    // A dropped import names its module already; the file is in the gotcha's facts.
    short = `${swap}${where && !swap.startsWith('drop ') ? ` in ${basename(files[0] ?? '')}` : ''}`;
  } else if (files.length > 0) {
    kind = files.some((f) => CONFIG_FILE.test(f)) ? 'config' : 'code';
    // The assistant's own words for the fix ("I need to also import X" → "also import X"), else its
    // explanation of the cause, with where the change was made.
    const action = (
      /(?:^|,\s*|\.\s+)(?:(?:so|now|then|first|next)\s+)?(?:I|we)(?:'ll| will| need to| have to| should| must)(?: also)?\s+(.+)$/i.exec(
        said.fix,
      )?.[1] ?? said.fix
    ).replace(/[.:]$/, '');
    const words = action.replace(/[.:]$/, '');
    // A check switched off for the line it found (the last such directive written): silenced, not
    // fixed, whatever the assistant called it.
    // Only where the failure's own diagnostic is: a directive for another finding of the same run
    // silenced that one, not this. The output is read for it only when some edit wrote a directive.
    const silencers = edits.filter((e) => (e.wrote ?? []).some((l) => SILENCES.test(l)));
    const found =
      silencers.length > 0
        ? diagnostics(printed).find((d) => d.file !== '' && message.includes(d.message.toLowerCase()))
        : undefined;
    const silencing = found && [...silencers].reverse().find((e) => samePath(e.path, found.file));
    const silenced = silencing?.wrote?.find((l) => SILENCES.test(l));
    if (silencing && silenced)
      short = `silenced in ${basename(silencing.path)}: \`${clip(silenced.trim(), 100)}\``;
    // Its own words for the fix, else the line the fix wrote, else its explanation of the cause.
    else if (words) short = `${clip(words, 90)} (in ${where})`;
    else if (lines.length > 0) short = `in ${where}: \`${clip(lines[0] ?? '', 100)}\``;
    else if (deletion && removed.length > 0)
      short = `remove ${removed
        .slice(0, 3)
        .map((r) => `\`${r}\``)
        .join(', ')} from ${basename(files[0] ?? '')}`;
    else if (removed.length > 0)
      short = `in ${basename(files[0] ?? '')}: removed ${removed
        .slice(0, 3)
        .map((r) => `\`${r}\``)
        .join(', ')}`;
    else if (telling.length > 0)
      short = `in ${basename(tellingEdit?.path ?? '')}: ${telling.map((l) => `\`${clip(l, 80)}\``).join(' … ')}`;
    // Only why it failed: the fix is the change at that place, for that reason.
    else if (said.cause) {
      bare = `change ${where}`;
      short = `${bare}: ${clip(said.cause.replace(/[.:]$/, ''), 90)}`;
    } else short = `change ${where}`;
  }
  const size = edits.reduce((n, e) => n + (e.size ?? 0), 0);
  return {
    kind,
    short,
    bare: bare ?? short,
    cause,
    files,
    symbols,
    // Beside a fix made by editing, only a step that changed the project's state ran first to it; a
    // build or a format run in between only checked or tidied the edit.
    steps:
      kind === 'step' || kind === 'command' || kind === 'none'
        ? steps2
        : unique(stepRuns.filter((p) => /^(?:install|uninstall|migrate)$/.test(p.purpose)).map(stepText)),
    command,
    beyondWork,
    size,
    deletion,
    lines,
    related,
    named: kind === 'step' && named,
    formatting: kind === 'step' && fitting.every((p) => p.purpose === 'format'),
  };
}

/**
 * A fixed error worth keeping as a gotcha: a setup problem or a tool's rule, or any error fixed by
 * changing the command, running another one, swapping an imported API or changing configuration, or
 * an error in code beyond what was being written that the assistant explained. Not a wrong result a
 * test found (the code's own bug), not something that passed again with nothing changed, not an
 * error in the code being written fixed by writing it differently (progress, not a pitfall), and not
 * a check's finding that the code was not formatted, fixed by running the formatter.
 */
export function worthAGotcha(e: Pick<TurnError, 'cls' | 'purpose'>, fix: Fix): boolean {
  if (e.cls === 'assertion' || fix.kind === 'none') return false;
  // Code that was only not formatted, formatted by the project's formatter: a check that includes a
  // format check said so, which is routine (the commands card says how to format); a commit or push it
  // stopped showed a gate of the project's, which is worth knowing.
  if (fix.formatting && e.purpose !== 'commit' && e.purpose !== 'push') return false;
  // A rule about the code being written, met by deleting the offending code (an unused import or
  // variable), is tidying, not a pitfall.
  if (e.cls === 'rule') return !(fix.kind === 'code' && !fix.beyondWork && fix.deletion);
  // A setup error (a tool, module or setting missing) is fixed by a code edit only when the edit names
  // what the error named; one in the code being written, typo-sized with no word on why, was a typo.
  if (e.cls === 'setup')
    return fix.kind !== 'code' || (fix.related && (fix.beyondWork || fix.cause !== '' || fix.size > 12));
  if (fix.kind === 'command' || fix.kind === 'step' || fix.kind === 'imports' || fix.kind === 'config')
    return true;
  // A compiler error or crash fixed by editing code: a pitfall only when it surfaced beyond the work
  // and the assistant said why (else it is the code's own bug, fixed).
  return fix.beyondWork && fix.cause !== '';
}

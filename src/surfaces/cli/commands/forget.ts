/**
 * `engram forget <id…>`: erase memories for good (their text everywhere engram keeps it; a tombstone
 * stays so they never come back). `engram forget --match TEXT`: erase a phrase (a leaked secret, a
 * name) from everything engram stores, counted first, leaving no byte of it under ENGRAM_HOME.
 */
import { rmSync } from 'node:fs';
import { eraseFromVault } from '../../../graph/vault-erase.ts';
import { EngramError } from '../../../core/errors.ts';
import { checkPhrase, phrasePattern, phraseWordsPattern } from '../../../core/phrase.ts';
import { listBackups } from '../../../store/backup.ts';
import { forget } from '../../../app/forget.ts';
import { phraseInFiles, type FileTally } from '../../../store/erase-files.ts';
import {
  compactStore,
  countPhraseInStore,
  erasePhraseInStore,
  type PhraseScope,
  type PhraseTally,
} from '../../../store/erase-text.ts';
import { stopWorker } from '../../worker-launcher.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec, type ParsedArgs } from '../registry.ts';
import { projectOf } from './memory.ts';

export function forgetIds(ctx: CliContext, ids: string[], flags: { json: boolean }): number {
  const r = withStore(ctx, (store) =>
    forget({ store, backupDir: ctx.runtime.paths.backupDir }, ids, () => ({ origin: 'cli', at: ctx.now() })),
  );
  if (flags.json) printJson(ctx, r);
  else
    for (const id of ids)
      ctx.io.out(r.forgotten.includes(id) ? `forgot ${id}\n` : `no memory with id ${id}\n`);
  return r.missing.length > 0 ? 1 : 0;
}

function describeCounts(store: PhraseTally[], files: FileTally[]): string[] {
  return [
    ...store.map((t) => `  ${t.place}: ${t.occurrences} in ${t.rows} ${t.rows === 1 ? 'row' : 'rows'}`),
    ...files.map((f) => `  file ${f.file}: ${f.occurrences}`),
  ];
}

const total = (store: PhraseTally[], files: FileTally[]) =>
  store.reduce((n, t) => n + t.occurrences, 0) + files.reduce((n, f) => n + f.occurrences, 0);

async function forgetMatch(ctx: CliContext, args: ParsedArgs, phrase: string): Promise<number> {
  const problem = checkPhrase(phrase);
  if (problem) throw new EngramError('INPUT_INVALID', `--match: ${problem}`);
  const all = boolFlag(args, 'all');
  if (all && stringFlag(args, 'project') !== undefined)
    throw new EngramError('INPUT_INVALID', 'use --project P or --all, not both');
  const project = all ? null : projectOf(ctx, args);
  const scope: PhraseScope = {
    phrase,
    pattern: phrasePattern(phrase),
    words: phraseWordsPattern(phrase),
    projectId: project?.id ?? null,
  };
  // Files are read byte for byte: the phrase is looked for as its UTF-8 bytes.
  const filePattern = phrasePattern(Buffer.from(phrase, 'utf8').toString('latin1'));
  const home = ctx.runtime.home;
  const where = project ? `project ${project.name}` : 'every project';
  const before = withStore(ctx, (store) => countPhraseInStore(store.db, scope));
  const filesBefore = phraseInFiles(home, filePattern, false);
  const found = total(before, filesBefore);
  const dryRun = boolFlag(args, 'dry-run');
  if (!args.json || dryRun || found === 0) {
    const lines = [
      `"${phrase}" in ${where} and engram's files: ${found} occurrences`,
      ...describeCounts(before, filesBefore),
    ];
    if (!args.json) ctx.io.out(`${lines.join('\n')}\n`);
  }
  if (dryRun || found === 0) {
    if (args.json)
      printJson(ctx, { phrase, scope: where, dryRun, found, store: before, files: filesBefore, erased: 0 });
    return 0;
  }
  if (!boolFlag(args, 'yes')) {
    const sure = ctx.io.confirm
      ? await ctx.io.confirm(`Erase all ${found} occurrences for good? [y/N] `)
      : false;
    if (!sure) {
      if (!ctx.io.confirm)
        throw new EngramError(
          'INPUT_INVALID',
          'erasing needs confirmation: add --yes (or --dry-run to only count)',
        );
      ctx.io.out('nothing erased\n');
      return 1;
    }
  }
  const stopped = await stopWorker(ctx.runtime.paths);
  const at = ctx.now();
  const { erased, compacted } = withStore(ctx, (store) => {
    // Vaults first: a note still holding the phrase must not come back in as a human edit.
    eraseFromVault(store, null, { phrase, projectId: scope.projectId });
    const result = erasePhraseInStore(store.db, store.memory, scope, { origin: 'cli', at });
    return { erased: result, compacted: compactStore(store.db) };
  });
  // A backup may hold the phrase anywhere (a SQLite file is not rewritten in place): every one goes;
  // the worker takes a new one.
  for (const b of listBackups(ctx.runtime.paths.backupDir)) rmSync(b.path, { force: true });
  const files = phraseInFiles(home, filePattern, true);
  const left = withStore(ctx, (store) => countPhraseInStore(store.db, scope));
  const leftFiles = phraseInFiles(home, filePattern, false);
  const remaining = total(left, leftFiles);
  if (args.json)
    printJson(ctx, {
      phrase,
      scope: where,
      dryRun: false,
      found,
      store: erased,
      files,
      erased: total(erased, files),
      remaining,
      compacted,
      workerStopped: stopped,
    });
  else {
    ctx.io.out(
      `erased ${total(erased, files)} occurrences; ${remaining === 0 ? 'none left' : `${remaining} LEFT`}` +
        `${compacted ? '' : ' (the database file could not be fully compacted: run it again once nothing else uses engram)'}` +
        `${stopped ? `; the worker (pid ${stopped}) was stopped and restarts with the next hook` : ''}\n`,
    );
    if (remaining > 0) ctx.io.out(`${describeCounts(left, leftFiles).join('\n')}\n`);
  }
  return remaining === 0 && compacted ? 0 : 1;
}

export const forgetSpec: CommandSpec = {
  name: 'forget',
  group: 'Memory',
  summary: 'erase memories, or a phrase from everything engram stores, for good',
  usage: '<id…> | --match TEXT [--project P | --all] [--dry-run] [--yes]',
  details:
    'With ids: each memory\u2019s text is erased everywhere engram keeps it (its row, indexes, vectors, versions, the raw events and prompt of its turn); a tombstone keeps it from coming back.\n' +
    'With --match: the phrase (any letter case) is erased from memories, summaries, prompts, raw events, transcript tails, logs and every other file under $ENGRAM_HOME, in the current project (or --project P, or --all); the counts are shown first; the database is compacted so no byte of it is left. Claude Code\u2019s own transcripts (~/.claude) are not engram\u2019s to change.',
  flags: {
    match: { type: 'string', value: 'TEXT', description: 'the phrase to erase (at least 3 characters)' },
    project: {
      type: 'string',
      value: 'P',
      description: 'the project (name, prj_ id or root) instead of this one',
    },
    all: { type: 'boolean', description: 'every project' },
    'dry-run': { type: 'boolean', description: 'only count where the phrase is' },
    yes: { type: 'boolean', description: 'do not ask for confirmation' },
    cwd: { type: 'string', value: 'DIR', description: 'the project directory (default: here)' },
  },
  examples: [
    'engram forget obs_01jf3k2m9x0000000000',
    'engram forget --match "sk-live-1234" --all --dry-run',
    'engram forget --match "Jane Doe" --all --yes',
  ],
  run: (ctx, args) => {
    const phrase = stringFlag(args, 'match');
    if (phrase !== undefined) {
      if (args.positionals.length > 0)
        throw new EngramError('INPUT_INVALID', 'give ids or --match, not both');
      return forgetMatch(ctx, args, phrase);
    }
    if (args.positionals.length === 0)
      throw new EngramError('INPUT_INVALID', `usage: engram forget ${forgetSpec.usage}`, {
        hint: 'Run "engram forget --help" for details.',
      });
    return forgetIds(ctx, args.positionals, { json: args.json });
  },
};

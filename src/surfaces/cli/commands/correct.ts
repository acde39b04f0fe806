/**
 * Saying and correcting memories from the command line: `engram remember`, `engram edit`,
 * `engram invalidate`, `engram archive` — each the app layer's verb with origin `cli`.
 */
import { archive, edit, invalidate, type Corrected } from '../../../app/corrections.ts';
import { remember } from '../../../app/remember.ts';
import { EngramError } from '../../../core/errors.ts';
import { OBSERVATION_TYPES } from '../../../core/model.ts';
import { memoryJson } from '../../memory-json.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { needPositionals, stringFlag, type CommandSpec, type ParsedArgs } from '../registry.ts';
import { CWD_FLAG, dirFlag, PROJECT_FLAG, projectOf } from './memory.ts';

const cliCtx = (ctx: CliContext) => ({ origin: 'cli' as const, at: ctx.now() });

/** A repeatable string flag's values (absent: undefined). */
function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const v = args.values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : undefined;
}

/** `--standing yes|no`; absent: by the memory's type. */
function standingFlag(args: ParsedArgs): boolean | undefined {
  const v = stringFlag(args, 'standing');
  if (v === undefined) return undefined;
  if (v !== 'yes' && v !== 'no')
    throw new EngramError('INPUT_INVALID', `--standing takes yes or no, not "${v}"`);
  return v === 'yes';
}

/** A correction's answer: the memory's JSON, or one line. */
function corrected(ctx: CliContext, json: boolean, r: Corrected, done: string): number {
  if (json) printJson(ctx, memoryJson(r.memory));
  else
    ctx.io.out(
      r.changed ? `${done} ${r.memory.id} (now v${r.memory.version})\n` : `${r.memory.id} unchanged\n`,
    );
  return 0;
}

export const rememberSpec: CommandSpec = {
  name: 'remember',
  group: 'Memory',
  summary: 'save a memory in your own words (a decision with its reason, a preference, a convention)',
  usage: '<title…> [--narrative TEXT] [--type T] [--fact F]… [--file PATH]… [--standing yes|no] [--cwd DIR]',
  details:
    'Decisions, preferences, conventions and corrections are standing (in every SessionStart index until superseded) unless --standing no; a newer memory on the same subject supersedes the older.',
  flags: {
    narrative: { type: 'string', value: 'TEXT', description: 'the details and the why' },
    type: {
      type: 'string',
      value: 'T',
      description: `its type (default fact; ${OBSERVATION_TYPES.join(', ')})`,
    },
    fact: { type: 'string', value: 'F', multiple: true, description: 'a fact (repeat for more)' },
    file: {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description: 'a file it concerns (repeat for more)',
    },
    standing: { type: 'string', value: 'yes|no', description: 'keep it in every session start index' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: [
    'engram remember "Deploys go out on Tuesdays only" --type convention',
    'engram remember "Use pnpm, not npm" --narrative "The lockfile is pnpm-lock.yaml." --json',
  ],
  run: (ctx, args) => {
    const project = projectOf(ctx, args);
    const cwd = stringFlag(args, 'cwd') === undefined ? project.root || ctx.cwd : dirFlag(ctx, args);
    const r = withStore(ctx, (store) =>
      remember(
        store,
        {
          project,
          cwd,
          title: needPositionals(args, rememberSpec).join(' '),
          narrative: stringFlag(args, 'narrative'),
          type: stringFlag(args, 'type'),
          facts: listFlag(args, 'fact'),
          files: listFlag(args, 'file'),
          standing: standingFlag(args),
        },
        cliCtx(ctx),
      ),
    );
    if (args.json) {
      printJson(ctx, { ...r, memory: r.memory ? memoryJson(r.memory) : null });
      return 0;
    }
    const id = r.memory?.id ?? 'unknown';
    const standing = r.memory?.pinned ? ' (standing)' : '';
    ctx.io.out(
      r.outcome === 'forgotten'
        ? `${id} was forgotten on purpose; it is not stored again\n`
        : r.outcome === 'seen-again'
          ? `the same memory exists as ${id}; marked as seen again${standing}\n`
          : `remembered as ${id}${r.supersedes ? `, superseding ${r.supersedes}` : ''}${standing}\n`,
    );
    return 0;
  },
};

export const editSpec: CommandSpec = {
  name: 'edit',
  group: 'Memory',
  summary: 'change a memory’s text, type, facts or files (the old text is kept as a version)',
  usage: '<id> [--title T] [--subtitle S] [--narrative N] [--type T] [--fact F]… [--file PATH]…',
  details:
    'A list flag (--fact, --concept, --file, --file-read) replaces that whole list. Undo with "engram restore <id>".',
  flags: {
    title: { type: 'string', value: 'T', description: 'the one-line title' },
    subtitle: { type: 'string', value: 'S', description: 'the subtitle' },
    narrative: { type: 'string', value: 'N', description: 'the details' },
    type: { type: 'string', value: 'T', description: 'its type' },
    fact: { type: 'string', value: 'F', multiple: true, description: 'the facts (repeat for more)' },
    concept: { type: 'string', value: 'C', multiple: true, description: 'the concepts (repeat for more)' },
    file: {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description: 'the files modified (repeat for more)',
    },
    'file-read': {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description: 'the files read (repeat for more)',
    },
  },
  examples: ['engram edit obs_01jf3k2m9x0000000000 --title "Deploys go out on Wednesdays"'],
  run: (ctx, args) => {
    const id = needPositionals(args, editSpec)[0] as string;
    const type = stringFlag(args, 'type');
    const r = withStore(ctx, (store) =>
      edit(
        store,
        id,
        {
          title: stringFlag(args, 'title'),
          subtitle: stringFlag(args, 'subtitle'),
          narrative: stringFlag(args, 'narrative'),
          ...(type === undefined ? {} : { type: type as (typeof OBSERVATION_TYPES)[number] }),
          facts: listFlag(args, 'fact'),
          concepts: listFlag(args, 'concept'),
          filesModified: listFlag(args, 'file'),
          filesRead: listFlag(args, 'file-read'),
        },
        cliCtx(ctx),
      ),
    );
    return corrected(ctx, args.json, r, 'edited');
  },
};

export const invalidateSpec: CommandSpec = {
  name: 'invalidate',
  group: 'Memory',
  summary: 'mark a memory wrong or outdated, with the reason (hidden from recall; engram restore undoes it)',
  usage: '<id> <reason…>',
  flags: {},
  examples: ['engram invalidate obs_01jf3k2m9x0000000000 the retry moved to the queue worker'],
  run: (ctx, args) => {
    const [id, ...reason] = needPositionals(args, invalidateSpec, 2);
    const r = withStore(ctx, (store) => invalidate(store, id as string, reason.join(' '), cliCtx(ctx)));
    return corrected(ctx, args.json, r, 'invalidated');
  },
};

export const archiveSpec: CommandSpec = {
  name: 'archive',
  group: 'Memory',
  summary: 'put a memory away (hidden from recall, kept; engram restore undoes it)',
  usage: '<id> [--reason TEXT]',
  flags: {
    reason: { type: 'string', value: 'TEXT', description: 'why (default: archived from the command line)' },
  },
  examples: ['engram archive obs_01jf3k2m9x0000000000 --reason "the feature was removed"'],
  run: (ctx, args) => {
    const id = needPositionals(args, archiveSpec)[0] as string;
    const r = withStore(ctx, (store) => archive(store, id, stringFlag(args, 'reason'), cliCtx(ctx)));
    return corrected(ctx, args.json, r, 'archived');
  },
};

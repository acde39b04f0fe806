/**
 * `engram pin <id…>` / `engram unpin <id…>`: make memories standing knowledge (always in the
 * SessionStart index, whatever their age, until superseded or invalidated) or ordinary again.
 */
import { pin } from '../../../app/corrections.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { needPositionals, type CommandSpec } from '../registry.ts';

function setPinned(ctx: CliContext, ids: string[], pinned: boolean, json: boolean): number {
  const r = withStore(ctx, (store) => pin(store, ids, pinned, { origin: 'cli', at: ctx.now() }));
  if (json)
    printJson(ctx, {
      [pinned ? 'pinned' : 'unpinned']: r.changed,
      unchanged: r.unchanged,
      missing: r.missing,
    });
  else
    for (const id of ids)
      ctx.io.out(
        r.missing.includes(id)
          ? `no memory with id ${id}\n`
          : r.changed.includes(id)
            ? `${pinned ? 'pinned' : 'unpinned'} ${id}\n`
            : `${id} was already ${pinned ? 'pinned' : 'not pinned'}\n`,
      );
  return r.missing.length > 0 ? 1 : 0;
}

export const pinSpec: CommandSpec = {
  name: 'pin',
  group: 'Memory',
  summary: 'make memories standing knowledge: always in the SessionStart index, whatever their age',
  usage: '<id…>',
  details:
    'Preferences, conventions, decisions with their reasons and how to build, test and run are pinned when they are distilled; pin anything else worth keeping in view. A pinned memory stays until it is superseded, invalidated or unpinned.',
  flags: {},
  examples: ['engram pin obs_01jf3k2m9x0000000000'],
  run: (ctx, args) => setPinned(ctx, needPositionals(args, pinSpec), true, args.json),
};

export const unpinSpec: CommandSpec = {
  name: 'unpin',
  group: 'Memory',
  summary: 'make standing memories ordinary again (they age out of the SessionStart index)',
  usage: '<id…>',
  flags: {},
  examples: ['engram unpin obs_01jf3k2m9x0000000000'],
  run: (ctx, args) => setPinned(ctx, needPositionals(args, unpinSpec), false, args.json),
};

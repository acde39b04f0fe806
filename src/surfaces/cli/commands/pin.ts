/**
 * `engram pin <id…>` / `engram unpin <id…>`: make memories standing knowledge (always in the
 * SessionStart index, whatever their age, until superseded or invalidated) or ordinary again.
 */
import { isEngramError } from '../../../core/errors.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { needPositionals, type CommandSpec } from '../registry.ts';

function setPinned(ctx: CliContext, ids: string[], pinned: boolean, json: boolean): number {
  const results = withStore(ctx, (store) =>
    store.transaction(() =>
      ids.map((id) => {
        try {
          const changed = store.memory.pin(id, pinned, { origin: 'cli', at: ctx.now() });
          return { id, outcome: changed ? ('changed' as const) : ('unchanged' as const) };
        } catch (error) {
          if (isEngramError(error, 'NOT_FOUND')) return { id, outcome: 'missing' as const };
          throw error;
        }
      }),
    ),
  );
  const of = (o: string) => results.filter((r) => r.outcome === o).map((r) => r.id);
  if (json)
    printJson(ctx, {
      [pinned ? 'pinned' : 'unpinned']: of('changed'),
      unchanged: of('unchanged'),
      missing: of('missing'),
    });
  else
    for (const r of results)
      ctx.io.out(
        r.outcome === 'missing'
          ? `no memory with id ${r.id}\n`
          : r.outcome === 'changed'
            ? `${pinned ? 'pinned' : 'unpinned'} ${r.id}\n`
            : `${r.id} was already ${pinned ? 'pinned' : 'not pinned'}\n`,
      );
  return of('missing').length > 0 ? 1 : 0;
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

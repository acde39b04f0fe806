/**
 * `engram forget <id…>`: erase memories for good (their text everywhere engram keeps it; a tombstone
 * stays so they never come back).
 */
import { printJson, withStore, type CliContext } from '../context.ts';
import { needPositionals, type CommandSpec } from '../registry.ts';

export function forgetIds(ctx: CliContext, ids: string[], flags: { json: boolean }): number {
  const results = withStore(ctx, (store) =>
    store.transaction(() =>
      ids.map((id) => ({ id, forgotten: store.memory.forget(id, { origin: 'cli', at: ctx.now() }) })),
    ),
  );
  const missing = results.filter((r) => !r.forgotten).map((r) => r.id);
  if (flags.json) printJson(ctx, { forgotten: results.filter((r) => r.forgotten).map((r) => r.id), missing });
  else for (const r of results) ctx.io.out(r.forgotten ? `forgot ${r.id}\n` : `no memory with id ${r.id}\n`);
  return missing.length > 0 ? 1 : 0;
}

export const forgetSpec: CommandSpec = {
  name: 'forget',
  group: 'Memory',
  summary: 'erase memories for good (their text everywhere engram keeps it)',
  usage: '<id…>',
  flags: {},
  examples: ['engram forget obs_01jf3k2m9x0000000000'],
  run: (ctx, args) => forgetIds(ctx, needPositionals(args, forgetSpec), { json: args.json }),
};

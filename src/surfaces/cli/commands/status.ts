/**
 * `engram status [--json]`: is capture healthy? Worker, queue, parked failures, counts, last capture.
 */
import { status } from '../../../app/health.ts';
import { runtimeHealthDeps } from '../health-deps.ts';
import { statusText } from '../../status-text.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import type { CommandSpec } from '../registry.ts';

export function statusCommand(ctx: CliContext, flags: { json: boolean }): number {
  const deps = runtimeHealthDeps(ctx.runtime, { cwd: ctx.cwd, now: ctx.now(), markHookLog: true });
  const report = withStore(ctx, (store) => status({ ...deps, store }));
  if (flags.json) printJson(ctx, report);
  else ctx.io.out(statusText(report, ctx.runtime.paths, ctx.now()));
  return 0;
}

export const statusSpec: CommandSpec = {
  name: 'status',
  group: 'Health and plumbing',
  summary: 'is capture healthy? worker, queue, parked turns, config problems, counts, last capture',
  usage: '',
  flags: {},
  examples: ['engram status', 'engram status --json'],
  run: (ctx, args) => statusCommand(ctx, { json: args.json }),
};

/**
 * `engram review`: the memories held in quarantine (instruction-like text from below the user's trust:
 * never injected, never standing, never pushed to the team) — list them, approve them (a person lets
 * them through) or reject them (invalidated, restorable). Every decision goes through the mutation
 * path with origin `cli`, so it is in the change log.
 */
import { decide as decideAll, heldMemories } from '../../../app/review.ts';
import { EngramError } from '../../../core/errors.ts';
import type { Observation } from '../../../core/model.ts';
import { TRUST_LABELS } from '../../../core/trust.ts';
import { formatAge } from '../../../recall/render-context.ts';
import { memoryJson } from '../../memory-json.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { intFlag, stringFlag, type CommandSpec } from '../registry.ts';

function listHeld(ctx: CliContext, limit: number, json: boolean): number {
  const { held: list, total } = withStore(ctx, (store) => heldMemories(store, limit));
  const held = { list, total };
  if (json) {
    printJson(ctx, { total: held.total, held: held.list.map(memoryJson) });
    return 0;
  }
  if (held.list.length === 0) {
    ctx.io.out('nothing is quarantined\n');
    return 0;
  }
  const now = ctx.now();
  const block = (o: Observation) =>
    [
      `${o.id} [${o.type}] ${o.title}`,
      `  from ${TRUST_LABELS[o.trust]} · ${o.source} · ${formatAge(now - o.createdAt)}${o.pinned ? ' · would be standing' : ''}`,
      `  held: ${o.reviewReason ?? 'instruction-like text'}`,
    ].join('\n');
  ctx.io.out(
    `${held.total} quarantined (never injected, standing or pushed until approved):\n\n${held.list.map(block).join('\n\n')}\n\n` +
      'Approve: engram review approve <id…> · reject: engram review reject <id…> [--reason TEXT] · read in full: engram show <id>\n',
  );
  return 0;
}

function decide(
  ctx: CliContext,
  verb: 'approve' | 'reject',
  ids: string[],
  reason: string,
  json: boolean,
): number {
  if (ids.length === 0)
    throw new EngramError('INPUT_INVALID', `usage: engram review ${verb} <id…>`, {
      hint: '"engram review" lists the quarantined memories and their ids.',
    });
  const actor = ctx.runtime.env['USER'] || ctx.runtime.env['USERNAME'] || null;
  const r = withStore(ctx, (store) =>
    decideAll(store, verb, ids, reason, { origin: 'cli', actor, at: ctx.now() }),
  );
  const results = ids.map((id) => ({
    id,
    outcome: r.missing.includes(id) ? 'missing' : r.done.includes(id) ? 'done' : 'not held',
  }));
  const of = (o: string) => results.filter((x) => x.outcome === o).map((x) => x.id);
  if (json)
    printJson(ctx, {
      [verb === 'approve' ? 'approved' : 'rejected']: of('done'),
      notHeld: of('not held'),
      missing: of('missing'),
      teamAudit: r.shared,
    });
  else
    for (const r of results)
      ctx.io.out(
        r.outcome === 'missing'
          ? `no memory with id ${r.id}\n`
          : r.outcome === 'done'
            ? `${verb === 'approve' ? 'approved' : 'rejected'} ${r.id}\n`
            : `${r.id} is not quarantined\n`,
      );
  if (!json && r.shared.length > 0)
    ctx.io.out(
      `shared with a team: ${r.shared.join(', ')} (the decision goes to the team's audit log at the next sync)\n`,
    );
  return of('missing').length > 0 ? 1 : 0;
}

export const reviewSpec: CommandSpec = {
  name: 'review',
  group: 'Memory',
  summary: 'quarantined memories (instruction-like text not from you): list, approve or reject them',
  usage: '[approve|reject <id…>]',
  details:
    'A memory whose text addresses the agent or your tools (run, fetch, send, install, disable, ignore instructions, change permissions, hidden or encoded text) and comes from below your own words (the repository, tool output, a web page, a dependency, a teammate) is held: never injected, never standing, never pushed to the team. Approving lets it through; rejecting invalidates it (engram restore brings it back). Both are in the change log and, for a project shared with a team, in the team’s audit log (under your name on the server). A teammate’s approval does not release a memory on your machine: what you pull from the team is screened here and waits for your own review.',
  flags: {
    reason: {
      type: 'string',
      value: 'TEXT',
      description: 'why it is rejected (kept as the memory’s status reason)',
    },
    limit: { type: 'string', value: 'N', description: 'how many to list (default 50)' },
  },
  examples: [
    'engram review',
    'engram review approve obs_01jf3k2m9x0000000000',
    'engram review reject obs_01jf3k2m9x0000000000 --reason "planted by a web page"',
  ],
  run: (ctx, args) => {
    const [verb, ...ids] = args.positionals;
    if (verb === undefined || verb === 'list')
      return listHeld(ctx, intFlag(args, 'limit', 50, { min: 1, max: 1000 }), args.json);
    if (verb === 'approve' || verb === 'reject')
      return decide(ctx, verb, ids, stringFlag(args, 'reason') ?? '', args.json);
    throw new EngramError('INPUT_INVALID', `unknown review action "${verb}"`, {
      hint: 'Use "engram review", "engram review approve <id…>" or "engram review reject <id…>".',
    });
  },
};

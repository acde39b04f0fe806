/**
 * The change log and a memory's versions: `engram changes`, `engram history <id>`, `engram restore <id>`.
 */
import { restore } from '../../../app/corrections.ts';
import { history } from '../../../app/history.ts';
import type { MemorySnapshot } from '../../../core/model.ts';
import { formatAge } from '../../../recall/render-context.ts';
import { memoryJson } from '../../memory-json.ts';
import { printJson, withStore } from '../context.ts';
import { intFlag, needPositionals, stringFlag, type CommandSpec } from '../registry.ts';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const changesSpec: CommandSpec = {
  name: 'changes',
  group: 'Memory',
  summary: 'the change log: every change to memories, summaries and links, in order',
  usage: '[--since SEQ] [--limit N] [--project ID]',
  details:
    'Each row has a sequence number; "--since SEQ" continues after it, so the log can be read as a cursor (the vault, the viewer and team sync do).',
  flags: {
    since: {
      type: 'string',
      value: 'SEQ',
      description: 'only changes after this sequence number (default 0)',
    },
    limit: {
      type: 'string',
      value: 'N',
      description:
        'how many rows of the log (1–10000, default 100; a row of edges added together lists each)',
    },
    project: { type: 'string', value: 'ID', description: 'only this project (its prj_… id)' },
  },
  examples: ['engram changes', 'engram changes --since 120 --json'],
  run: (ctx, args) => {
    const since = intFlag(args, 'since', 0, { min: 0, max: Number.MAX_SAFE_INTEGER });
    const limit = intFlag(args, 'limit', 100, { min: 1, max: 10_000 });
    const project = stringFlag(args, 'project');
    const { changes, last } = withStore(ctx, (store) => ({
      changes: store.changes.since(since, limit, project),
      last: store.changes.lastSeq(),
    }));
    const next = changes[changes.length - 1]?.seq ?? since;
    if (args.json) {
      printJson(ctx, { since, next, more: next < last && changes.length >= limit, changes });
      return 0;
    }
    if (changes.length === 0) {
      ctx.io.out(`no changes after #${since}\n`);
      return 0;
    }
    for (const c of changes)
      ctx.io.out(
        `#${c.seq} ${iso(c.at)} ${c.entity} ${c.entityId} ${c.op}${c.version !== null ? ` v${c.version}` : ''} (${c.origin}${c.actor ? ` ${c.actor}` : ''})\n`,
      );
    if (next < last && changes.length >= limit) ctx.io.out(`… more: engram changes --since ${next}\n`);
    return 0;
  },
};

function describe(s: MemorySnapshot): string {
  const status = s.status === 'active' ? '' : ` (${s.status}${s.statusReason ? `: ${s.statusReason}` : ''})`;
  return `[${s.type}] ${s.title}${status}${s.pinned ? ' · pinned' : ''}`;
}

export const historySpec: CommandSpec = {
  name: 'history',
  group: 'Memory',
  summary: 'a memory’s versions, newest first, and what changed each',
  usage: '<id>',
  flags: {},
  examples: ['engram history obs_01jf3k2m9x0000000000'],
  run: (ctx, args) => {
    const id = needPositionals(args, historySpec)[0] as string;
    const h = withStore(ctx, (store) => history(store, id));
    if (args.json) {
      printJson(ctx, { ...h, current: memoryJson(h.current) });
      return 0;
    }
    const { current, versions } = h;
    const now = ctx.now();
    ctx.io.out(
      `${id} v${current.version} (current, changed ${formatAge(now - current.modifiedAt)}): ${describe(current)}\n`,
    );
    for (const v of versions)
      ctx.io.out(
        `  v${v.version}: ${describe(v.snapshot)} — replaced by ${v.replacedByOp} (${v.origin}) ${formatAge(now - v.replacedAt)}\n`,
      );
    if (versions.length > 0) ctx.io.out(`undo the last change with: engram restore ${id}\n`);
    else ctx.io.out('no earlier versions\n');
    return 0;
  },
};

export const restoreSpec: CommandSpec = {
  name: 'restore',
  group: 'Memory',
  summary: 'undo the last change to a memory (an edit, invalidate, archive, supersede, pin)',
  usage: '<id>',
  details: 'The memory goes back to its previous version, as a new version: a restore can itself be undone.',
  flags: {},
  examples: ['engram restore obs_01jf3k2m9x0000000000'],
  run: (ctx, args) => {
    const id = needPositionals(args, restoreSpec)[0] as string;
    const { memory: restored } = withStore(ctx, (store) =>
      restore(store, id, { origin: 'cli', at: ctx.now() }),
    );
    if (args.json) printJson(ctx, memoryJson(restored));
    else ctx.io.out(`restored ${id} (now v${restored.version}): ${describe(restored)}\n`);
    return 0;
  },
};

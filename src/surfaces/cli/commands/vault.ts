/**
 * `engram vault export | sync | conflicts`: an Obsidian vault kept in step with the store, both ways.
 */
import { isAbsolute, resolve } from 'node:path';
import { EngramError } from '../../../core/errors.ts';
import { prepareVaultDir, requireVault } from '../../../graph/vault-dir.ts';
import { projectsOfScope } from '../../../graph/vault-scope.ts';
import { syncVault, type VaultSyncReport } from '../../../graph/vault-sync.ts';
import type { VaultScope } from '../../../store/vault-repo.ts';
import { catchUpGraph } from '../../../worker/graph-pass.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec } from '../registry.ts';
import { CWD_FLAG, projectOf, PROJECT_FLAG } from './memory.ts';

export interface VaultFlags {
  json: boolean;
  dir?: string;
  /** The project chosen (--project, --cwd, or here), or null for --all. */
  project: () => string | null;
  /** --project or --cwd was given (sync keeps the vault's recorded projects otherwise). */
  projectGiven: boolean;
  show?: string;
  resolve?: string;
  /** sync: start a new vault in a folder that is not one yet. */
  init?: boolean;
}

/** --dir, else vault.dir, else $ENGRAM_HOME/vault. */
function vaultDir(ctx: CliContext, flags: VaultFlags): string {
  const chosen = flags.dir ?? (ctx.runtime.config['vault.dir'] || ctx.runtime.paths.vaultDir);
  return isAbsolute(chosen) ? resolve(chosen) : resolve(ctx.cwd, chosen);
}

function summary(r: VaultSyncReport, verb: string): string {
  if (r.quiet) return `nothing changed since the last sync of ${r.dir}\n`;
  const parts = [
    `${verb} ${r.dir}: ${r.notes} notes, ${r.links} links; wrote ${r.written} files (${r.created} new notes)`,
    `${r.ingested} edits and ${r.handWritten} new notes brought back, ${r.archived} memories archived (notes deleted in the vault)`,
    `${r.removed} notes removed, ${r.renamed} moved, ${r.conflicts} conflicts kept as revisions, ${r.busy} left for the next sync (edited meanwhile)`,
  ];
  const lines = [`${parts.join('; ')} in ${r.ms} ms`];
  for (const f of r.flagged) lines.push(`flagged ${f.path}: ${f.reason}`);
  for (const n of r.notices) lines.push(`note ${n.path}: ${n.message}`);
  return `${lines.join('\n')}\n`;
}

function run(
  ctx: CliContext,
  flags: VaultFlags,
  action: 'export' | 'sync',
  scopeOf: (known: VaultScope | null) => VaultScope,
) {
  const dir = vaultDir(ctx, flags);
  // Where it may be is checked before any work (a bad path exits 2 at once).
  if (action === 'export' || flags.init) prepareVaultDir(dir);
  return withStore(ctx, (store) => {
    if (action === 'sync' && !flags.init) requireVault(store, dir);
    catchUpGraph(store, ctx.runtime.config, ctx.now());
    const scope = scopeOf(store.vaults.get(dir)?.scope ?? null);
    store.vaults.put(dir, scope);
    return syncVault(store, { dir, projects: projectsOfScope(store, scope), now: () => Date.now() });
  });
}

export function vaultCommand(ctx: CliContext, action: string, flags: VaultFlags): number {
  switch (action) {
    case 'export': {
      const report = run(ctx, flags, 'export', () => {
        const project = flags.project();
        return project === null ? 'all' : [project];
      });
      if (flags.json) printJson(ctx, report);
      else
        ctx.io.out(
          `${summary(report, 'exported to')}open it in Obsidian: "Open folder as vault" → ${report.dir}\n`,
        );
      return report.flagged.length > 0 ? 1 : 0;
    }
    case 'sync': {
      const report = run(ctx, flags, 'sync', (known) => {
        if (known !== null && !flags.projectGiven) return known;
        const project = flags.project();
        return project === null ? 'all' : [project];
      });
      if (flags.json) printJson(ctx, report);
      else ctx.io.out(summary(report, 'synced'));
      return report.flagged.length > 0 ? 1 : 0;
    }
    case 'conflicts':
      return conflictsCommand(ctx, flags);
    default:
      throw new EngramError('INPUT_INVALID', `unknown vault action "${action}"`, {
        hint: 'Use: engram vault export | sync | conflicts',
      });
  }
}

function conflictsCommand(ctx: CliContext, flags: VaultFlags): number {
  const dir = vaultDir(ctx, flags);
  const pick = (text: string | undefined, flag: string) => {
    const n = Number.parseInt(text ?? '', 10);
    if (!Number.isInteger(n) || n < 1)
      throw new EngramError('INPUT_INVALID', `${flag} takes a conflict number`);
    return n;
  };
  return withStore(ctx, (store) => {
    if (flags.resolve !== undefined) {
      const id = pick(flags.resolve, '--resolve');
      if (!store.vaults.resolveRevision(dir, id, ctx.now()))
        throw new EngramError('NOT_FOUND', `no open conflict #${id} in ${dir}`);
      ctx.io.out(`conflict #${id} marked resolved\n`);
      return 0;
    }
    const open = store.vaults.openRevisions(dir);
    if (flags.show !== undefined) {
      const id = pick(flags.show, '--show');
      const r = open.find((c) => c.id === id);
      if (!r) throw new EngramError('NOT_FOUND', `no open conflict #${id} in ${dir}`);
      ctx.io.out(r.storeText);
      return 0;
    }
    if (flags.json) {
      printJson(ctx, {
        dir,
        conflicts: open.map((r) => ({
          id: r.id,
          nodeId: r.nodeId,
          path: r.path,
          at: r.at,
          storeText: r.storeText,
        })),
      });
      return 0;
    }
    if (open.length === 0) {
      ctx.io.out(`no open conflicts in ${dir}\n`);
      return 0;
    }
    ctx.io.out(
      `${open.length} conflicts (the vault's text was kept; engram's version is kept here):\n${open
        .map((r) => `#${r.id} ${r.path} (${r.nodeId}) · ${new Date(r.at).toISOString().slice(0, 16)}`)
        .join('\n')}\n"engram vault conflicts --show N" prints engram's version; "--resolve N" closes it.\n`,
    );
    return 0;
  });
}

// ---- command spec --------------------------------------------------------------------------------

export const vaultSpec: CommandSpec = {
  name: 'vault',
  group: 'Graph',
  summary: 'an Obsidian vault of the memory graph, kept in step both ways (export | sync | conflicts)',
  usage: 'export|sync|conflicts [--dir D] [--project P | --all] [--init] [--show N] [--resolve N]',
  details:
    'export writes a vault: per project a folder with decisions/, discoveries/, errors/, files/, sessions/, tasks/… , an index.md and a graph.json; one note per node (frontmatter id, type, status, dates, tags; typed links as inline fields). sync brings it up to date both ways: edits made in Obsidian come back as memory edits, a deleted note archives its memory, a note written by hand with a type becomes a memory; both sides changed → merged (the human wins on their keys and lines; engram\u2019s version is kept as a conflict revision). The folder: --dir, else vault.dir, else $ENGRAM_HOME/vault. sync needs a folder that already is a vault (exported to before); --init starts a new one. A path that cannot be a folder exits 2 before any work.',
  flags: {
    dir: { type: 'string', value: 'D', description: 'the vault folder' },
    all: { type: 'boolean', description: 'every project (export / sync)' },
    init: { type: 'boolean', description: 'sync: start a new vault in a folder that is not one yet' },
    show: { type: 'string', value: 'N', description: "conflicts: print engram's version of conflict N" },
    resolve: { type: 'string', value: 'N', description: 'conflicts: mark conflict N resolved' },
    cwd: CWD_FLAG,
    project: PROJECT_FLAG,
  },
  examples: [
    'engram vault export --dir ~/vaults/engram --all',
    'engram vault sync --dir ~/vaults/engram',
    'engram vault conflicts --dir ~/vaults/engram',
  ],
  run: (ctx, args) =>
    vaultCommand(ctx, args.positionals[0] ?? 'sync', {
      json: args.json,
      ...(stringFlag(args, 'dir') ? { dir: stringFlag(args, 'dir') as string } : {}),
      project: () => (boolFlag(args, 'all') ? null : projectOf(ctx, args).id),
      projectGiven:
        boolFlag(args, 'all') || args.values['project'] !== undefined || args.values['cwd'] !== undefined,
      ...(stringFlag(args, 'show') ? { show: stringFlag(args, 'show') as string } : {}),
      ...(stringFlag(args, 'resolve') ? { resolve: stringFlag(args, 'resolve') as string } : {}),
      init: boolFlag(args, 'init'),
    }),
};

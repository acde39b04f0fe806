/**
 * `engram project [show|link|unlink|move|merge]`: which project a directory belongs to, confirming (or
 * withdrawing) a repository's `.engram.json` request to share another project's memory, and moving or
 * merging an old project's memory into it (`project-move.ts`).
 */
import { resolveProjectIdentity, withProjectId } from '../../../capture/project-identity.ts';
import { EngramError } from '../../../core/errors.ts';
import { readProjectLinks, writeProjectLink } from '../../../store/project-links.ts';
import { ensureHome } from '../../runtime.ts';
import { printJson } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec } from '../registry.ts';
import { dirFlag } from './memory.ts';
import { projectMoveCommand } from './project-move.ts';

const ACTIONS = ['show', 'link', 'unlink', 'move', 'merge'];

export const projectSpec: CommandSpec = {
  name: 'project',
  group: 'Set-up',
  summary: 'which project a directory is; confirm a .engram.json link; move or merge a project’s memory',
  usage:
    '[show|link|unlink] [--cwd DIR] | move|merge [--from PROJECT] [--to PROJECT] [--dry-run] [--cwd DIR]',
  details:
    'A repository may ask, in a committed .engram.json ({"project": "name"}), to share the memory of project "name". ' +
    'Since anyone can commit that file, engram keeps the repository\u2019s own identity until you confirm it once ' +
    'with "engram project link" (withdraw with "engram project unlink"). Your own "git config engram.project" needs no confirmation. ' +
    'After a rename ("git config engram.project <name>") or a changed remote, the repository is a new project: ' +
    '"engram project move" brings the old project\u2019s memories, summaries, sessions, links, anchors, vault notes ' +
    'and team sharing into it (the old one is found by sharing this root, or named with --from, by id or name); ' +
    '"engram project merge" does the same into a project that already holds memories (the same memory in both ' +
    'becomes one). --dry-run shows what would move and changes nothing.',
  flags: {
    cwd: { type: 'string', value: 'DIR', description: 'the directory (default: here)' },
    from: { type: 'string', value: 'PROJECT', description: 'move/merge: the old project (id or name)' },
    to: {
      type: 'string',
      value: 'PROJECT',
      description: 'move/merge: the project to move into (id or name; default: this directory\u2019s)',
    },
    'dry-run': { type: 'boolean', description: 'move/merge: show what would move; change nothing' },
  },
  examples: [
    'engram project',
    'engram project link',
    'engram project unlink --cwd ~/code/shop',
    'engram project move --dry-run',
    'engram project merge --from prj_0123456789abcdef',
  ],
  run: (ctx, args) => {
    const action = args.positionals[0] ?? 'show';
    if (!ACTIONS.includes(action))
      throw new EngramError('INPUT_INVALID', `unknown project action "${action}"`, {
        hint: 'Use: engram project show | link | unlink | move | merge',
      });
    const dir = dirFlag(ctx, args);
    if (action === 'move' || action === 'merge')
      return projectMoveCommand(ctx, {
        action,
        dir,
        from: stringFlag(args, 'from'),
        to: stringFlag(args, 'to'),
        dryRun: boolFlag(args, 'dry-run'),
        json: args.json,
      });
    const paths = ctx.runtime.paths;
    const own = resolveProjectIdentity(dir);
    if (action === 'link' || action === 'unlink') {
      const requested = own.pendingLink;
      if (action === 'link' && requested === undefined)
        throw new EngramError(
          'INPUT_INVALID',
          `${own.root} has no .engram.json asking to join another project`,
          {
            hint: 'Nothing to confirm; "git config engram.project <name>" renames a repository\u2019s project.',
          },
        );
      ensureHome(paths);
      writeProjectLink(paths.projectLinks, own.key, action === 'link' ? (requested as string) : null);
    }
    const links = readProjectLinks(paths.projectLinks);
    const current = withProjectId(resolveProjectIdentity(dir, () => links));
    const report = {
      name: current.name,
      id: current.id,
      key: current.key,
      root: current.root,
      ownKey: own.key,
      linked: current.key !== own.key && links[own.key] !== undefined,
      pendingLink: current.pendingLink ?? null,
    };
    if (args.json) {
      printJson(ctx, report);
      return 0;
    }
    ctx.io.out(`project ${report.name} (${report.id})\n  root: ${report.root}\n  identity: ${report.key}\n`);
    if (report.linked)
      ctx.io.out(`  joined through .engram.json (confirmed); undo with "engram project unlink"\n`);
    if (report.pendingLink)
      ctx.io.out(
        `  .engram.json asks to share the memory of project "${report.pendingLink}": not confirmed, so this repository keeps its own.\n` +
          '  Confirm with "engram project link" if you trust it.\n',
      );
    return 0;
  },
};

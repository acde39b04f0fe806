/**
 * The `engram` command line (bundled to dist/cli.mjs). Parses arguments, dispatches to a command,
 * and maps errors to exit codes: 2 for bad usage or config, 1 for anything else that failed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { describeError, EngramError, type ErrorCode } from '../../core/errors.ts';
import { OBSERVATION_TYPES, type ObservationType } from '../../core/model.ts';
import { loadRuntime } from '../runtime.ts';
import { backfillCommand } from './commands/backfill.ts';
import { configCommand } from './commands/config.ts';
import { demoCommand } from './commands/demo.ts';
import { installCommand, uninstallCommand } from './commands/install.ts';
import {
  contextCommand,
  forgetCommand,
  searchCommand,
  showCommand,
  timelineCommand,
} from './commands/memory.ts';
import { metricsCommand } from './commands/metrics.ts';
import { statusCommand } from './commands/status.ts';
import { flushCommand, workerCommand } from './commands/worker.ts';
import type * as McpEntryModule from '../mcp/main.ts';
import { createCliContext, type CliIo } from './context.ts';

type McpEntry = typeof McpEntryModule;

export const USAGE = `engram — persistent memory for AI coding agents

Usage: engram <command> [options]

Set-up
  install [--settings PATH] [--backfill]
                                  add engram's hooks to Claude Code (~/.claude/settings.json), with a backup;
                                  --backfill also reads your earlier sessions' transcripts
  uninstall [--settings PATH]     take them out again, restoring the file
  demo                            replay a sample session in a throw-away home and show what engram remembers

Memory
  context [--cwd DIR] [--source startup|resume|clear|compact]
                                  print exactly what a new session in DIR would be told
  backfill [--from DIR] [--since DATE|Nd] [--project PATH] [--dry-run]
                                  read existing Claude Code transcripts (~/.claude/projects) into memory
  search <words…> [--all] [--limit N] [--type T] [--hidden]
                                  find memories (this project; --all for every project; "a phrase", prefix*;
                                  --type decision,bugfix…; --hidden adds superseded/invalidated ones)
  timeline <id|date> [--before N] [--after N]
                                  what happened around a memory or a date (2026-11-20, 2026-11-20T14:00)
  show <id…>                      a memory in full
  forget <id…>                    erase a memory's content for good

Health and plumbing
  status                          worker, queue, parked failures, counts, last capture per project
  metrics                         token usage and cost (per session, project, model, day), capture health
  flush                           distil everything pending now, in the foreground
  worker start|stop|status|run    the background worker (hooks start it on their own)
  config list|get|set|unset       settings (also ENGRAM_* environment variables)
  hook                            handle one Claude Code hook payload on stdin (used by the hooks)
  mcp                             the MCP server on stdio (search, timeline, get_observations, …; registered by install)

Most commands take --json for stable machine-readable output. Data lives in $ENGRAM_HOME (default ~/.engram).
`;

/** "--type decision,bugfix" → the types, each checked. */
function parseTypes(text: string | undefined): ObservationType[] {
  if (text === undefined) return [];
  const types = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of types) {
    if (!(OBSERVATION_TYPES as readonly string[]).includes(t))
      throw new EngramError('INPUT_INVALID', `unknown memory type "${t}"`, {
        hint: `Use one of: ${OBSERVATION_TYPES.join(', ')}.`,
      });
  }
  return types as ObservationType[];
}

function count(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number.parseInt(text, 10);
  if (!Number.isInteger(n) || n < 0 || n > 50 || String(n) !== text.trim())
    throw new EngramError('INPUT_INVALID', `${flag} takes a whole number from 0 to 50`);
  return n;
}

const EXIT_CODES: Partial<Record<ErrorCode, number>> = {
  INPUT_INVALID: 2,
  CONFIG_INVALID: 2,
  CONFIG_UNKNOWN_KEY: 2,
};

export async function runCli(
  argv: string[],
  io: CliIo,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  const command = argv[0];
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === 'version') {
    io.out('engram 0.1.0\n');
    return 0;
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv.slice(1),
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        limit: { type: 'string' },
        type: { type: 'string' },
        hidden: { type: 'boolean', default: false },
        before: { type: 'string' },
        after: { type: 'string' },
        cwd: { type: 'string' },
        source: { type: 'string' },
        session: { type: 'string' },
        settings: { type: 'string' },
        from: { type: 'string' },
        since: { type: 'string' },
        project: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        backfill: { type: 'boolean', default: false },
      },
    });
    const ctx = createCliContext(loadRuntime(env), io, cwd);
    const json = values.json === true;
    const dir = values.cwd ?? cwd;
    const limit = values.limit === undefined ? 10 : Number.parseInt(values.limit, 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new EngramError('INPUT_INVALID', '--limit takes a whole number from 1 to 1000');
    }
    const needArgs = (what: string) => {
      if (positionals.length === 0)
        throw new EngramError('INPUT_INVALID', `usage: engram ${command} ${what}`);
    };
    switch (command) {
      case 'install':
        return await installCommand(ctx, {
          json,
          backfill: values.backfill === true,
          ...(values.settings ? { settings: values.settings } : {}),
        });
      case 'uninstall':
        return uninstallCommand(ctx, { json, ...(values.settings ? { settings: values.settings } : {}) });
      case 'status':
        return statusCommand(ctx, { json });
      case 'search':
        needArgs('<words…>');
        return await searchCommand(ctx, positionals.join(' '), {
          json,
          all: values.all === true,
          limit,
          cwd: dir,
          types: parseTypes(values.type),
          hidden: values.hidden === true,
        });
      case 'timeline':
        needArgs('<id|date>');
        return timelineCommand(ctx, positionals[0] as string, {
          json,
          cwd: dir,
          before: count(values.before, 5, '--before'),
          after: count(values.after, 5, '--after'),
        });
      case 'show':
        needArgs('<id…>');
        return showCommand(ctx, positionals, { json });
      case 'forget':
        needArgs('<id…>');
        return forgetCommand(ctx, positionals, { json });
      case 'context':
        return contextCommand(ctx, {
          json,
          cwd: dir,
          source: values.source ?? 'startup',
          session: values.session ?? 'cli',
        });
      case 'flush':
        return await flushCommand(ctx, { json });
      case 'worker':
        return await workerCommand(ctx, positionals[0] ?? 'status', { json });
      case 'config':
        return configCommand(ctx, positionals[0] ?? 'list', positionals.slice(1), { json });
      case 'backfill':
        return await backfillCommand(ctx, {
          json,
          dryRun: values['dry-run'] === true,
          ...(values.from ? { from: values.from } : {}),
          ...(values.since ? { since: values.since } : {}),
          ...(values.project ? { project: values.project } : {}),
        });
      case 'metrics':
        return metricsCommand(ctx, { json });
      case 'mcp': {
        // Loaded only here: the MCP SDK is not needed by any other command.
        const entry = pathToFileURL(join(ctx.distDir, 'mcp.mjs')).href;
        const { runMcpServer } = (await import(entry)) as McpEntry;
        await runMcpServer(ctx.runtime, dir);
        return 0;
      }
      case 'demo':
        return await demoCommand(ctx, { json, keep: values.keep === true });
      default:
        throw new EngramError('INPUT_INVALID', `unknown command "${command}"`, {
          hint: 'Run "engram help".',
        });
    }
  } catch (error) {
    const code = error instanceof EngramError ? error.code : (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      io.err(`engram: ${(error as Error).message}\nRun "engram help" for usage.\n`);
      return 2;
    }
    io.err(`engram: ${error instanceof EngramError ? error.message : describeError(error)}\n`);
    if (error instanceof EngramError && error.hint) io.err(`  ${error.hint}\n`);
    return error instanceof EngramError ? (EXIT_CODES[error.code] ?? 1) : 1;
  }
}

/** Run the CLI with this process's arguments, streams and environment. */
export async function main(): Promise<void> {
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
  };
  process.exitCode = await runCli(process.argv.slice(2), io, process.env, process.cwd());
}

if (process.argv[1] && /cli\.(mjs|ts)$/.test(process.argv[1])) void main();

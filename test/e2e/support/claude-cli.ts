/**
 * The real Claude Code CLI as a test client: a pinned version installed into a cache outside the repo,
 * run offline against a loopback mock, from an environment built from scratch with a temporary HOME.
 * Never touches the real ~/.claude.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLAUDE_CODE_VERSION = '2.1.330';

/** Where pinned CLIs are cached: `$ENGRAM_TEST_CACHE` or `~/.cache/engram-test`. */
export function claudeCacheRoot(): string {
  return process.env['ENGRAM_TEST_CACHE'] || join(homedir(), '.cache', 'engram-test');
}

/** The install directory of the pinned version. */
export function claudeCliDir(root = claudeCacheRoot()): string {
  return join(root, `claude-code-${CLAUDE_CODE_VERSION}`);
}

const binIn = (dir: string) => join(dir, 'node_modules', '.bin', 'claude');

/** A minimal environment for running `claude` outside a test run (e.g. `--version`). */
function bareEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TMPDIR: home, DISABLE_AUTOUPDATER: '1' };
}

/** Run a command; resolves with its output, rejects on a non-zero exit, a signal or the timeout. */
export function exec(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})\n${stderr.slice(-4000)}`),
        );
    });
  });
}

/** Does `bin` run and report the pinned version? (A stub or a half install does not.) */
async function works(bin: string): Promise<boolean> {
  if (!existsSync(bin)) return false;
  const home = await mkdtemp(join(tmpdir(), 'engram-claude-version-'));
  try {
    const { stdout } = await exec(bin, ['--version'], { env: bareEnv(home), timeoutMs: 30_000 });
    return stdout.includes(CLAUDE_CODE_VERSION);
  } catch {
    return false;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const LOCK_STALE_MS = 30 * 60_000;

/**
 * A cross-process lock: a directory created atomically with `mkdir`, holding the owner's pid. A lock whose
 * owner is gone (or older than 30 min) is broken.
 */
export async function withLock<T>(lock: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let stale = false;
    try {
      const owner = Number((await readFile(join(lock, 'pid'), 'utf8')).trim());
      stale = (owner > 0 && !alive(owner)) || Date.now() - (await stat(lock)).mtimeMs > LOCK_STALE_MS;
    } catch {
      // No pid file yet: the owner is between mkdir and writeFile, unless it died there.
      try {
        stale = Date.now() - (await stat(lock)).mtimeMs > 60_000;
      } catch {
        continue; // released meanwhile
      }
    }
    if (stale) {
      // Move it aside first, so two waiters cannot both break it and then both take it.
      const aside = `${lock}.stale-${process.pid}-${randomUUID()}`;
      try {
        await rename(lock, aside);
        await rm(aside, { recursive: true, force: true });
      } catch {
        // Someone else broke it first.
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${lock}`);
    await sleep(500);
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function install(root: string, finalDir: string): Promise<void> {
  const staging = await mkdtemp(join(root, `.claude-code-${CLAUDE_CODE_VERSION}-staging-`));
  try {
    await writeFile(
      join(staging, 'package.json'),
      JSON.stringify({ name: 'claude-code-cache', private: true }),
    );
    const { stdout, stderr } = await exec(
      'npm',
      ['install', '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`],
      { cwd: staging, env: process.env, timeoutMs: 15 * 60_000 },
    );
    await writeFile(join(staging, 'install.log'), stdout + stderr);
    // npm 11 skips dependencies' install scripts by default: link the native binary ourselves.
    await exec(
      process.execPath,
      [join(staging, 'node_modules', '@anthropic-ai', 'claude-code', 'install.cjs')],
      {
        cwd: staging,
        env: process.env,
        timeoutMs: 5 * 60_000,
      },
    );
    if (!(await works(binIn(staging))))
      throw new Error(`claude ${CLAUDE_CODE_VERSION} did not install into ${staging}`);
    // Only the lock holder gets here: clear a broken install, then publish the new one in one rename
    // (the bin symlink and the binary's hard link are relative to the directory, so they survive it).
    if (existsSync(finalDir)) {
      const aside = `${finalDir}.broken-${process.pid}-${Date.now()}`;
      await rename(finalDir, aside);
      await rm(aside, { recursive: true, force: true });
    }
    await rename(staging, finalDir);
    await chmod(finalDir, 0o755); // mkdtemp made it 0700
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const pending = new Map<string, Promise<string>>();

/**
 * Path of a working `claude` of the pinned version. Installs it into the cache when missing or broken
 * (about 364 MB from the npm registry); concurrent callers, in this process or others, share one install.
 */
export function ensureClaudeCli(): Promise<string> {
  const root = claudeCacheRoot();
  let p = pending.get(root);
  if (!p) {
    p = (async () => {
      const dir = claudeCliDir(root);
      if (await works(binIn(dir))) return binIn(dir);
      await mkdir(root, { recursive: true });
      await withLock(`${dir}.lock`, 20 * 60_000, async () => {
        if (!(await works(binIn(dir)))) await install(root, dir); // another caller may have done it
      });
      if (!(await works(binIn(dir))))
        throw new Error(`claude ${CLAUDE_CODE_VERSION} is not usable at ${dir}`);
      return binIn(dir);
    })();
    pending.set(root, p);
    p.catch(() => pending.delete(root)); // let a later call retry
  }
  return p;
}

/**
 * Synchronous check for an already cached CLI (no install): its path, or null. For callers that cannot
 * await, e.g. to skip a suite.
 */
export function cachedClaudeCli(): string | null {
  const bin = binIn(claudeCliDir());
  if (!existsSync(bin)) return null;
  const home = mkdtempSync(join(tmpdir(), 'engram-claude-version-'));
  try {
    const out = execFileSync(bin, ['--version'], { encoding: 'utf8', env: bareEnv(home), timeout: 30_000 });
    return out.includes(CLAUDE_CODE_VERSION) ? bin : null;
  } catch {
    return null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// Running

/** One line of `--output-format stream-json` output. */
export interface StreamMessage {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

export interface ClaudeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** True when the hard timeout killed the run. */
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The parsed stream-json lines (`{type:'unparsed', line}` for a line that is not JSON). */
  messages: StreamMessage[];
  /** The final `result` message, if the run got that far. */
  result: StreamMessage | undefined;
  /** The session id the run reported (init or result message), else the one passed in. */
  sessionId: string | undefined;
  /** The exact argv and environment used, for debugging. */
  args: string[];
  env: Record<string, string>;
}

export interface RunClaudeOptions {
  prompt: string;
  /** The project directory the CLI runs in. */
  cwd: string;
  /** A temporary HOME (settings, transcripts and `.claude.json` land there). */
  home: string;
  /** Base URL of the mock, e.g. `http://127.0.0.1:PORT`. */
  apiUrl: string;
  /** The `claude` binary; defaults to `ensureClaudeCli()`. */
  bin?: string | Promise<string>;
  /** TMPDIR for the run; default `<home>/tmp` (created). */
  tmpdir?: string;
  /**
   * `--session-id`. Default: a fresh UUID for a new session; none with `continue`/`resume` (the CLI refuses
   * it there unless `forkSession`).
   */
  sessionId?: string;
  /** `--continue`: continue the latest session of `cwd`. */
  continue?: boolean;
  /** `--resume <id>`. */
  resume?: string;
  /** `--fork-session` (with `continue`/`resume`). */
  forkSession?: boolean;
  /** `--allowedTools`; default Bash, Write, Edit, Read. */
  allowedTools?: string[];
  extraArgs?: string[];
  /** Extra environment (e.g. ENGRAM_HOME); applied over the clean base. */
  env?: Record<string, string>;
  /** Hard timeout; the run's process group is killed after it. Default 30 s. */
  timeoutMs?: number;
}

const DEFAULT_TOOLS = ['Bash', 'Write', 'Edit', 'Read'];

/** The environment a run gets, built from scratch: nothing of the parent's leaks in but PATH. */
export function claudeEnv(opts: {
  home: string;
  tmpdir: string;
  apiUrl: string;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: opts.home,
    TMPDIR: opts.tmpdir,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: opts.apiUrl,
    ANTHROPIC_API_KEY: 'test',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_MAX_RETRIES: '1',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    ...opts.env,
  };
}

function parseStream(stdout: string): StreamMessage[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      try {
        const m = JSON.parse(line) as unknown;
        return m && typeof m === 'object' ? (m as StreamMessage) : { type: 'unparsed', line };
      } catch {
        return { type: 'unparsed', line };
      }
    });
}

/**
 * `claude -p <prompt> --output-format stream-json --verbose --allowedTools …` in `cwd`, from a clean
 * environment, under a hard timeout. The CLI runs in its own process group, so the timeout also ends the
 * hooks and tool commands it started (and only those).
 */
export async function runClaude(opts: RunClaudeOptions): Promise<ClaudeRun> {
  const bin = await (opts.bin ?? ensureClaudeCli());
  const continuing = Boolean(
    opts.continue ||
    opts.resume ||
    opts.extraArgs?.some((a) => ['--continue', '-c', '--resume', '-r'].includes(a)),
  );
  if (continuing && opts.sessionId && !opts.forkSession)
    throw new Error('runClaude: sessionId with continue/resume needs forkSession: true (the CLI refuses it)');
  const sessionId = opts.sessionId ?? (continuing ? undefined : randomUUID());
  const tmp = opts.tmpdir ?? join(opts.home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env = claudeEnv({ home: opts.home, tmpdir: tmp, apiUrl: opts.apiUrl, env: opts.env });
  const args = [
    '-p',
    opts.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--allowedTools',
    (opts.allowedTools ?? DEFAULT_TOOLS).join(','),
    ...(sessionId ? ['--session-id', sessionId] : []),
    ...(opts.continue ? ['--continue'] : []),
    ...(opts.resume ? ['--resume', opts.resume] : []),
    ...(opts.forkSession ? ['--fork-session'] : []),
    ...(opts.extraArgs ?? []),
  ];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pid = child.pid;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal); // the group led by the CLI we started
      } catch {
        // already gone
      }
    };
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      hardKill = setTimeout(() => killGroup('SIGKILL'), 2_000);
    }, opts.timeoutMs ?? 30_000);
    let exitGrace: NodeJS.Timeout | undefined;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(exitGrace);
      if (timedOut) killGroup('SIGKILL');
      else clearTimeout(hardKill);
      child.stdout.destroy();
      child.stderr.destroy();
      const messages = parseStream(stdout);
      const result = [...messages].reverse().find((m) => m.type === 'result');
      const reported = messages.find((m) => typeof m.session_id === 'string')?.session_id;
      resolve({
        exitCode,
        signal,
        timedOut,
        durationMs: Date.now() - started,
        stdout,
        stderr,
        messages,
        result,
        sessionId: (result?.session_id as string | undefined) ?? reported ?? sessionId,
        args,
        env,
      });
    };
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    // 'close' waits for stdio; a background process that inherited the pipes could hold it open, so
    // after 'exit' give the pipes a moment to drain and finish anyway.
    child.on('exit', (code, signal) => {
      exitGrace = setTimeout(() => finish(code, signal), 2_000);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/**
 * A `claude` subcommand that needs no model (`plugin marketplace add …`, `plugin install …`), from the same
 * clean environment as a run; resolves with its output, rejects on failure or after the timeout.
 */
export async function claudeCommand(
  args: string[],
  opts: { bin: string; home: string; cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<{ stdout: string; stderr: string }> {
  const tmp = join(opts.home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  // No model is asked: an unroutable base URL makes sure nothing could be.
  const env = claudeEnv({ home: opts.home, tmpdir: tmp, apiUrl: 'http://127.0.0.1:9', env: opts.env });
  return exec(opts.bin, args, { cwd: opts.cwd, env, timeoutMs: opts.timeoutMs ?? 60_000 });
}

/** `~/.claude/projects/<slug>/<session>.jsonl` of a run (searched: the slug rules vary by version). */
export function findTranscript(home: string, sessionId: string): string | null {
  const projects = join(home, '.claude', 'projects');
  if (!existsSync(projects)) return null;
  for (const dir of readdirSync(projects)) {
    const file = join(projects, dir, `${sessionId}.jsonl`);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

/** The records of a transcript (lines that do not parse are skipped). */
export function readTranscript(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

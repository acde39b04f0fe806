/**
 * The real Claude Code CLI as a test client: a pinned version installed into a cache outside the repo,
 * run offline against a loopback mock, from a clean environment with a temporary HOME.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CLAUDE_CODE_VERSION = '2.1.330';

function cacheRoot(): string {
  return process.env['ENGRAM_TEST_CACHE'] || join(homedir(), '.cache', 'engram-test');
}

function works(bin: string): boolean {
  if (!existsSync(bin)) return false;
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 }).includes(
      CLAUDE_CODE_VERSION,
    );
  } catch {
    return false; // a stub or broken install: reinstall
  }
}

/** Path of a working `claude` of the pinned version; installs it into the cache when missing. */
export function ensureClaudeCli(): string {
  const finalDir = join(cacheRoot(), `claude-code-${CLAUDE_CODE_VERSION}`);
  const bin = (dir: string) => join(dir, 'node_modules', '.bin', 'claude');
  if (works(bin(finalDir))) return bin(finalDir);
  mkdirSync(cacheRoot(), { recursive: true });
  const staging = mkdtempSync(join(cacheRoot(), `.claude-code-${CLAUDE_CODE_VERSION}-`));
  try {
    writeFileSync(
      join(staging, 'package.json'),
      JSON.stringify({ name: 'claude-code-cache', private: true }),
    );
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      ],
      {
        cwd: staging,
        stdio: ['ignore', 'inherit', 'inherit'],
        timeout: 15 * 60_000,
      },
    );
    // npm 11 skips install scripts of dependencies by default: link the native binary ourselves.
    execFileSync(
      process.execPath,
      [join(staging, 'node_modules', '@anthropic-ai', 'claude-code', 'install.cjs')],
      {
        cwd: staging,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (!works(bin(staging)))
      throw new Error(`claude ${CLAUDE_CODE_VERSION} did not install into ${staging}`);
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(staging, finalDir); // atomic: a concurrent caller sees either nothing or a whole install
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!works(bin(finalDir))) throw new Error(`claude ${CLAUDE_CODE_VERSION} is not usable at ${finalDir}`);
  return bin(finalDir);
}

export interface ClaudeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  messages: Record<string, unknown>[];
}

export interface RunClaudeOptions {
  bin: string;
  prompt: string;
  cwd: string;
  home: string;
  apiUrl: string;
  sessionId?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Run `claude -p` from a clean environment (nothing inherited but PATH). */
export function runClaude(opts: RunClaudeOptions): Promise<ClaudeRun> {
  const tmp = join(opts.home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: opts.home,
    TMPDIR: tmp,
    ANTHROPIC_BASE_URL: opts.apiUrl,
    ANTHROPIC_API_KEY: 'test',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_MAX_RETRIES: '1',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    ...opts.env,
  };
  const args = [
    '-p',
    opts.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--allowedTools',
    'Bash,Write,Edit,Read',
    ...(opts.sessionId ? ['--session-id', opts.sessionId] : []),
    ...(opts.extraArgs ?? []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(opts.bin, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const messages = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => {
          try {
            return JSON.parse(l) as Record<string, unknown>;
          } catch {
            return { unparsed: l };
          }
        });
      resolve({ exitCode, stdout, stderr, messages });
    });
  });
}

/** The transcript Claude Code wrote for a session (searched: the folder naming varies by version). */
export function findTranscript(home: string, sessionId: string): string | null {
  const projects = join(home, '.claude', 'projects');
  if (!existsSync(projects)) return null;
  for (const dir of readdirSync(projects)) {
    const file = join(projects, dir, `${sessionId}.jsonl`);
    if (existsSync(file)) return file;
  }
  return null;
}

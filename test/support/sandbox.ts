/**
 * A throw-away world for black-box tests: temporary HOME and ENGRAM_HOME, project directories, and
 * helpers that run the real built hook and CLI as child processes. Never touches the real home.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HOOK_BUNDLE = join(REPO_ROOT, 'dist', 'hook.cjs');
export const CLI_BIN = join(REPO_ROOT, 'bin', 'engram');

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  root: string;
  home: string;
  engramHome: string;
  env: NodeJS.ProcessEnv;
  /** Create a project directory; with `remote`, a git repository whose origin is that URL. */
  project(name: string, remote?: string): string;
  hook(payload: unknown, opts?: { raw?: Buffer | string; cwd?: string }): RunResult;
  hookAsync(payload: unknown): Promise<RunResult>;
  /** The CLI; with `timeoutMs`, killed after that long (status null) instead of hanging the test. */
  engram(args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): RunResult;
  /** The CLI without blocking this process (a loopback server in the test must keep answering). */
  engramAsync(args: string[], opts?: { cwd?: string; input?: string }): Promise<RunResult>;
  cleanup(): void;
}

/** A clean environment: PATH only, plus temporary homes. No CLAUDE_* or ENGRAM_* leaks in. */
export function createSandbox(extraEnv: NodeJS.ProcessEnv = {}): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'engram-test-'));
  const home = join(root, 'home');
  const engramHome = join(root, 'engram-home');
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    ENGRAM_HOME: engramHome,
    ENGRAM_WORKER_AUTOSTART: 'false',
    ...extraEnv,
  };
  const run = (
    args: string[],
    input: Buffer | string | undefined,
    cwd: string,
    e = env,
    timeout?: number,
  ): RunResult => {
    const r = spawnSync(process.execPath, args, {
      input,
      cwd,
      env: e,
      maxBuffer: 256 * 1024 * 1024,
      ...(timeout ? { timeout } : {}),
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  const runAsync = (args: string[], cwd: string, input?: string): Promise<RunResult> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(input);
    });
  return {
    root,
    home,
    engramHome,
    env,
    project(name, remote) {
      const dir = join(root, 'projects', name);
      mkdirSync(dir, { recursive: true });
      if (remote) {
        mkdirSync(join(dir, '.git'), { recursive: true });
        writeFileSync(join(dir, '.git', 'config'), `[remote "origin"]\n\turl = ${remote}\n`);
      }
      return dir;
    },
    hook(payload, opts = {}) {
      const input = opts.raw ?? JSON.stringify(payload);
      return run([HOOK_BUNDLE], input, opts.cwd ?? root);
    },
    hookAsync(payload) {
      return runAsync([HOOK_BUNDLE], root, JSON.stringify(payload));
    },
    engram(args, opts = {}) {
      return run([CLI_BIN, ...args], undefined, opts.cwd ?? root, { ...env, ...opts.env }, opts.timeoutMs);
    },
    engramAsync(args, opts = {}) {
      return runAsync([CLI_BIN, ...args], opts.cwd ?? root, opts.input);
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Payload builders shaped like Claude Code 2.1's hook stdin. */
export function payloads(sessionId: string, cwd: string) {
  const base = { session_id: sessionId, transcript_path: `/tmp/none/${sessionId}.jsonl`, cwd };
  return {
    start: (source = 'startup') => ({ ...base, hook_event_name: 'SessionStart', source }),
    prompt: (prompt: string) => ({
      ...base,
      hook_event_name: 'UserPromptSubmit',
      permission_mode: 'default',
      prompt,
    }),
    tool: (tool_name: string, tool_input: unknown, tool_response: unknown) => ({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name,
      tool_input,
      tool_response,
      tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
      duration_ms: 12,
    }),
    failure: (tool_name: string, tool_input: unknown, error: string) => ({
      ...base,
      hook_event_name: 'PostToolUseFailure',
      tool_name,
      tool_input,
      error,
      is_interrupt: false,
      duration_ms: 20,
    }),
    stop: (last_assistant_message: string) => ({
      ...base,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message,
    }),
    end: (reason = 'other') => ({ ...base, hook_event_name: 'SessionEnd', reason }),
  };
}

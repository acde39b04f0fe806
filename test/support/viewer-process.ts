/**
 * The real `engram ui` (built CLI) as a child process in a sandbox: its first stdout line is the
 * one-time sign-in link; stopped by its pid with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { CLI_BIN, type Sandbox } from './sandbox.ts';

export interface ViewerProcess {
  /** The sign-in link (`http://127.0.0.1:<port>/auth/launch?token=…`). */
  url: string;
  origin: string;
  child: ChildProcess;
  stdout: string[];
  stop: () => Promise<number | null>;
}

export async function startViewerProcess(sb: Sandbox, env: NodeJS.ProcessEnv = {}): Promise<ViewerProcess> {
  const child = spawn(process.execPath, [CLI_BIN, 'ui', '--no-open', '--port', '0'], {
    cwd: sb.root,
    env: { ...sb.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      stdout.push(line);
      if (stdout.length === 1) resolve(line);
    });
    child.once('exit', (code) =>
      reject(new Error(`engram ui exited (${code}) before printing a URL: ${stderr}`)),
    );
  });
  return {
    url: first,
    origin: new URL(first).origin,
    child,
    stdout,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      process.kill(child.pid as number, 'SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

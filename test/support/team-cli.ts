/**
 * Team tests through the real CLI: `engram server start --db …` as a child process on a test
 * PostgreSQL, machines (sandboxes) with a real git project, turns captured through the real hooks.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { CLI_BIN, payloads, type Sandbox } from './sandbox.ts';
import type { TestPostgres } from './team-postgres.ts';

export interface CliTeamServer {
  url: string;
  /** Its database's connection string (for checks as the superuser). */
  db: string;
  adminToken: string;
  stop(): Promise<void>;
}

/** A child process printing JSON lines, until the line `msg` (its `url`, when it has one). */
export function waitForLine(child: ChildProcess, msg: string): Promise<string> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg: string; url?: string };
      if (entry.msg === msg) resolve(entry.url ?? '');
    });
  });
}

/** SIGTERM a child and wait until it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** `engram server start --db` on a fresh database of `pg`, with its bootstrap admin token. */
export async function startCliTeamServer(pg: TestPostgres): Promise<CliTeamServer> {
  const db = await pg.createDatabase();
  const dir = join(pg.dir, `server-${db.split('/').at(-1)}`);
  mkdirSync(dir, { recursive: true });
  const bootstrap = join(dir, 'bootstrap-token');
  const child = spawn(
    process.execPath,
    [CLI_BIN, 'server', 'start', '--db', db, '--port', '0', '--bootstrap-file', bootstrap],
    {
      env: { PATH: process.env['PATH'], HOME: dir, ENGRAM_HOME: join(dir, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await waitForLine(child, 'team server listening');
  return { url, db, adminToken: readFileSync(bootstrap, 'utf8').trim(), stop: () => stopChild(child) };
}

/** A git repository with `remote` as its origin and one commit, in the sandbox. */
export function gitProject(sb: Sandbox, name: string, remote: string): string {
  const dir = join(sb.root, 'projects', name);
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      env: sb.env,
      stdio: 'pipe',
    });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', remote);
  commitFile(sb, dir, 'README.md', '# shop\n');
  return dir;
}

/** Write a file and commit it; the new commit's short hash. */
export function commitFile(sb: Sandbox, dir: string, file: string, text: string): string {
  writeFileSync(join(dir, file), text);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      env: sb.env,
      encoding: 'utf8',
    });
  git('add', file);
  git('commit', '-q', '-m', `change ${file}`);
  return git('rev-parse', '--short', 'HEAD').trim();
}

/** One turn captured through the real hooks in `cwd`, distilled by `engram flush`. */
export async function captureTurn(
  sb: Sandbox,
  cwd: string,
  session: string,
  turn: { prompt: string; file: string; answer: string; end?: boolean },
): Promise<void> {
  const p = payloads(session, cwd);
  const calls = [
    p.start(),
    p.prompt(turn.prompt),
    p.tool('Edit', { file_path: `${cwd}/${turn.file}`, old_string: 'a', new_string: 'b' }, {}),
    p.stop(turn.answer),
    ...(turn.end === false ? [] : [p.end()]),
  ];
  for (const call of calls) {
    const r = await sb.hookAsync(call);
    if (r.status !== 0) throw new Error(`hook failed: ${r.stderr}`);
  }
  const flush = await sb.engramAsync(['flush']);
  if (flush.status !== 0) throw new Error(`flush failed: ${flush.stderr}`);
}

/** Rows of a machine's database (read-only), for checks the CLI does not print. */
export function rowsOf<T>(sb: Sandbox, sql: string, ...params: unknown[]): T[] {
  const sqlite = new Database(join(sb.engramHome, 'engram.db'), { readonly: true });
  try {
    return sqlite.prepare(sql).all(...params) as T[];
  } finally {
    sqlite.close();
  }
}

/** Wait for a condition (polled every 100 ms), at most `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

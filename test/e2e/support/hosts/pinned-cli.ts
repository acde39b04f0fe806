/**
 * The other hosts' CLIs as test clients: each a pinned npm package installed into the same cache as
 * Claude Code (`$ENGRAM_TEST_CACHE` or `~/.cache/engram-test`, never the repo, never global), one install
 * shared by concurrent callers through the same lock. `CI=true`, no stdin and root all work: npm is run
 * with `--no-audit --no-fund` and nothing asks a question.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCacheRoot, exec, withLock } from '../claude-cli.ts';

export interface PinnedCli {
  /** Directory name in the cache, e.g. `codex-0.171.0`. */
  name: string;
  version: string;
  /** npm specs installed together, the CLI first. */
  packages: string[];
  /** The command in `node_modules/.bin`. */
  bin: string;
  /** Extra step inside the staging directory after `npm install` (e.g. a seed for opencode). */
  after?: (staging: string, env: NodeJS.ProcessEnv) => Promise<void>;
}

export const CODEX: PinnedCli = {
  name: 'codex-0.171.0',
  version: '0.171.0',
  packages: ['@openai/codex@0.171.0'],
  bin: 'codex',
};

export const GEMINI: PinnedCli = {
  name: 'gemini-cli-0.61.0',
  version: '0.61.0',
  packages: ['@google/gemini-cli@0.61.0'],
  bin: 'gemini',
};

export const OPENCODE_PLUGIN_SEED = 'opencode-config-seed';

export const OPENCODE: PinnedCli = {
  name: 'opencode-1.18.33',
  version: '1.18.33',
  packages: ['opencode-ai@1.18.33'],
  bin: 'opencode',
  // opencode `npm install`s `@opencode-ai/plugin@<its version>` into every config directory it loads, at
  // every start (73 s of retries when the registry cannot be reached). A config directory that already
  // holds exactly that install is left alone: the seed is one, linked into each test's config directory.
  after: async (staging, env) => {
    const seed = join(staging, OPENCODE_PLUGIN_SEED);
    await mkdir(seed);
    await writeFile(
      join(seed, 'package.json'),
      JSON.stringify({ dependencies: { '@opencode-ai/plugin': '1.18.33' } }, null, 2),
    );
    await exec('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: seed,
      env,
      timeoutMs: 10 * 60_000,
    });
  },
};

export const COPILOT: PinnedCli = {
  name: 'copilot-1.0.102',
  version: '1.0.102',
  packages: ['@github/copilot@1.0.102'],
  bin: 'copilot',
};

export const cliDir = (cli: PinnedCli, root = claudeCacheRoot()) => join(root, cli.name);
export const binOf = (cli: PinnedCli, dir: string) => join(dir, 'node_modules', '.bin', cli.bin);

/** Does the CLI in `dir` run and report its pinned version? */
async function works(cli: PinnedCli, dir: string): Promise<boolean> {
  const bin = binOf(cli, dir);
  if (!existsSync(bin)) return false;
  const home = await mkdtemp(join(tmpdir(), `engram-${cli.bin}-version-`));
  try {
    // Every state directory inside the temporary home: opencode resolves its XDG directories from the
    // passwd entry, not from HOME, when XDG_* are unset.
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      CODEX_HOME: join(home, '.codex'),
      COPILOT_HOME: join(home, '.copilot'),
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_CACHE_HOME: join(dir, 'copilot-cache'),
    };
    const { stdout } = await exec(bin, ['--version'], { env, timeoutMs: 60_000 });
    return stdout.includes(cli.version);
  } catch {
    return false;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * npm's environment for an install: the user's npm settings and cache, but a temporary HOME and XDG
 * directories — installing `opencode-ai` creates opencode's state directories in the installer's home
 * (`~/.config/opencode`, `~/.local/share/opencode`, `~/.cache/opencode`; seen with npm 11).
 */
function npmEnv(home: string): NodeJS.ProcessEnv {
  const realHome = homedir();
  return {
    ...process.env,
    npm_config_userconfig: process.env['npm_config_userconfig'] ?? join(realHome, '.npmrc'),
    npm_config_cache: process.env['npm_config_cache'] ?? join(realHome, '.npm'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

async function install(cli: PinnedCli, root: string, finalDir: string): Promise<void> {
  const staging = await mkdtemp(join(root, `.${cli.name}-staging-`));
  const home = await mkdtemp(join(tmpdir(), `engram-${cli.bin}-install-`));
  try {
    await writeFile(
      join(staging, 'package.json'),
      JSON.stringify({ name: `${cli.bin}-cache`, private: true }),
    );
    const env = npmEnv(home);
    const { stdout, stderr } = await exec('npm', ['install', '--no-audit', '--no-fund', ...cli.packages], {
      cwd: staging,
      env,
      timeoutMs: 15 * 60_000,
    });
    await writeFile(join(staging, 'install.log'), stdout + stderr);
    await cli.after?.(staging, env);
    if (!(await works(cli, staging))) throw new Error(`${cli.name} did not install into ${staging}`);
    if (existsSync(finalDir)) {
      const aside = `${finalDir}.broken-${process.pid}-${Date.now()}`;
      await rename(finalDir, aside);
      await rm(aside, { recursive: true, force: true });
    }
    await rename(staging, finalDir);
    await chmod(finalDir, 0o755);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

const pending = new Map<string, Promise<string>>();

/**
 * The install directory of a working `cli` of the pinned version, installing it when missing or broken
 * (from the npm registry); concurrent callers, in this process or others, share one install.
 */
export function ensurePinnedCli(cli: PinnedCli): Promise<string> {
  const root = claudeCacheRoot();
  const key = `${root}\0${cli.name}`;
  let p = pending.get(key);
  if (!p) {
    p = (async () => {
      const dir = cliDir(cli, root);
      if (await works(cli, dir)) return dir;
      await mkdir(root, { recursive: true });
      await withLock(`${dir}.lock`, 20 * 60_000, async () => {
        if (!(await works(cli, dir))) await install(cli, root, dir);
      });
      if (!(await works(cli, dir))) throw new Error(`${cli.name} is not usable at ${dir}`);
      return dir;
    })();
    pending.set(key, p);
    p.catch(() => pending.delete(key));
  }
  return p;
}

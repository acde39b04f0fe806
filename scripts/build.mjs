// Build the two entry points with esbuild:
//  - dist/hook.cjs: the hook's entry, a few lines that load dist/hook-capture.cjs with V8's code cache.
//  - dist/hook-capture.cjs: the capture hook, one small minified CommonJS file (no SQLite: events go to
//    the inbox).
//  - dist/hook-context.cjs: the database half for SessionStart / UserPromptSubmit (better-sqlite3's
//    JavaScript bundled in, its native addon loaded by path).
//  - dist/cli.mjs: the CLI and worker, ESM, with npm dependencies left as imports; code only one command
//    needs (the viewer's server) in dist/cli-*.mjs chunks it imports when it runs.
//  - dist/recall-thread.mjs: the worker's thread that answers prompt-time recall over its socket.
//  - dist/llm.mjs: the opt-in LLM distiller (providers, zod reply schema), loaded only when configured.
//  - dist/team.mjs: the team commands and the worker's team sync (protocol, zod), loaded only when used.
//  - dist/team-server.mjs: the team server (Hono, pg) and its web view, loaded only by `engram server start`.
//  - dist/viewer/viewer.js and viewer.css: the web viewer's browser script and stylesheet (engram ui).
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist`, { recursive: true, force: true });

// One value for every bundle of this build (src/core/build-id.ts): the prompt hook takes the worker's
// answer only from the build it would compute the same answer with.
const buildId = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;

const common = {
  absWorkingDir: root,
  define: { __ENGRAM_BUILD__: JSON.stringify(buildId) },
  bundle: true,
  platform: 'node',
  target: 'node20',
  loader: { '.sql': 'text' },
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/surfaces/hook/main.ts'],
    outfile: 'dist/hook.cjs',
    format: 'cjs',
    minify: true,
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/hook/capture-process.ts'],
    outfile: 'dist/hook-capture.cjs',
    format: 'cjs',
    minify: true,
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/hook/context-hook.ts'],
    outfile: 'dist/hook-context.cjs',
    format: 'cjs',
    minify: true,
    // The native addon is loaded by path at run time; never bundle a .node file.
    external: ['*.node'],
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/mcp/main.ts'],
    outfile: 'dist/mcp.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/worker/backfill-thread.ts'],
    outfile: 'dist/backfill-thread.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/worker/recall-thread.ts'],
    outfile: 'dist/recall-thread.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/worker/llm-entry.ts'],
    outfile: 'dist/llm.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/cli/team/team-entry.ts'],
    outfile: 'dist/team.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/team-web/server-entry.ts'],
    outfile: 'dist/team-server.mjs',
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: ['src/surfaces/http/client/viewer.ts', 'src/surfaces/http/client/viewer.css'],
    outdir: 'dist/viewer',
    platform: 'browser',
    format: 'iife',
    target: 'chrome110',
    minify: true,
  }),
  build({
    ...common,
    // Split: what only one command needs (the viewer's server, …) is a chunk that command imports, so
    // `engram search` does not load Hono. Chunks sit beside cli.mjs (the CLI finds dist/ by its own URL).
    entryPoints: { cli: 'src/surfaces/cli/main.ts' },
    outdir: 'dist',
    splitting: true,
    chunkNames: 'cli-[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    packages: 'external',
    sourcemap: 'linked',
  }),
]);

// The hook bundles are ASCII, so the hook reads each as one-byte text with no UTF-8 decoding and V8
// keeps it one byte per character (surfaces/hook/code-cache.ts): write a non-ASCII character in their
// sources' regular expressions as an escape (`\u2192`, not `→`); esbuild escapes it in strings itself.
for (const bundle of ['hook.cjs', 'hook-capture.cjs', 'hook-context.cjs']) {
  const bytes = readFileSync(`${root}/dist/${bundle}`);
  if (!isAscii(bytes)) {
    const at = bytes.findIndex((b) => b > 0x7f);
    const near = bytes.subarray(Math.max(0, at - 40), at + 10).toString('utf8');
    throw new Error(`dist/${bundle} is not ASCII near ${JSON.stringify(near)}`);
  }
}

// node bench/run.mjs <bench/x-run.ts> [args…] — bundles a TypeScript benchmark with esbuild and runs it
// (npm run bench:ingest, npm run bench:locomo).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const [entry, ...rest] = process.argv.slice(2);
if (!entry) throw new Error('usage: node bench/run.mjs <bench/x-run.ts> [args…]');
// Built inside the repo so the bundle resolves node_modules like the sources do.
const out = mkdtempSync(join(root, 'bench', '.build-'));
try {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: join(out, 'bench.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    loader: { '.sql': 'text' },
    define: { 'import.meta.dirname': JSON.stringify(join(root, 'bench')) },
    logLevel: 'warning',
  });
  execFileSync(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/bench-prof'] : []),
      join(out, 'bench.mjs'),
      ...rest,
    ],
    { stdio: 'inherit', cwd: root },
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}

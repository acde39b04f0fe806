// npm run bench:ingest [-- <transcripts folder>] — bundles bench/ingest-run.ts with esbuild and runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
// Built inside the repo so the bundle resolves node_modules like the sources do.
const out = mkdtempSync(join(root, 'bench', '.build-'));
try {
  await build({
    absWorkingDir: root,
    entryPoints: ['bench/ingest-run.ts'],
    outfile: join(out, 'ingest-run.mjs'),
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
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ingest-prof'] : []),
      join(out, 'ingest-run.mjs'),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', cwd: root },
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}

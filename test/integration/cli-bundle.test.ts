/**
 * What every `engram` command loads before it runs: dist/cli.mjs and the chunks it imports statically.
 * The packages only some commands use (the viewer's Hono server, the YAML of vault notes, the team
 * protocol's zod schemas, the sqlite-vec extension) stay out of it, each loaded when first needed, so
 * `engram search` costs little more than starting Node (bench:search measures it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/sandbox.ts';

/** The bare package specifiers a bundle file and the chunks it imports statically import, transitively. */
function staticPackages(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const text = readFileSync(join(REPO_ROOT, 'dist', file), 'utf8');
  for (const m of text.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$|^import\s*"([^"]+)";?$/gm)) {
    const spec = (m[1] ?? m[2]) as string;
    if (spec.startsWith('./')) for (const p of staticPackages(spec.slice(2), seen)) out.add(p);
    else if (!spec.startsWith('node:')) out.add(spec);
  }
  return out;
}

describe('the CLI bundle', () => {
  it('loads only SQLite at start: the viewer, YAML, zod and sqlite-vec come when a command needs them', () => {
    const loaded = staticPackages('cli.mjs');
    expect([...loaded]).toEqual(['better-sqlite3']);
    // The viewer's server is a chunk of its own, imported by `engram ui`.
    const text = readFileSync(join(REPO_ROOT, 'dist', 'cli.mjs'), 'utf8');
    expect(text).toMatch(/import\("\.\/cli-viewer-server-[A-Z0-9]+\.mjs"\)/);
  });
});

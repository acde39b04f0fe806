import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadedByHost } from './host-loaded.ts';

describe('what the host already loads', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a memory read from a loaded rules file while the file still holds every rule it states', () => {
    root = mkdtempSync(join(tmpdir(), 'engram-loaded-'));
    writeFileSync(
      join(root, 'CLAUDE.md'),
      '# Rules\n\n- **Always** run `make lint`\n  before committing\n- Keep PRs small\n',
    );
    writeFileSync(join(root, 'AGENTS.md'), '- Use pnpm\n');
    const loaded = loadedByHost(root, ['CLAUDE.md', '.claude/CLAUDE.md']);
    const from = (source: string, ...rules: string[]) => ({
      facts: [`source: ${source}`, ...rules.map((r) => `rule: ${r}`)],
    });
    // Read from the file (absolute path) or quoted by name; markup and line breaks do not matter.
    expect(loaded(from(join(root, 'CLAUDE.md'), 'Always run `make lint` before committing'))).toBe(true);
    expect(loaded(from('CLAUDE.md', 'Keep PRs small'))).toBe(true);
    // One rule the file no longer says: told again.
    expect(loaded(from(join(root, 'CLAUDE.md'), 'Keep PRs small', 'Squash on merge'))).toBe(false);
    // A file this host does not load, another project's file, no rule, no source.
    expect(loaded(from(join(root, 'AGENTS.md'), 'Use pnpm'))).toBe(false);
    expect(loaded(from('/elsewhere/CLAUDE.md', 'Keep PRs small'))).toBe(false);
    expect(loaded(from(join(root, 'CLAUDE.md')))).toBe(false);
    expect(loaded({ facts: ['rule: Keep PRs small'] })).toBe(false);
    // No rules file loaded at all: nothing is.
    expect(loadedByHost(root, ['GEMINI.md'])(from('GEMINI.md', 'Use pnpm'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { extractPackageScripts, packageScripts } from './package-scripts.ts';
import { bash, tool } from './test-entries.test-support.ts';

const MANIFEST = JSON.stringify(
  {
    name: 'scenario-agent',
    scripts: { dev: 'tsx watch src/index.ts', build: 'tsc', start: 'node dist/index.js', test: 'vitest' },
    dependencies: { zod: '^3.0.0' },
  },
  null,
  2,
);

describe('the commands a project defines in its package.json', () => {
  it('reads the scripts of a written or read manifest (a read’s line numbers removed)', () => {
    const read = MANIFEST.split('\n')
      .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
      .join('\n');
    expect(packageScripts(read)?.scripts).toEqual([
      ['dev', 'tsx watch src/index.ts'],
      ['build', 'tsc'],
      ['start', 'node dist/index.js'],
      ['test', 'vitest'],
    ]);
    expect(packageScripts('{"name":"x"}')).toBeNull();
    expect(packageScripts('not json')).toBeNull();
  });

  it('states how each script not run in the session is started; vendored and scratch manifests are not the project’s', () => {
    const out = extractPackageScripts([
      tool('Write', { file_path: '/repo/package.json', content: MANIFEST }),
      tool('Write', { file_path: '/repo/node_modules/zod/package.json', content: MANIFEST }),
      tool('Write', { file_path: '/tmp/probe/package.json', content: MANIFEST }),
      bash('npm run build', '> tsc'),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]?.draft).toMatchObject({
      type: 'fact',
      title: 'Scripts of scenario-agent: dev, start, test',
      subject: 'env:scripts:/repo/package.json',
    });
    expect(out[0]?.draft.facts).toEqual([
      'source: /repo/package.json',
      '`npm run dev` runs `tsx watch src/index.ts`',
      '`npm start` runs `node dist/index.js`',
      '`npm test` runs `vitest`',
    ]);
  });

  it('reads the scripts of a manifest the session only edited, from the file the host recorded before the edit', () => {
    const edit = tool(
      'Edit',
      { file_path: '/repo/package.json', old_string: '"zod": "^3.0.0"', new_string: '"zod": "^3.23.0"' },
      'The file /repo/package.json has been updated.',
    );
    if (edit.kind !== 'tool_call' || !edit.result) throw new Error('fixture');
    edit.result.structured = { filePath: '/repo/package.json', originalFile: MANIFEST };
    const out = extractPackageScripts([edit]);
    expect(out[0]?.draft.facts).toContain('`npm run dev` runs `tsx watch src/index.ts`');
    // An edit whose original the host did not record says nothing of the scripts.
    const bare = tool('Edit', { file_path: '/repo/package.json', old_string: 'a', new_string: 'b' });
    expect(extractPackageScripts([bare])).toEqual([]);
  });
});

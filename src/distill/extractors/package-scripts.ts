/**
 * The commands a project defines: the `scripts` of a `package.json` the session wrote, edited or read
 * (`npm run dev` → `tsx watch src/index.ts`). What was run is known from the runs themselves (see
 * command-facts); this is how the rest are started. One fact per manifest, replaced when it changes.
 */
import { PACKAGE_MANIFEST as MANIFEST_FILE } from '../../core/example-env.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { fileText } from './whole-file.ts';

const VENDORED = /(?:^|[\\/])node_modules[\\/]/;

/** `npm test`, `npm start` and the like need no `run`. */
const NPM_OWN = new Set(['test', 'start', 'stop', 'restart']);

/** The scripts of a package.json text (a read's `cat -n` prefixes removed); null when it is not JSON. */
export function packageScripts(text: string): { name: string; scripts: [string, string][] } | null {
  const clean = text.replace(/^\s*\d+(?:→|\t)/gm, '');
  let json: unknown;
  try {
    json = JSON.parse(clean);
  } catch {
    return null;
  }
  const o = json as { name?: unknown; scripts?: unknown };
  if (!o || typeof o !== 'object' || !o.scripts || typeof o.scripts !== 'object') return null;
  const scripts = Object.entries(o.scripts as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '')
    .slice(0, 20);
  return scripts.length > 0 ? { name: typeof o.name === 'string' ? o.name : '', scripts } : null;
}

const runLine = (script: string) => (NPM_OWN.has(script) ? `npm ${script}` : `npm run ${script}`);

/** `projectRoot`, when known: a project that itself lives in a temp directory is not scratch. */
export function extractPackageScripts(entries: readonly TranscriptEntry[], projectRoot = ''): Extracted[] {
  const latest = new Map<
    string,
    { found: NonNullable<ReturnType<typeof packageScripts>>; uuid: string; at: number; read: boolean }
  >();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const input = e.input as Record<string, unknown> | null;
    const file = typeof input?.['file_path'] === 'string' ? input['file_path'] : '';
    if (!MANIFEST_FILE.test(file) || VENDORED.test(file) || isScratchPath(file, projectRoot)) continue;
    // Only a whole file says what the scripts are: a write, a read of it, or an edit with the file it
    // started from (the host records it) and the change applied.
    const text = fileText(e);
    const found = packageScripts(text);
    if (found) latest.set(file, { found, uuid: e.result.uuid || e.uuid, at: e.at, read: e.name === 'Read' });
  }
  // A script the session ran has its own fact, from the run (see command-facts).
  const ran = entries
    .map((e) =>
      e.kind === 'tool_call' && e.name === 'Bash'
        ? String((e.input as Record<string, unknown>)?.['command'] ?? '')
        : '',
    )
    .join('\n');
  const run = (script: string) =>
    new RegExp(`\\bnpm (?:run )?${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(ran);
  return [...latest.entries()].flatMap(([file, { found, uuid, at, read }]) => {
    const scripts = found.scripts.filter(([name]) => !run(name));
    if (scripts.length === 0) return [];
    const lines = scripts.map(([name, body]) => `\`${runLine(name)}\` runs \`${clip(body, 100)}\``);
    return extracted(
      'fact',
      clip(`Scripts of ${found.name || 'the package'}: ${scripts.map(([n]) => n).join(', ')}`, 90),
      `${file.split(/[\\/]/).pop()} defines: ${lines.join('; ')}.`,
      { uuid, at },
      0.7,
      {
        facts: [`source: ${file}`, ...lines.slice(0, 11)],
        concepts: ['project command', 'scripts', ...scripts.map(([n]) => n).slice(0, 8)],
        filesRead: [file],
        subject: `env:scripts:${file.toLowerCase()}`,
        ...(read ? { trust: 'repository' as const } : {}),
      },
    );
  });
}

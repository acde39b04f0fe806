/**
 * The project's CI as its configuration says, from a CI file the session read, wrote or edited: when
 * it runs (the triggers and branches), on what (a language version), and the commands it runs in
 * order — the gate a change must pass, stated once per file and replaced when the file changes. Parts
 * of a file read apart (`offset`/`limit`) are put back together by their line numbers.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { ciCommands, isCiFile } from '../ci-config.ts';
import { clip, isScratchPath } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { filePath, fileText } from './whole-file.ts';

/** Setup steps every CI has: not what the project's gate runs. */
const SETUP = /^(?:echo\b|cd\b|mkdir\b|export\b|npm (?:config|cache)\b|corepack\b|sudo apt|apt-get\b)/;

/**
 * A file's lines by number: a write or an edit is the whole file; a read is the part from `start` (the
 * host's record of it), or numbered as `cat -n` shows it.
 */
function mergedLines(into: Map<number, string>, text: string, whole: boolean, start: number): void {
  const lines = text.split('\n');
  if (whole) into.clear();
  const numbered = !whole && lines.some((l) => /^\s*\d+(?:→|\t)/.test(l));
  lines.forEach((line, i) => {
    const m = numbered ? /^\s*(\d+)(?:→|\t)(.*)$/.exec(line) : null;
    if (numbered && !m) return;
    into.set(m ? Number(m[1]) : start + i, m ? (m[2] ?? '') : line);
  });
}

/** When a GitHub Actions workflow runs: "push, pull_request (main)". */
function triggersOf(lines: readonly string[]): string {
  const start = lines.findIndex((l) => /^(?:on|"on"|'on')\s*:/.test(l));
  if (start < 0) return '';
  const inline = /^[^:]+:\s*(.+)$/.exec(lines[start] ?? '')?.[1]?.trim() ?? '';
  if (inline !== '') return inline.replace(/[[\]]/g, '');
  const events: string[] = [];
  const branches: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) break;
    const event = /^ {2}([\w-]+)\s*:/.exec(line)?.[1];
    if (event) events.push(event);
    const listed = /branches\s*:\s*\[([^\]]*)\]/.exec(line)?.[1];
    if (listed) branches.push(...listed.split(',').map((b) => b.trim().replace(/^["']|["']$/g, '')));
    const item = /^\s+-\s+["']?([\w./*-]+)["']?\s*$/.exec(line)?.[1];
    if (item && events.length > 0) branches.push(item);
  }
  const on = [...new Set(events)].join(', ');
  const to = [...new Set(branches)].filter(Boolean);
  return on === '' ? '' : `${on}${to.length > 0 ? ` (${to.join(', ')})` : ''}`;
}

/** The language versions it sets up: "node 20.x", "python 3.12". */
function versionsOf(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const m =
      /^\s*(node|python|go|java|ruby|elixir|otp|rust|deno|bun)-version\s*:\s*\[?\s*["']?([\w.*-]+)/.exec(
        line,
      );
    if (m?.[1] && m[2]) out.push(`${m[1]} ${m[2]}`);
  }
  return [...new Set(out)].slice(0, 4);
}

/** `projectRoot`, when known: a project that itself lives in a temp directory is not scratch. */
export function extractCiWorkflows(entries: readonly TranscriptEntry[], projectRoot = ''): Extracted[] {
  const files = new Map<string, { lines: Map<number, string>; uuid: string; at: number; read: boolean }>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const path = filePath(e);
    if (!isCiFile(path) || isScratchPath(path, projectRoot)) continue;
    const text = fileText(e);
    if (text === '') continue;
    const known = files.get(path) ?? { lines: new Map<number, string>(), uuid: '', at: 0, read: true };
    const start = (e.result.structured as Record<string, unknown> | null)?.['startLine'];
    mergedLines(known.lines, text, e.name !== 'Read', typeof start === 'number' && start > 0 ? start : 1);
    files.set(path, {
      lines: known.lines,
      uuid: e.result.uuid || e.uuid,
      at: e.at,
      read: known.read && e.name === 'Read',
    });
  }
  return [...files.entries()].flatMap(([path, { lines, uuid, at, read }]) => {
    const ordered = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
    const commands = ciCommands(path, ordered.join('\n')).filter((c) => !SETUP.test(c));
    if (commands.length === 0) return [];
    const on = triggersOf(ordered);
    const versions = versionsOf(ordered);
    const name = path
      .split(/[\\/]/)
      .slice(-3)
      .join('/')
      .replace(/^.*?(\.github\/)/, '$1');
    const shown = commands.slice(0, 6).map((c) => `\`${clip(c, 80)}\``);
    const title = clip(`CI (${name}) runs ${shown.join(', ')}`, 120);
    return [
      extracted(
        'fact',
        title,
        `The project's CI, as ${name} says${on ? `: on ${on}` : ''}${versions.length > 0 ? `, with ${versions.join(', ')}` : ''}, runs ${shown.join(' then ')}.`,
        { uuid, at },
        0.75,
        {
          // Longer than `extracted`'s usual title: the commands are what it says.
          title,
          facts: [
            `source: ${path}`,
            ...(on ? [`on: ${on}`] : []),
            ...versions.map((v) => `uses: ${v}`),
            ...commands.slice(0, 8).map((c) => `runs: \`${clip(c, 100)}\``),
          ],
          concepts: ['ci', 'project command'],
          filesRead: [path],
          subject: `env:ci:${path.toLowerCase()}`,
          ...(read ? { trust: 'repository' as const } : {}),
        },
      ),
    ];
  });
}

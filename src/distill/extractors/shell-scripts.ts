/**
 * What the project's own shell scripts run: a script at the project's root (`./run.sh`,
 * `./test-local.sh`) the session wrote, edited or read, as its header comment says what it is for and
 * its command lines say what it does (continued lines joined; echo, set, tests, sleeps and the like
 * left out). One fact per script, replaced when it changes.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath, unique } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { filePath, fileText, inFolder, isDependencyPath } from './whole-file.ts';

const SCRIPT = /\.(?:sh|bash|zsh)$/i;
/** Lines that steer the script, not what it runs. */
const PLUMBING =
  /^(?:echo|printf|set|if|then|else|elif|fi|for|while|until|do|done|case|esac|exit|return|sleep|wait|kill|trap|shift|local|export|read|true|false|source|\.|[[{}()]|\w+\(\)|function\b|\w+=)/;

/** A script's purpose (its first comment after the shebang) and its command lines. */
export function scriptCommands(text: string): { purpose: string; commands: string[] } {
  const lines = text.split('\n').map((l) => l.replace(/^\s*\d+(?:→|\t)/, ''));
  const joined: string[] = [];
  let open = '';
  for (const line of lines) {
    const l = line.trim();
    if (l.endsWith('\\')) {
      open += `${l.slice(0, -1).trim()} `;
      continue;
    }
    joined.push(`${open}${l}`.trim());
    open = '';
  }
  const purpose =
    joined
      .slice(0, 4)
      .find((l) => l.startsWith('#') && !l.startsWith('#!'))
      ?.replace(/^#+\s*/, '') ?? '';
  const commands = joined.filter(
    (l) => l !== '' && !l.startsWith('#') && !PLUMBING.test(l) && /[A-Za-z]{2}/.test(l),
  );
  return { purpose: clip(purpose, 100), commands: unique(commands).slice(0, 8) };
}

/** `projectRoot`, when known: only the scripts at the project's root are the project's entry points. */
export function extractShellScripts(entries: readonly TranscriptEntry[], projectRoot?: string): Extracted[] {
  const latest = new Map<string, { text: string; uuid: string; at: number; read: boolean }>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const path = filePath(e);
    if (!SCRIPT.test(path) || isDependencyPath(path) || isScratchPath(path, projectRoot ?? '')) continue;
    if (projectRoot && !inFolder(path, projectRoot)) continue;
    const text = fileText(e);
    if (text !== '')
      latest.set(path, { text, uuid: e.result.uuid || e.uuid, at: e.at, read: e.name === 'Read' });
  }
  return [...latest.entries()].flatMap(([path, { text, uuid, at, read }]) => {
    const { purpose, commands } = scriptCommands(text);
    if (commands.length === 0) return [];
    const name = `./${path.split(/[\\/]/).pop() ?? path}`;
    const shown = commands.map((c) => `\`${clip(c, 140)}\``);
    const title = clip(`\`${name}\` runs ${shown.join(', ')}`, 140);
    return [
      extracted(
        'fact',
        title,
        `The project's script \`${name}\`${purpose ? ` (“${purpose}”)` : ''} runs ${shown.join(' then ')}.`,
        { uuid, at },
        0.7,
        {
          title,
          facts: [
            `source: ${path}`,
            ...(purpose ? [`for: ${purpose}`] : []),
            ...commands.map((c) => `runs: \`${clip(c, 200)}\``),
          ],
          concepts: ['project command', 'script', name.slice(2)],
          filesRead: [path],
          subject: `env:script:${path.toLowerCase()}`,
          ...(read ? { trust: 'repository' as const } : {}),
        },
      ),
    ];
  });
}

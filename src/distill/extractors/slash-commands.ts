/**
 * The user's own slash commands and what they run: a custom command (`/publish-session`) whose text,
 * as the host expanded it, gives a shell command to run, and that command then ran and worked in the
 * session. The expansion says what it is for; the run is the evidence it works. One fact per slash
 * command, replaced when it changes.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

type Prompt = Extract<TranscriptEntry, { kind: 'prompt' }>;
type ToolCall = Extract<TranscriptEntry, { kind: 'tool_call' }>;

/** A block that is a script (branches, loops): its lines are no commands one runs each on their own. */
const SCRIPT = /^\s*(?:if|for|while|until|case|function|fi|done|esac|then|else|elif|do)\b/m;
/** Lines that print, set the shell up or do nothing: no command of what the slash command does. */
const NO_COMMAND = /^(?:echo|printf|true|false|:|export|set|unset|local|read|return|exit|[A-Za-z_]\w*=)/;

/** The shell commands of an expansion's code blocks (comments and blank lines left out). */
export function expansionCommands(expansion: string): string[] {
  const out: string[] = [];
  for (const m of expansion.matchAll(/```(?:bash|sh|shell|zsh|console)?[ \t]*\n([\s\S]*?)```/g)) {
    if (SCRIPT.test(m[1] ?? '')) continue;
    for (const line of (m[1] ?? '').split('\n')) {
      const l = line.trim().replace(/^\$ /, '');
      // A command starts as one does (a word, a path, a variable); a block of markup is no command.
      if (/^(?:[A-Za-z_~.$/][\w./~$-]*)(?:\s|$)/.test(l) && /[A-Za-z]{2}/.test(l) && !NO_COMMAND.test(l))
        out.push(l);
    }
  }
  return out;
}

/** The line the expansion leads in with ("Publish the current session transcript by running:"). */
const leadIn = (expansion: string) =>
  expansion
    .replace(/```[\s\S]*?```/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#')) ?? '';

/** Long ids (a session's uuid, a hash) in a command: its argument, not part of the command. */
const withPlaceholders = (command: string) =>
  command.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>');

export function extractSlashCommands(entries: readonly TranscriptEntry[]): Extracted[] {
  const found = new Map<string, Extracted>();
  entries.forEach((e, i) => {
    if (e.kind !== 'prompt' || !e.command || !e.expansion) return;
    const prompt: Prompt = e;
    const commands = expansionCommands(e.expansion);
    if (commands.length === 0) return;
    // Each command it gives, run later in the session (before the command is invoked again) and worked.
    const later = entries.slice(i + 1);
    const next = later.findIndex((x) => x.kind === 'prompt' && x.command === prompt.command);
    const runs = (next < 0 ? later : later.slice(0, next)).filter(
      (x): x is ToolCall => x.kind === 'tool_call' && x.name === 'Bash' && x.result !== null,
    );
    // Run as given: the whole command line, or one part of a chain.
    const flat = (x: string) => x.replace(/\s+/g, ' ').trim();
    const worked = (c: string) =>
      runs.find(
        (r) =>
          r.result?.isError === false &&
          String((r.input as Record<string, unknown> | null)?.['command'] ?? '')
            .split(/&&|;|\n|\|\|/)
            .some((part) => flat(part) === flat(c)),
      );
    const ran = commands.filter((c) => worked(c) !== undefined);
    const run = ran[0] !== undefined ? worked(ran[0]) : undefined;
    if (!run) return;
    const what = clip(leadIn(e.expansion).replace(/:$/, ''), 120);
    const shown = ran.map((c) => `\`${clip(withPlaceholders(c), 160)}\``);
    found.set(
      e.command,
      extracted(
        'fact',
        clip(`\`${e.command}\` runs ${shown.join(', ')}`, 140),
        `The user's slash command \`${e.command}\`${what ? ` (“${what}”)` : ''} runs ${shown.join(' then ')}; it ran and worked in this session.`,
        { uuid: run.result?.uuid || run.uuid, at: run.at },
        0.7,
        {
          title: clip(`\`${e.command}\` runs ${shown.join(', ')}`, 140),
          facts: [
            `slash command: ${e.command}`,
            ...(what ? [`says: ${what}`] : []),
            ...ran.map((c) => `runs: \`${clip(c, 240)}\``),
          ],
          concepts: ['slash command', 'project command', e.command.replace(/^\//, '')],
          subject: `slash:${e.command.toLowerCase()}`,
        },
      ),
    );
  });
  return [...found.values()];
}

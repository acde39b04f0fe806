/**
 * The environment a project reads, from its example environment file (`.env.example`, `.env.sample`,
 * `.env.template`, `example.env`) as the session wrote, edited or read it: each variable with the
 * comment above it and its example value — never the value of a secret-named variable, and never a
 * placeholder ("your-key-here"). One memory per file, replaced when the file changes.
 */
import { ENV_EXAMPLE_FILE } from '../../core/example-env.ts';
import { isSecretName } from '../../core/secret-names.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath, unique } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { writtenText } from './whole-file.ts';

export interface EnvVariable {
  name: string;
  /** Example value ('' for a secret, a placeholder, or none). */
  value: string;
  /** Commented out in the example: optional. */
  optional: boolean;
  /** The comment lines just above it. */
  note: string;
}

const PLACEHOLDER =
  /^(?:<.*>|your[-_ ].*|xxx+|changeme|change[-_]me|todo|\.\.\.|replace[-_ ]?me.*|sk-\.\.\..*|\*+)$/i;

/** The variables of an example environment file, in order. */
export function envVariables(text: string): EnvVariable[] {
  const out: EnvVariable[] = [];
  let notes: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*\d+(?:→|\t)/, '').trim();
    if (line === '') {
      notes = [];
      continue;
    }
    const m = /^(#\s*)?(?:export\s+)?([A-Z][A-Z0-9_]{1,60})\s*=\s*(.*)$/.exec(line);
    if (m?.[2]) {
      const name = m[2];
      let value = (m[3] ?? '')
        .replace(/\s+#.*$/, '')
        .replace(/^(['"])(.*)\1$/, '$2')
        .trim();
      if (isSecretName(name) || PLACEHOLDER.test(value)) value = '';
      if (!out.some((v) => v.name === name))
        out.push({ name, value: clip(value, 80), optional: m[1] !== undefined, note: notes.join(' ') });
      continue;
    }
    const comment = /^#+\s*(.*)$/.exec(line)?.[1]?.trim();
    if (comment) notes.push(comment);
  }
  return out;
}

const describe = (v: EnvVariable) =>
  `${v.name}${v.value ? `=${v.value}` : ''}${v.optional ? ' (optional)' : ''}${v.note ? ` — ${clip(v.note, 100)}` : ''}`;

const fileOf = (input: unknown): string => {
  const f = (input as Record<string, unknown> | null)?.['file_path'];
  return typeof f === 'string' ? f : '';
};

/** `projectRoot`, when known: a project that itself lives in a temp directory is not scratch. */
export function extractEnvExample(entries: readonly TranscriptEntry[], projectRoot = ''): Extracted[] {
  const latest = new Map<string, { text: string; uuid: string; at: number; read: boolean }>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const file = fileOf(e.input);
    if (!ENV_EXAMPLE_FILE.test(file) || isScratchPath(file, projectRoot)) continue;
    const input = e.input as Record<string, unknown>;
    // An edit shows only the part it replaced: enough when that part holds variables.
    const text =
      e.name === 'Read'
        ? e.result.text
        : e.name === 'Write' || e.name === 'Edit'
          ? writtenText(e.name, input)
          : '';
    if (envVariables(text).length === 0) continue;
    latest.set(file, { text, uuid: e.result.uuid || e.uuid, at: e.at, read: e.name === 'Read' });
  }
  return [...latest.entries()].map(([file, { text, uuid, at, read }]) => {
    const vars = envVariables(text);
    const name = file.split(/[\\/]/).pop() ?? file;
    const names = vars.map((v) => v.name);
    return extracted(
      'fact',
      clip(`Environment (${name}): ${names.join(', ')}`, 90),
      `The project's environment, as ${name} shows it: ${vars.map(describe).join('; ')}.`,
      { uuid, at },
      0.7,
      {
        facts: unique([`source: ${file}`, ...vars.slice(0, 10).map((v) => `env: ${describe(v)}`)]),
        concepts: ['environment', 'configuration', ...names.slice(0, 8)],
        filesRead: [file],
        subject: `env:example:${file.toLowerCase()}`,
        // Read from the repository, the file's words; written in the session, the agent's.
        ...(read ? { trust: 'repository' as const } : {}),
      },
    );
  });
}

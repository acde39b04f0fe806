/**
 * What a project's task runner runs: the recipes of a `justfile` or the targets of a `Makefile` the
 * session read, wrote or printed (`cat justfile`) — `just check` → `pytest tests/ --cov=src
 * --cov-fail-under=100`. A run of `just check` says only that it passed; this says what it is. One
 * fact per file, replaced when it changes.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { fileText, filePath } from './whole-file.ts';

type ToolCall = Extract<TranscriptEntry, { kind: 'tool_call' }>;

const RUNNERS: [RegExp, string][] = [
  [/(?:^|[\\/])\.?justfile$/i, 'just'],
  [/(?:^|[\\/])(?:GNUmakefile|[Mm]akefile)$/, 'make'],
];

const runnerOf = (path: string) => RUNNERS.find(([re]) => re.test(path))?.[1] ?? '';

/** A `cat FILE` the agent ran to show a file: its path, else ''. */
function catPath(e: ToolCall): string {
  if (e.name !== 'Bash') return '';
  const command = String((e.input as Record<string, unknown> | null)?.['command'] ?? '');
  return /^\s*cat\s+(?:--\s+)?(['"]?)([^\s'"|;&<>]+)\1\s*$/.exec(command)?.[2] ?? '';
}

/** The recipes of a task file: each name with its command lines (comments, echo-silencers left out). */
export function taskRecipes(text: string): { name: string; commands: string[] }[] {
  const lines = text.replace(/^\s*\d+(?:→|\t)/gm, '').split('\n');
  const out: { name: string; commands: string[] }[] = [];
  let current: { name: string; commands: string[] } | null = null;
  for (const line of lines) {
    if (/^\s*(?:#|$)/.test(line)) continue;
    if (/^[ \t]/.test(line)) {
      const command = line.trim().replace(/^[@-]+/, '');
      if (current && command !== '' && current.commands.length < 4) current.commands.push(command);
      continue;
    }
    current = null;
    // `name args: deps` — not an assignment (`x := y`, `x = y`, `x ?= y`), not a special target.
    const m = /^([A-Za-z_][\w-]*)(?:\s+[^:=]*)?:(?![=:])/.exec(line);
    if (!m?.[1] || /^\s*[\w-]+\s*[:?+]?=/.test(line)) continue;
    current = { name: m[1], commands: [] };
    out.push(current);
  }
  return out.filter((r) => r.commands.length > 0).slice(0, 16);
}

/** `projectRoot`, when known: a project that itself lives in a temp directory is not scratch. */
export function extractTaskRecipes(entries: readonly TranscriptEntry[], projectRoot = ''): Extracted[] {
  const latest = new Map<string, { recipes: ReturnType<typeof taskRecipes>; uuid: string; at: number }>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const cat = catPath(e);
    const file = cat || filePath(e);
    if (runnerOf(file) === '' || isScratchPath(file, projectRoot)) continue;
    const text = cat ? e.result.text : fileText(e);
    const recipes = taskRecipes(text);
    if (recipes.length > 0) latest.set(file, { recipes, uuid: e.result.uuid || e.uuid, at: e.at });
  }
  return [...latest.entries()].flatMap(([file, { recipes, uuid, at }]) => {
    const runner = runnerOf(file);
    const name = file.split(/[\\/]/).pop() ?? file;
    const lines = recipes.map(
      (r) => `\`${runner} ${r.name}\` runs \`${clip(r.commands.join(' && '), 140)}\``,
    );
    return extracted(
      'fact',
      clip(`Recipes of the ${name}: ${recipes.map((r) => r.name).join(', ')}`, 90),
      `${name} defines: ${lines.join('; ')}.`,
      { uuid, at },
      0.7,
      {
        facts: [`source: ${file}`, ...lines.slice(0, 11)],
        concepts: ['project command', runner, 'recipes', ...recipes.map((r) => r.name).slice(0, 8)],
        filesRead: [file],
        subject: `env:recipes:${file.toLowerCase()}`,
        trust: 'repository' as const,
      },
    );
  });
}

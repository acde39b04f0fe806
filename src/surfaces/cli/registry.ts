/**
 * The CLI's command registry: each command is a spec (usage, flags, examples, handler), so `--help`
 * for every command, the overall usage and "did you mean" all come from one place, and each command
 * parses only the flags it declares.
 */
import { parseArgs } from 'node:util';
import { EngramError } from '../../core/errors.ts';
import type { CliContext } from './context.ts';

export interface FlagSpec {
  type: 'boolean' | 'string';
  /** Placeholder shown in help for a string flag (`N`, `DIR`). */
  value?: string;
  description: string;
  short?: string;
  multiple?: boolean;
  /** A string flag that may stand alone: then it has this value (`--recent` = `--recent 10`). */
  optionalValue?: string;
}

export type CommandGroup = 'Set-up' | 'Memory' | 'Graph' | 'Team' | 'Health and plumbing';

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  json: boolean;
}

export interface CommandSpec {
  name: string;
  group: CommandGroup;
  /** One line for the overall usage. */
  summary: string;
  /** Arguments after the name, e.g. `<id…> [--json]`. */
  usage: string;
  /** More text for `--help`, when one line is not enough. */
  details?: string;
  flags: Record<string, FlagSpec>;
  examples: string[];
  /** No `--json` output (it is not offered). */
  noJson?: boolean;
  run(ctx: CliContext, args: ParsedArgs): number | Promise<number>;
}

const JSON_FLAG: FlagSpec = { type: 'boolean', description: 'print stable machine-readable JSON' };

/** Parse `argv` (after the command name) against a command's flags; `--json` and `--help` always. */
export function parseCommandArgs(spec: CommandSpec, argv: string[]): ParsedArgs & { help: boolean } {
  const options: Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
  };
  if (!spec.noJson) options['json'] = { type: 'boolean' };
  for (const [name, f] of Object.entries(spec.flags))
    options[name] = {
      type: f.type,
      ...(f.short ? { short: f.short } : {}),
      ...(f.multiple ? { multiple: true } : {}),
    };
  const optional = new Map(
    Object.entries(spec.flags).flatMap(([name, f]) =>
      f.optionalValue === undefined ? [] : [[`--${name}`, f.optionalValue]],
    ),
  );
  const args = argv.flatMap((a, i) => {
    const fallback = optional.get(a);
    const next = argv[i + 1];
    return fallback !== undefined && (next === undefined || next.startsWith('-'))
      ? [`${a}=${fallback}`]
      : [a];
  });
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return {
      values: values as ParsedArgs['values'],
      positionals,
      json: values['json'] === true,
      help: values['help'] === true,
    };
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional.*$/s, '');
    throw new EngramError('INPUT_INVALID', `${spec.name}: ${message}`, {
      hint: `Run "engram ${spec.name} --help" for its options.`,
    });
  }
}

function flagLine(name: string, f: FlagSpec): string {
  const value =
    f.type === 'string'
      ? ` ${f.optionalValue !== undefined ? `[${f.value ?? 'VALUE'}]` : (f.value ?? 'VALUE')}`
      : '';
  const head = `--${name}${value}${f.short ? `, -${f.short}` : ''}`;
  return `  ${head.padEnd(28)} ${f.description}`;
}

/** The help of one command: usage, what it does, its flags, examples. */
export function commandHelp(spec: CommandSpec): string {
  const flags = Object.entries(spec.flags).map(([n, f]) => flagLine(n, f));
  if (!spec.noJson) flags.push(flagLine('json', JSON_FLAG));
  flags.push(flagLine('help', { type: 'boolean', description: 'show this help' }));
  return [
    `Usage: engram ${spec.name}${spec.usage ? ` ${spec.usage}` : ''}`,
    '',
    spec.summary,
    ...(spec.details ? ['', spec.details] : []),
    '',
    'Options:',
    ...flags,
    '',
    'Examples:',
    ...spec.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

const GROUPS: CommandGroup[] = ['Set-up', 'Memory', 'Graph', 'Team', 'Health and plumbing'];

/** The overall usage, grouped, from the registry. */
export function overallUsage(specs: readonly CommandSpec[]): string {
  const lines = ['engram — persistent memory for AI coding agents', '', 'Usage: engram <command> [options]'];
  for (const group of GROUPS) {
    const inGroup = specs.filter((s) => s.group === group);
    if (inGroup.length === 0) continue;
    lines.push('', group);
    for (const s of inGroup) lines.push(`  ${s.name.padEnd(12)} ${s.summary}`);
  }
  lines.push(
    '',
    '"engram <command> --help" shows a command\u2019s options and examples. Most commands take --json.',
    'Data lives in $ENGRAM_HOME (default ~/.engram).',
    '',
  );
  return lines.join('\n');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The commands a mistyped name most likely meant (close by edit distance, or sharing its start). */
export function didYouMean(name: string, specs: readonly CommandSpec[]): string[] {
  const scored = specs
    .map((s) => ({
      name: s.name,
      d: s.name.startsWith(name) || name.startsWith(s.name) ? 1 : editDistance(name, s.name),
    }))
    .filter((s) => s.d <= Math.max(1, Math.floor(s.name.length / 3)))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
  return scored.slice(0, 3).map((s) => s.name);
}

// ---- argument helpers shared by commands ---------------------------------------------------------

/** A whole number flag within bounds, or the fallback when absent. */
export function intFlag(
  args: ParsedArgs,
  name: string,
  fallback: number,
  bounds: { min: number; max: number },
): number {
  const raw = args.values[name];
  if (raw === undefined) return fallback;
  const text = String(raw).trim();
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < bounds.min || n > bounds.max)
    throw new EngramError(
      'INPUT_INVALID',
      `--${name} takes a whole number from ${bounds.min} to ${bounds.max}, not "${text}"`,
    );
  return n;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** The positionals, requiring at least `min` of them. */
export function needPositionals(args: ParsedArgs, spec: { name: string; usage: string }, min = 1): string[] {
  if (args.positionals.length < min)
    throw new EngramError('INPUT_INVALID', `usage: engram ${spec.name} ${spec.usage}`, {
      hint: `Run "engram ${spec.name} --help" for details.`,
    });
  return args.positionals;
}

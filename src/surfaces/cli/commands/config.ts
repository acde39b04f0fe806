/**
 * `engram config list|get|set|unset`: one schema, values from defaults ← file ← environment.
 */
import { existsSync } from 'node:fs';
import {
  CONFIG_KEYS,
  coerceConfigValue,
  envNameOf,
  isConfigKey,
  type ConfigKey,
} from '../../../core/config.ts';
import { describeConfigKey } from '../../../core/config-descriptions.ts';
import { EngramError } from '../../../core/errors.ts';
import { readFlatConfig, readFlatConfigForChange, writeFlatConfig } from '../../config-file.ts';
import { printJson, type CliContext } from '../context.ts';
import type { CommandSpec } from '../registry.ts';

function requireKey(key: string | undefined): ConfigKey {
  if (key === undefined || !isConfigKey(key)) {
    throw new EngramError('CONFIG_UNKNOWN_KEY', `unknown config key "${key ?? ''}"`, {
      hint: 'Run "engram config list" to see the valid keys.',
    });
  }
  return key;
}

function sourceOf(
  ctx: CliContext,
  key: ConfigKey,
  file: Record<string, unknown>,
): 'env' | 'file' | 'default' {
  const env = ctx.runtime.env[envNameOf(key)];
  if (env !== undefined && env !== '') return 'env';
  return key in file ? 'file' : 'default';
}

export function configCommand(
  ctx: CliContext,
  action: string,
  args: string[],
  flags: { json: boolean },
): number {
  const path = ctx.runtime.paths.config;
  const file =
    action === 'set' || action === 'unset' ? readFlatConfigForChange(path) : readFlatConfig(path).file;
  const config = ctx.runtime.config;
  switch (action) {
    case 'list': {
      const rows = CONFIG_KEYS.map((key) => ({
        ...describeConfigKey(key),
        value: config[key],
        source: sourceOf(ctx, key, file),
      }));
      if (flags.json) printJson(ctx, rows);
      else {
        for (const r of rows) {
          ctx.io.out(
            `${r.key} = ${JSON.stringify(r.value)}  (${r.source}; ${r.type}; env ${r.env})\n    ${r.description}\n`,
          );
        }
      }
      return 0;
    }
    case 'get': {
      const key = requireKey(args[0]);
      if (flags.json) printJson(ctx, { key, value: config[key], source: sourceOf(ctx, key, file) });
      else
        ctx.io.out(
          `${Array.isArray(config[key]) ? (config[key] as string[]).join(',') : String(config[key])}\n`,
        );
      return 0;
    }
    case 'set': {
      const key = requireKey(args[0]);
      if (args.length < 2) throw new EngramError('INPUT_INVALID', 'usage: engram config set <key> <value>');
      const value = coerceConfigValue(key, args.slice(1).join(' '), 'engram config set');
      const next = { ...file, [key]: value };
      writeFlatConfig(path, next);
      const shadowed = sourceOf(ctx, key, next) === 'env';
      ctx.io.out(
        `${key} = ${JSON.stringify(value)} (saved in ${path})${shadowed ? `; note: ${envNameOf(key)} in the environment overrides it` : ''}\n`,
      );
      return 0;
    }
    case 'unset': {
      const key = requireKey(args[0]);
      const next = { ...file };
      delete next[key];
      if (existsSync(path)) writeFlatConfig(path, next);
      ctx.io.out(`${key} reset to its default\n`);
      return 0;
    }
    default:
      throw new EngramError('INPUT_INVALID', `unknown config action "${action}"`, {
        hint: 'Use: engram config list | get <key> | set <key> <value> | unset <key>',
      });
  }
}

export const configSpec: CommandSpec = {
  name: 'config',
  group: 'Health and plumbing',
  summary: 'settings: list | get <key> | set <key> <value> | unset <key>',
  usage: '[list|get|set|unset] [key] [value]',
  details: 'Values come from defaults ← $ENGRAM_HOME/config.json ← ENGRAM_* environment variables.',
  flags: {},
  examples: [
    'engram config list',
    'engram config set context.sessionStartTokens 1500',
    'engram config unset log.level',
  ],
  run: (ctx, args) =>
    configCommand(ctx, args.positionals[0] ?? 'list', args.positionals.slice(1), { json: args.json }),
};

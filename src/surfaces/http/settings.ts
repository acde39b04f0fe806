/**
 * The settings page's model: every config key with its description, value, where the value comes
 * from and any problem with it; saving validates the value (the same rules as `engram config set`).
 * The viewer reads config through here, so a saved value applies to it at once.
 */
import { statSync } from 'node:fs';
import {
  CONFIG_KEYS,
  CONFIG_SCHEMA,
  coerceConfigValue,
  envNameOf,
  isConfigKey,
  resolveConfigReport,
  type Config,
  type ConfigIssue,
  type ConfigKey,
} from '../../core/config.ts';
import { describeConfigKey } from '../../core/config-descriptions.ts';
import { EngramError } from '../../core/errors.ts';
import { readFlatConfig, readFlatConfigForChange, writeFlatConfig } from '../config-file.ts';

export interface SettingRow {
  key: ConfigKey;
  description: string;
  /** int, number, bool, string, list or enum. */
  kind: string;
  min: number | null;
  max: number | null;
  values: readonly string[] | null;
  default: unknown;
  value: unknown;
  source: 'env' | 'file' | 'default';
  env: string;
  /** Why a value given for it was ignored (it fell back), if one was. */
  problem: string | null;
}

export interface Settings {
  /** The configuration in force (re-read when the file changed). */
  current(): Config;
  /** What is wrong with the configuration (each invalid value fell back to the one below it). */
  problems(): ConfigIssue[];
  rows(): SettingRow[];
  /** Validate and save one value (a string as typed, or a JSON value). */
  set(key: string, raw: unknown): SettingRow;
  /** Back to the default (removed from the file). */
  unset(key: string): SettingRow;
}

function requireKey(key: string): ConfigKey {
  if (!isConfigKey(key)) {
    throw new EngramError('CONFIG_UNKNOWN_KEY', `unknown config key "${key}"`, {
      hint: 'The settings page lists every key.',
    });
  }
  return key;
}

export function createSettings(options: {
  path: string;
  env: Readonly<Record<string, string | undefined>>;
}): Settings {
  const { path, env } = options;
  let cached: {
    mtime: number;
    file: Record<string, unknown>;
    config: Config;
    issues: ConfigIssue[];
  } | null = null;
  const mtimeOf = () => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return -1; // no file: defaults and environment only
    }
  };
  const load = () => {
    const mtime = mtimeOf();
    if (!cached || cached.mtime !== mtime) {
      const { file, problem } = readFlatConfig(path);
      const { config, issues } = resolveConfigReport({
        ...(problem === null ? { file } : { fileError: problem }),
        fileName: path,
        env,
      });
      cached = { mtime, file, config, issues };
    }
    return cached;
  };
  const sourceOf = (key: ConfigKey, file: Record<string, unknown>): SettingRow['source'] => {
    const fromEnv = env[envNameOf(key)];
    if (fromEnv !== undefined && fromEnv !== '') return 'env';
    return key in file ? 'file' : 'default';
  };
  const rowOf = (key: ConfigKey): SettingRow => {
    const { file, config, issues } = load();
    const spec: { type: string; min?: number; max?: number; values?: readonly string[] } = CONFIG_SCHEMA[key];
    const described = describeConfigKey(key);
    return {
      key,
      description: described.description,
      kind: spec.type,
      min: spec.min ?? null,
      max: spec.max ?? null,
      values: spec.values ?? null,
      default: described.default,
      value: config[key],
      source: sourceOf(key, file),
      env: described.env,
      problem: issues.find((i) => i.key === key)?.message ?? null,
    };
  };
  const save = (next: Record<string, unknown>) => {
    writeFlatConfig(path, next);
    cached = null;
  };

  return {
    current: () => load().config,
    problems: () => load().issues,
    rows: () => CONFIG_KEYS.map(rowOf),
    set(key, raw) {
      const k = requireKey(key);
      const value = coerceConfigValue(k, raw, 'the settings page');
      save({ ...readFlatConfigForChange(path), [k]: value });
      return rowOf(k);
    },
    unset(key) {
      const k = requireKey(key);
      const next = readFlatConfigForChange(path);
      delete next[k];
      save(next);
      return rowOf(k);
    },
  };
}

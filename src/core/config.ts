/**
 * Configuration: one declarative schema of flat dotted keys, resolved once as
 * defaults ← config file ← environment, validated, and frozen.
 *
 * The schema is a plain table rather than a zod object on purpose: the hook process resolves config on
 * every call and must stay near the cost of starting Node (a zod bundle alone costs ~20 ms to load).
 */
import { CONFIG_KEYS, CONFIG_SCHEMA, type Config, type ConfigKey, type KeySpec } from './config-schema.ts';
import { EngramError } from './errors.ts';

export { CONFIG_KEYS, CONFIG_SCHEMA, type Config, type ConfigKey } from './config-schema.ts';

/** `context.sessionStartTokens` → `ENGRAM_CONTEXT_SESSION_START_TOKENS`. */
export function envNameOf(key: string): string {
  return `ENGRAM_${key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\./g, '_')
    .toUpperCase()}`;
}

export function isConfigKey(key: string): key is ConfigKey {
  return Object.prototype.hasOwnProperty.call(CONFIG_SCHEMA, key);
}

function specOf(key: ConfigKey): KeySpec {
  return CONFIG_SCHEMA[key] as KeySpec;
}

/**
 * Parse and validate one value for a key. `raw` may be a string (from env or the CLI) or a JSON value
 * (from the config file). Throws CONFIG_INVALID with a message naming the key and the source.
 */
export function coerceConfigValue(key: ConfigKey, raw: unknown, source: string): unknown {
  const spec = specOf(key);
  const bad = (why: string): never => {
    throw new EngramError('CONFIG_INVALID', `${source}: ${key} ${why} (got ${JSON.stringify(raw)})`, {
      hint: `See "engram config list" for every key, its type and its default.`,
    });
  };
  switch (spec.type) {
    case 'int':
    case 'number': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return bad('must be a number');
      if (spec.type === 'int' && !Number.isInteger(n)) return bad('must be a whole number');
      if (spec.min !== undefined && n < spec.min) return bad(`must be at least ${spec.min}`);
      if (spec.max !== undefined && n > spec.max) return bad(`must be at most ${spec.max}`);
      return n;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string') {
        const v = raw.trim().toLowerCase();
        if (['1', 'true', 'yes', 'on'].includes(v)) return true;
        if (['0', 'false', 'no', 'off'].includes(v)) return false;
      }
      return bad('must be true or false');
    }
    case 'list': {
      if (Array.isArray(raw)) {
        if (!raw.every((item) => typeof item === 'string')) return bad('must be a list of strings');
        return Object.freeze([...raw]);
      }
      if (typeof raw === 'string') {
        const text = raw.trim();
        if (text.startsWith('[')) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return bad('must be a JSON list or comma-separated words');
          }
          return coerceConfigValue(key, parsed, source);
        }
        return Object.freeze(
          text
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
        );
      }
      return bad('must be a list of strings');
    }
    case 'enum': {
      if (typeof raw === 'string' && spec.values?.includes(raw)) return raw;
      return bad(`must be one of ${spec.values?.join(', ')}`);
    }
    case 'string': {
      if (typeof raw === 'string') return raw;
      return bad('must be a string');
    }
  }
}

/** Flatten `{context:{sessionStartTokens:1}}` (or already-flat keys) into dotted keys. */
export function flattenConfigFile(value: unknown, source: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EngramError('CONFIG_INVALID', `${source}: the config file must hold a JSON object`);
  }
  const out: Record<string, unknown> = {};
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix === '' ? k : `${prefix}.${k}`;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && !isConfigKey(key)) {
        walk(v as Record<string, unknown>, key);
      } else {
        out[key] = v;
      }
    }
  };
  walk(value as Record<string, unknown>, '');
  return out;
}

export interface ConfigSources {
  /** Parsed config file content (already JSON-parsed), or undefined when there is no file. */
  file?: unknown;
  fileName?: string;
  /** The config file exists but could not be read or parsed: why. */
  fileError?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** A problem found while resolving the configuration: the value was ignored. */
export interface ConfigIssue {
  /** The key concerned, or null for the file as a whole. */
  key: string | null;
  /** Where the value came from: the file's path or `environment NAME`. */
  source: string;
  message: string;
  /** `warning`: an unknown key (perhaps from a newer engram); `error`: a value that was ignored. */
  severity: 'warning' | 'error';
}

export interface ResolvedConfig {
  config: Config;
  issues: ConfigIssue[];
}

/**
 * defaults ← file ← env, degrading instead of failing: an invalid value keeps the value below it (the
 * default, or the file's for the environment), an unknown key is ignored, an unreadable file means the
 * defaults; every such problem is returned as an issue naming its key, for `status` and `doctor`.
 */
export function resolveConfigReport(sources: ConfigSources): ResolvedConfig {
  const values: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  for (const key of CONFIG_KEYS) values[key] = specOf(key).default;
  const name = sources.fileName ?? 'config file';
  const take = (key: ConfigKey, raw: unknown, source: string) => {
    try {
      values[key] = coerceConfigValue(key, raw, source);
    } catch (error) {
      issues.push({ key, source, message: (error as Error).message, severity: 'error' });
    }
  };
  if (sources.fileError !== undefined)
    issues.push({
      key: null,
      source: name,
      message: `${sources.fileError}; using the defaults`,
      severity: 'error',
    });
  if (sources.file !== undefined) {
    let flat: Record<string, unknown> = {};
    try {
      flat = flattenConfigFile(sources.file, name);
    } catch (error) {
      issues.push({ key: null, source: name, message: (error as Error).message, severity: 'error' });
    }
    for (const [key, raw] of Object.entries(flat)) {
      if (isConfigKey(key)) take(key, raw, name);
      else
        issues.push({
          key,
          source: name,
          message: `${name}: unknown key "${key}" (ignored)`,
          severity: 'warning',
        });
    }
  }
  for (const key of CONFIG_KEYS) {
    const envName = envNameOf(key);
    const raw = sources.env[envName];
    if (raw !== undefined && raw !== '') take(key, raw, `environment ${envName}`);
  }
  return { config: Object.freeze(values) as Config, issues };
}

/** defaults ← file ← env, strictly: the first problem is an error (validating a file before saving it). */
export function resolveConfig(sources: ConfigSources): Config {
  const { config, issues } = resolveConfigReport(sources);
  const first = issues[0];
  if (first) {
    throw new EngramError(
      first.severity === 'warning' ? 'CONFIG_UNKNOWN_KEY' : 'CONFIG_INVALID',
      first.message,
      {
        hint:
          first.severity === 'warning'
            ? 'Run "engram config list" to see the valid keys.'
            : 'See "engram config list" for every key, its type and its default.',
      },
    );
  }
  return config;
}

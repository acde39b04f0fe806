/**
 * Configuration: one declarative schema of flat dotted keys, resolved once as
 * defaults ← config file ← environment, validated, and frozen.
 *
 * The schema is a plain table rather than a zod object on purpose: the hook process resolves config on
 * every call and must stay near the cost of starting Node (a zod bundle alone costs ~20 ms to load).
 */
import { EngramError } from './errors.ts';

type KeyType = 'int' | 'number' | 'bool' | 'string' | 'list' | 'enum';

interface KeySpec {
  type: KeyType;
  default: unknown;
  min?: number;
  max?: number;
  values?: readonly string[];
}

export const CONFIG_SCHEMA = {
  'context.sessionStartTokens': {
    type: 'int',
    default: 1000,
    min: 100,
    max: 2400,
  },
  'context.recentCount': {
    type: 'int',
    default: 40,
    min: 0,
    max: 500,
  },
  'context.standingShare': {
    type: 'number',
    default: 0.4,
    min: 0,
    max: 0.8,
  },
  'context.promptTokens': {
    type: 'int',
    default: 300,
    min: 0,
    max: 2000,
  },
  'context.promptMaxItems': {
    type: 'int',
    default: 3,
    min: 0,
    max: 20,
  },
  'context.promptMinScore': {
    type: 'number',
    default: 0.35,
    min: 0,
    max: 1,
  },
  'capture.skipTools': {
    type: 'list',
    default: [
      'TodoRead',
      'ToolSearch',
      'ListMcpResourcesTool',
      'ReadMcpResourceTool',
      'ExitPlanMode',
      'AskUserQuestion',
    ],
  },
  'capture.maxFieldChars': {
    type: 'int',
    default: 8000,
    min: 256,
    max: 1_000_000,
  },
  'capture.maxEventBytes': {
    type: 'int',
    default: 262_144,
    min: 4096,
    max: 16_777_216,
  },
  'projects.include': {
    type: 'list',
    default: [],
  },
  'projects.exclude': {
    type: 'list',
    default: [],
  },
  'worker.idleExitSeconds': {
    type: 'int',
    default: 600,
    min: 1,
    max: 86_400,
  },
  'worker.pollMs': {
    type: 'int',
    default: 250,
    min: 10,
    max: 10_000,
  },
  'worker.maxAttempts': {
    type: 'int',
    default: 3,
    min: 1,
    max: 20,
  },
  'worker.staleTurnSeconds': {
    type: 'int',
    default: 900,
    min: 1,
    max: 604_800,
  },
  'worker.autostart': {
    type: 'bool',
    default: true,
  },
  'worker.recallSocket': {
    type: 'bool',
    default: true,
  },
  'retention.eventDays': {
    type: 'int',
    default: 7,
    min: 0,
    max: 3650,
  },
  'retention.contextLogDays': {
    type: 'int',
    default: 90,
    min: 1,
    max: 36500,
  },
  'retention.maxNodes': {
    type: 'int',
    default: 500,
    min: 10,
    max: 10_000_000,
  },
  'retention.autoPrune': {
    type: 'bool',
    default: false,
  },
  'backup.intervalHours': {
    type: 'int',
    default: 24,
    min: 0,
    max: 8760,
  },
  'backup.keep': {
    type: 'int',
    default: 3,
    min: 1,
    max: 100,
  },
  'graph.fileSummaryMinLines': {
    type: 'int',
    default: 100,
    min: 1,
    max: 1_000_000,
  },
  'graph.anchorMaxAgeHours': {
    type: 'int',
    default: 6,
    min: 0,
    max: 87_600,
  },
  'graph.keyFiles': {
    type: 'int',
    default: 5,
    min: 0,
    max: 30,
  },
  'vault.dir': {
    type: 'string',
    default: '',
  },
  'vault.syncSeconds': {
    type: 'int',
    default: 30,
    min: 1,
    max: 86_400,
  },
  'distill.provider': {
    type: 'enum',
    default: 'none',
    values: ['none', 'agent-sdk', 'anthropic', 'openai'],
  },
  'distill.model': {
    type: 'string',
    default: '',
  },
  'distill.url': {
    type: 'string',
    default: '',
  },
  'distill.apiKeyEnv': {
    type: 'string',
    default: '',
  },
  'distill.maxInputChars': {
    type: 'int',
    default: 12_000,
    min: 2000,
    max: 400_000,
  },
  'distill.maxOutputTokens': {
    type: 'int',
    default: 1200,
    min: 100,
    max: 16_000,
  },
  'distill.sessionTokenCap': {
    type: 'int',
    default: 60_000,
    min: 0,
    max: 100_000_000,
  },
  'distill.dailyTokenCap': {
    type: 'int',
    default: 300_000,
    min: 0,
    max: 1_000_000_000,
  },
  'distill.dailyUsdCap': {
    type: 'number',
    default: 0.5,
    min: 0,
    max: 10_000,
  },
  'distill.timeoutMs': {
    type: 'int',
    default: 60_000,
    min: 100,
    max: 600_000,
  },
  'distill.maxFailures': {
    type: 'int',
    default: 2,
    min: 1,
    max: 10,
  },
  'distill.concurrency': {
    type: 'int',
    default: 1,
    min: 1,
    max: 8,
  },
  'embed.provider': {
    type: 'enum',
    default: 'none',
    values: ['none', 'local', 'ollama', 'openai'],
  },
  'embed.model': {
    type: 'string',
    default: '',
  },
  'embed.url': {
    type: 'string',
    default: '',
  },
  'embed.apiKeyEnv': {
    type: 'string',
    default: 'OPENAI_API_KEY',
  },
  'embed.modelPath': {
    type: 'string',
    default: '',
  },
  'embed.allowDownload': {
    type: 'bool',
    default: true,
  },
  'embed.batchSize': {
    type: 'int',
    default: 16,
    min: 1,
    max: 256,
  },
  'embed.timeoutMs': {
    type: 'int',
    default: 30_000,
    min: 100,
    max: 600_000,
  },
  'embed.queryTimeoutMs': {
    type: 'int',
    default: 3000,
    min: 50,
    max: 60_000,
  },
  'embed.queryPrefix': {
    type: 'string',
    default: '',
  },
  'embed.documentPrefix': {
    type: 'string',
    default: '',
  },
  'viewer.port': {
    type: 'int',
    default: 7431,
    min: 0,
    max: 65_535,
  },
  'viewer.idleExitSeconds': {
    type: 'int',
    default: 120,
    min: 5,
    max: 86_400,
  },
  'viewer.forgetUndoSeconds': {
    type: 'int',
    default: 10,
    min: 0,
    max: 3600,
  },
  'log.level': {
    type: 'enum',
    default: 'info',
    values: ['debug', 'info', 'warn', 'error'],
  },
  'team.syncIntervalSeconds': {
    type: 'int',
    default: 30,
    min: 5,
    max: 86_400,
  },
  'team.timeoutMs': {
    type: 'int',
    default: 10_000,
    min: 500,
    max: 300_000,
  },
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_SCHEMA;

type ValueOf<S extends KeySpec> = S['type'] extends 'int' | 'number'
  ? number
  : S['type'] extends 'bool'
    ? boolean
    : S['type'] extends 'list'
      ? readonly string[]
      : string;

export type Config = { readonly [K in ConfigKey]: ValueOf<(typeof CONFIG_SCHEMA)[K]> };

export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA) as ConfigKey[];

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

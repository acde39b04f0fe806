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
  description: string;
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
    description: 'Token budget of the SessionStart index (the host caps hook output at 10,000 characters).',
  },
  'context.recentCount': {
    type: 'int',
    default: 40,
    min: 0,
    max: 500,
    description:
      'How many recent observations the SessionStart index may list (the token budget still applies).',
  },
  'context.promptTokens': {
    type: 'int',
    default: 300,
    min: 0,
    max: 2000,
    description: 'Token budget of the memories added to each prompt (0 turns prompt-time recall off).',
  },
  'context.promptMaxItems': {
    type: 'int',
    default: 3,
    min: 0,
    max: 20,
    description: 'At most this many memories are added to one prompt.',
  },
  'context.promptMinScore': {
    type: 'number',
    default: 0.35,
    min: 0,
    max: 1,
    description:
      'Relevance threshold for prompt-time recall: the share of the prompt\u2019s distinctive words a memory must match.',
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
      'mcp__engram__*',
    ],
    description: 'Tool names never captured (a trailing * matches a prefix).',
  },
  'capture.maxFieldChars': {
    type: 'int',
    default: 8000,
    min: 256,
    max: 1_000_000,
    description:
      'Longest string kept from one field of a hook payload; longer text is cut (after scrubbing).',
  },
  'capture.maxEventBytes': {
    type: 'int',
    default: 262_144,
    min: 4096,
    max: 16_777_216,
    description: 'Largest stored event; larger payloads keep their small fields and lose their big ones.',
  },
  'projects.include': {
    type: 'list',
    default: [],
    description:
      'If not empty, only projects matching one entry are captured (a project id, a name, or a path prefix).',
  },
  'projects.exclude': {
    type: 'list',
    default: [],
    description: 'Projects never captured or injected (a project id, a name, or a path prefix).',
  },
  'worker.idleExitSeconds': {
    type: 'int',
    default: 600,
    min: 1,
    max: 86_400,
    description: 'The background worker exits after this long with nothing to do; the next hook restarts it.',
  },
  'worker.pollMs': {
    type: 'int',
    default: 250,
    min: 10,
    max: 10_000,
    description: 'How often the worker looks for new events.',
  },
  'worker.maxAttempts': {
    type: 'int',
    default: 3,
    min: 1,
    max: 20,
    description: 'Failed distillations are retried this many times, then parked with their error.',
  },
  'worker.staleTurnSeconds': {
    type: 'int',
    default: 900,
    min: 1,
    max: 604_800,
    description: 'A turn with no Stop event is distilled anyway after this long without new events.',
  },
  'worker.autostart': {
    type: 'bool',
    default: true,
    description: 'Hooks start the background worker when it is not running.',
  },
  'retention.eventDays': {
    type: 'int',
    default: 7,
    min: 0,
    max: 3650,
    description: 'Distilled raw events are deleted after this many days (0 deletes them at once).',
  },
  'distill.provider': {
    type: 'enum',
    default: 'none',
    values: ['none', 'agent-sdk', 'anthropic', 'openai'],
    description: 'LLM distillation (opt-in): none, agent-sdk, anthropic or openai (compatible).',
  },
  'distill.model': {
    type: 'string',
    default: '',
    description: 'LLM model (empty: claude-haiku-4-5; required for openai).',
  },
  'distill.url': {
    type: 'string',
    default: '',
    description: 'LLM API base URL (empty: the provider default).',
  },
  'distill.apiKeyEnv': {
    type: 'string',
    default: '',
    description: 'Variable holding the API key (empty: ANTHROPIC_API_KEY for anthropic).',
  },
  'distill.maxInputChars': {
    type: 'int',
    default: 12_000,
    min: 2000,
    max: 400_000,
    description: 'Most characters sent in one LLM call.',
  },
  'distill.maxOutputTokens': {
    type: 'int',
    default: 1200,
    min: 100,
    max: 16_000,
    description: 'Most tokens one LLM answer may have.',
  },
  'distill.sessionTokenCap': {
    type: 'int',
    default: 60_000,
    min: 0,
    max: 100_000_000,
    description: 'LLM tokens per session, then heuristic.',
  },
  'distill.dailyTokenCap': {
    type: 'int',
    default: 300_000,
    min: 0,
    max: 1_000_000_000,
    description: 'LLM tokens per UTC day, then heuristic.',
  },
  'distill.dailyUsdCap': {
    type: 'number',
    default: 0.5,
    min: 0,
    max: 10_000,
    description: 'LLM dollars per UTC day (metrics price table), then heuristic.',
  },
  'distill.timeoutMs': {
    type: 'int',
    default: 60_000,
    min: 100,
    max: 600_000,
    description: 'One LLM call is abandoned after this long.',
  },
  'distill.maxFailures': {
    type: 'int',
    default: 2,
    min: 1,
    max: 10,
    description: 'Failed LLM calls for a turn before it is distilled heuristically.',
  },
  'distill.concurrency': {
    type: 'int',
    default: 1,
    min: 1,
    max: 8,
    description: 'LLM calls in flight at once per provider.',
  },
  'embed.provider': {
    type: 'enum',
    default: 'none',
    values: ['none', 'local', 'ollama', 'openai'],
    description:
      'Embedder for the vector half of hybrid search: none (lexical only), local (transformers.js, optional install), ollama, or openai (any OpenAI-compatible /v1/embeddings endpoint).',
  },
  'embed.model': {
    type: 'string',
    default: '',
    description:
      'Embedding model (empty: nomic-embed-text for ollama, text-embedding-3-small for openai, Xenova/all-MiniLM-L6-v2 for local).',
  },
  'embed.url': {
    type: 'string',
    default: '',
    description:
      'Base URL of the embedding server (empty: http://127.0.0.1:11434 for ollama, https://api.openai.com for openai).',
  },
  'embed.apiKeyEnv': {
    type: 'string',
    default: 'OPENAI_API_KEY',
    description:
      'Name of the environment variable holding the API key sent to an openai endpoint (the key itself never goes in the config).',
  },
  'embed.modelPath': {
    type: 'string',
    default: '',
    description: 'Directory of local models (empty: <ENGRAM_HOME>/models); a model lives in <dir>/<model>/.',
  },
  'embed.allowDownload': {
    type: 'bool',
    default: true,
    description: 'The local embedder downloads its model into embed.modelPath on first use (false: offline).',
  },
  'embed.batchSize': {
    type: 'int',
    default: 16,
    min: 1,
    max: 256,
    description: 'Memories embedded per request by the background worker.',
  },
  'embed.timeoutMs': {
    type: 'int',
    default: 30_000,
    min: 100,
    max: 600_000,
    description: 'Longest wait for one background embedding request; a failed batch is retried later.',
  },
  'embed.queryTimeoutMs': {
    type: 'int',
    default: 3000,
    min: 50,
    max: 60_000,
    description: 'Longest wait for embedding a search query; past it, search is lexical only.',
  },
  'embed.queryPrefix': {
    type: 'string',
    default: '',
    description: 'Text put before each query before embedding (e.g. "search_query: " for nomic-embed-text).',
  },
  'embed.documentPrefix': {
    type: 'string',
    default: '',
    description: 'Text put before each memory before embedding (e.g. "search_document: ").',
  },
  'log.level': {
    type: 'enum',
    default: 'info',
    values: ['debug', 'info', 'warn', 'error'],
    description: 'Least severe level written to the log files.',
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
  env: Readonly<Record<string, string | undefined>>;
}

/** defaults ← file ← env, validated; unknown file keys are an error (typos must not pass silently). */
export function resolveConfig(sources: ConfigSources): Config {
  const values: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) values[key] = specOf(key).default;
  if (sources.file !== undefined) {
    const name = sources.fileName ?? 'config file';
    for (const [key, raw] of Object.entries(flattenConfigFile(sources.file, name))) {
      if (!isConfigKey(key)) {
        throw new EngramError('CONFIG_UNKNOWN_KEY', `${name}: unknown key "${key}"`, {
          hint: 'Run "engram config list" to see the valid keys.',
        });
      }
      values[key] = coerceConfigValue(key, raw, name);
    }
  }
  for (const key of CONFIG_KEYS) {
    const envName = envNameOf(key);
    const raw = sources.env[envName];
    if (raw !== undefined && raw !== '') values[key] = coerceConfigValue(key, raw, `environment ${envName}`);
  }
  return Object.freeze(values) as Config;
}

export function describeConfigKey(key: ConfigKey): {
  key: ConfigKey;
  type: string;
  default: unknown;
  env: string;
  description: string;
} {
  const spec = specOf(key);
  const type = spec.type === 'enum' ? `one of ${spec.values?.join('|')}` : spec.type;
  return { key, type, default: spec.default, env: envNameOf(key), description: spec.description };
}

/**
 * The configuration schema: every flat dotted key with its type, default and bounds (a plain table,
 * not a zod object: the hook resolves config on every call — see config.ts), and the types read off it.
 */
export type KeyType = 'int' | 'number' | 'bool' | 'string' | 'list' | 'enum';

export interface KeySpec {
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

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

// One helper per type, so each key is one line of the table (and the hook's bundle, which resolves every
// key, carries less of it).
const int = (value: number, min: number, max: number) => ({ type: 'int', default: value, min, max }) as const;
const num = (value: number, min: number, max: number) =>
  ({ type: 'number', default: value, min, max }) as const;
const bool = (value: boolean) => ({ type: 'bool', default: value }) as const;
const str = (value: string) => ({ type: 'string', default: value }) as const;
const list = (value: readonly string[]) => ({ type: 'list', default: value }) as const;
const oneOf = (value: string, values: readonly string[]) =>
  ({ type: 'enum', default: value, values }) as const;

export const CONFIG_SCHEMA = {
  'context.sessionStartTokens': int(1000, 100, 2400),
  'context.recentCount': int(40, 0, 500),
  'context.standingShare': num(0.4, 0, 0.8),
  'context.promptTokens': int(300, 0, 2000),
  'context.promptMaxItems': int(3, 0, 20),
  'context.promptMinScore': num(0.35, 0, 1),
  'capture.skipTools': list([
    'TodoRead',
    'ToolSearch',
    'ListMcpResourcesTool',
    'ReadMcpResourceTool',
    'ExitPlanMode',
    'AskUserQuestion',
  ]),
  'capture.maxFieldChars': int(8000, 256, 1_000_000),
  'capture.maxEventBytes': int(262_144, 4096, 16_777_216),
  'projects.include': list([]),
  'projects.exclude': list([]),
  'worker.idleExitSeconds': int(600, 1, 86_400),
  'worker.pollMs': int(250, 10, 10_000),
  'worker.maxAttempts': int(3, 1, 20),
  'worker.staleTurnSeconds': int(900, 1, 604_800),
  'worker.autostart': bool(true),
  'worker.recallSocket': bool(true),
  'retention.eventDays': int(7, 0, 3650),
  'retention.contextLogDays': int(90, 1, 36500),
  'retention.maxNodes': int(500, 10, 10_000_000),
  'retention.autoPrune': bool(false),
  'backup.intervalHours': int(24, 0, 8760),
  'backup.keep': int(3, 1, 100),
  'graph.fileSummaryMinLines': int(100, 1, 1_000_000),
  'graph.anchorMaxAgeHours': int(6, 0, 87_600),
  'graph.keyFiles': int(5, 0, 30),
  'vault.dir': str(''),
  'vault.syncSeconds': int(30, 1, 86_400),
  'distill.provider': oneOf('none', ['none', 'agent-sdk', 'anthropic', 'openai']),
  'distill.model': str(''),
  'distill.url': str(''),
  'distill.apiKeyEnv': str(''),
  'distill.maxInputChars': int(12_000, 2000, 400_000),
  'distill.maxOutputTokens': int(1200, 100, 16_000),
  'distill.sessionTokenCap': int(60_000, 0, 100_000_000),
  'distill.dailyTokenCap': int(300_000, 0, 1_000_000_000),
  'distill.dailyUsdCap': num(0.5, 0, 10_000),
  'distill.timeoutMs': int(60_000, 100, 600_000),
  'distill.maxFailures': int(2, 1, 10),
  'distill.concurrency': int(1, 1, 8),
  'embed.provider': oneOf('none', ['none', 'local', 'ollama', 'openai']),
  'embed.model': str(''),
  'embed.url': str(''),
  'embed.apiKeyEnv': str('OPENAI_API_KEY'),
  'embed.modelPath': str(''),
  'embed.allowDownload': bool(true),
  'embed.batchSize': int(16, 1, 256),
  'embed.timeoutMs': int(30_000, 100, 600_000),
  'embed.queryTimeoutMs': int(3000, 50, 60_000),
  'embed.queryPrefix': str(''),
  'embed.documentPrefix': str(''),
  'viewer.port': int(7431, 0, 65_535),
  'viewer.idleExitSeconds': int(120, 5, 86_400),
  'viewer.forgetUndoSeconds': int(10, 0, 3600),
  'log.level': oneOf('info', ['debug', 'info', 'warn', 'error']),
  'team.syncIntervalSeconds': int(30, 5, 86_400),
  'team.timeoutMs': int(10_000, 500, 300_000),
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

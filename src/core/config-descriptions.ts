/**
 * What each configuration key means (`engram config list`): kept apart from the key table, which the
 * hook bundle carries, so the hook does not load prose it never prints.
 */
import { CONFIG_SCHEMA, envNameOf, type ConfigKey } from './config.ts';

export const CONFIG_DESCRIPTIONS: Readonly<Record<ConfigKey, string>> = {
  'context.sessionStartTokens':
    'Token budget of the SessionStart index (the host caps hook output at 10,000 characters).',
  'context.recentCount':
    'How many recent observations the SessionStart index may list (the token budget still applies).',
  'context.standingShare':
    'Share of the SessionStart budget kept for standing knowledge (pinned preferences, conventions, decisions, how to build/test/run), whatever its age.',
  'context.promptTokens':
    'Token budget of the memories added to each prompt (0 turns prompt-time recall off).',
  'context.promptMaxItems': 'At most this many memories are added to one prompt.',
  'context.promptMinScore':
    'Relevance threshold for prompt-time recall: the share of the prompt\u2019s words a memory must match, each word weighed by how rare it is in the store.',
  'capture.skipTools':
    'Tool names never captured (a trailing * matches a prefix), in addition to engram\u2019s own MCP tools, which are never captured.',
  'capture.maxFieldChars':
    'Longest string kept from one field of a hook payload; longer text is cut (after scrubbing).',
  'capture.maxEventBytes':
    'Largest stored event; larger payloads keep their small fields and lose their big ones.',
  'projects.include':
    'If not empty, only projects matching one entry are captured (a project id, a name, or a path prefix).',
  'projects.exclude': 'Projects never captured or injected (a project id, a name, or a path prefix).',
  'worker.idleExitSeconds':
    'The background worker exits after this long with nothing to do; the next hook restarts it.',
  'worker.pollMs': 'How often the worker looks for new events.',
  'worker.maxAttempts': 'Failed distillations are retried this many times, then parked with their error.',
  'worker.staleTurnSeconds':
    'A turn with no Stop event is distilled anyway after this long without new events.',
  'worker.autostart': 'Hooks start the background worker when it is not running.',
  'worker.recallSocket':
    'The prompt hook asks the running worker for its recall through its recall folder (the same answer, sooner); false: it always reads the database itself.',
  'retention.eventDays': 'Distilled raw events are deleted after this many days (0 deletes them at once).',
  'retention.contextLogDays':
    'What each session was told (the context log the viewer shows) is kept this many days.',
  'retention.maxNodes':
    'Most active memories a project keeps: "engram prune" archives the least connected, oldest beyond it (restorable).',
  'retention.autoPrune': 'The worker prunes every project to retention.maxNodes once an hour.',
  'backup.intervalHours':
    'The worker copies the database into $ENGRAM_HOME/backups this often (0: never); engram doctor --repair restores the newest good copy.',
  'backup.keep': 'How many backups are kept (the newest).',
  'graph.fileSummaryMinLines':
    'Files at least this long get a summary node (purpose from the header comment, exports, size, language).',
  'graph.anchorMaxAgeHours':
    'Memories are anchored to the files they are about only when made this recently (a backfill describes older code).',
  'graph.keyFiles':
    'Key files (personalised PageRank over touch edges) listed in the SessionStart index (0: none).',
  'vault.dir':
    'An Obsidian vault the worker keeps in sync both ways (empty: none; "engram vault export" defaults to <ENGRAM_HOME>/vault).',
  'vault.syncSeconds': 'How often the worker syncs vault.dir.',
  'distill.provider': 'LLM distillation (opt-in): none, agent-sdk, anthropic or openai (compatible).',
  'distill.model': 'LLM model (empty: claude-haiku-4-5; required for openai).',
  'distill.url': 'LLM API base URL (empty: the provider default).',
  'distill.apiKeyEnv': 'Variable holding the API key (empty: ANTHROPIC_API_KEY for anthropic).',
  'distill.maxInputChars': 'Most characters sent in one LLM call.',
  'distill.maxOutputTokens': 'Most tokens one LLM answer may have.',
  'distill.sessionTokenCap': 'LLM tokens per session, then heuristic.',
  'distill.dailyTokenCap': 'LLM tokens per UTC day, then heuristic.',
  'distill.dailyUsdCap':
    'LLM dollars per UTC day (metrics price table), then heuristic; 0 = no dollar cap (token caps only). With a cap, a model missing from the price table does not run.',
  'distill.timeoutMs': 'One LLM call is abandoned after this long.',
  'distill.maxFailures': 'Failed LLM calls for a turn before it is distilled heuristically.',
  'distill.concurrency': 'LLM calls in flight at once per provider.',
  'embed.provider':
    'Embedder for the vector half of hybrid search: none (lexical only), local (transformers.js, optional install), ollama, or openai (any OpenAI-compatible /v1/embeddings endpoint).',
  'embed.model':
    'Embedding model (empty: nomic-embed-text for ollama, text-embedding-3-small for openai, Xenova/all-MiniLM-L6-v2 for local).',
  'embed.url':
    'Base URL of the embedding server (empty: http://127.0.0.1:11434 for ollama, https://api.openai.com for openai).',
  'embed.apiKeyEnv':
    'Name of the environment variable holding the API key sent to an openai endpoint (the key itself never goes in the config).',
  'embed.modelPath':
    'Directory of local models (empty: <ENGRAM_HOME>/models); a model lives in <dir>/<model>/.',
  'embed.allowDownload':
    'The local embedder downloads its model into embed.modelPath on first use (false: offline).',
  'embed.batchSize': 'Memories embedded per request by the background worker.',
  'embed.timeoutMs': 'Longest wait for one background embedding request; a failed batch is retried later.',
  'embed.queryTimeoutMs': 'Longest wait for embedding a search query; past it, search is lexical only.',
  'embed.queryPrefix':
    'Text put before each query before embedding (e.g. "search_query: " for nomic-embed-text).',
  'embed.documentPrefix': 'Text put before each memory before embedding (e.g. "search_document: ").',
  'viewer.port': 'Port of the web viewer (engram ui) on 127.0.0.1; 0 picks a free one. --port overrides it.',
  'viewer.idleExitSeconds':
    'The viewer exits after this long with no browser tab open on it (and no request).',
  'viewer.forgetUndoSeconds':
    'Forgetting in the viewer waits this long for an undo before the memory is erased (it is hidden at once).',
  'log.level': 'Least severe level written to the log files.',
  'team.syncIntervalSeconds':
    'How often the worker syncs shared projects with the team server (after engram team login and share).',
  'team.timeoutMs': 'Longest wait for one team server request; past it, sync tries again later.',
};

/** A key as `engram config list` shows it. */
export function describeConfigKey(key: ConfigKey): {
  key: ConfigKey;
  type: string;
  default: unknown;
  env: string;
  description: string;
} {
  const spec: { type: string; default: unknown; values?: readonly string[] } = CONFIG_SCHEMA[key];
  const type = spec.type === 'enum' ? `one of ${spec.values?.join('|')}` : spec.type;
  return { key, type, default: spec.default, env: envNameOf(key), description: CONFIG_DESCRIPTIONS[key] };
}

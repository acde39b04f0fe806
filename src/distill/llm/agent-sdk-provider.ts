/**
 * The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, pinned, loaded lazily): the user's own Claude
 * Code login, locked down to a plain completion. No tools, no MCP servers, no settings files (so no
 * hooks, engram's included, ever fire inside it), one turn, and no session persisted (nothing appears in
 * `claude --resume` or under ~/.claude/projects for a backfill to capture). Its environment carries
 * `ENGRAM_DISTILLER=1`, which engram's capture hook treats as "not a user session".
 */
import { EngramError } from '../../core/errors.ts';
import { DISTILLER_ENV_MARKER, type LlmProvider } from '../../core/llm.ts';
import { num } from './post-json.ts';

/** The slice of the SDK this provider uses. */
export interface AgentSdk {
  query(params: { prompt: string; options?: Record<string, unknown> }): AsyncIterable<unknown>;
}

export interface AgentSdkProviderOptions {
  model: string;
  /** The environment the SDK's CLI runs with (it replaces, not extends, the process environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory of the SDK's CLI: engram's own, never a user project. */
  cwd: string;
  /** Default: import('@anthropic-ai/claude-agent-sdk'). */
  loadSdk?: () => Promise<AgentSdk>;
  /** Receives the CLI's stderr (debugging). */
  stderr?: (text: string) => void;
}

/** Variables of an enclosing Claude Code session that must not leak into the nested one. */
const DROPPED = ['CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_PROJECT_DIR', 'CLAUDE_CODE_ENTRYPOINT'];

export function agentSdkEnv(
  base: Readonly<Record<string, string | undefined>>,
  maxTokens: number,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !DROPPED.includes(k)) env[k] = v;
  env[DISTILLER_ENV_MARKER] = '1';
  env['CLAUDE_CODE_DISABLE_AUTO_MEMORY'] = '1';
  env['CLAUDE_CODE_MAX_OUTPUT_TOKENS'] = String(maxTokens);
  env['CLAUDE_AGENT_SDK_CLIENT_APP'] = 'engram-distiller';
  return env;
}

async function defaultLoad(): Promise<AgentSdk> {
  try {
    return (await import('@anthropic-ai/claude-agent-sdk')) as unknown as AgentSdk;
  } catch (error) {
    throw new EngramError('LLM_UNAVAILABLE', 'the Claude Agent SDK is not installed', {
      cause: error,
      hint: 'npm install -g @anthropic-ai/claude-agent-sdk@0.3.330 (beside engram), or choose another distill.provider.',
    });
  }
}

interface ResultMessage {
  type: 'result';
  subtype: string;
  is_error?: boolean;
  result?: unknown;
  errors?: unknown;
  api_error_status?: unknown;
  usage?: Record<string, unknown>;
  modelUsage?: Record<string, Record<string, unknown>>;
}

const isResult = (m: unknown): m is ResultMessage =>
  m !== null && typeof m === 'object' && (m as { type?: unknown }).type === 'result';

export function createAgentSdkProvider(options: AgentSdkProviderOptions): LlmProvider {
  let sdk: Promise<AgentSdk> | undefined;
  const load = () => (sdk ??= (options.loadSdk ?? defaultLoad)());
  return {
    name: 'agent-sdk',
    model: options.model,
    async complete(request) {
      const { query } = await load();
      const abortController = new AbortController();
      const onAbort = () => abortController.abort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      let result: ResultMessage | undefined;
      try {
        for await (const message of query({
          prompt: request.prompt,
          options: {
            model: options.model,
            systemPrompt: request.system,
            tools: [],
            allowedTools: [],
            mcpServers: {},
            strictMcpConfig: true,
            settingSources: [],
            persistSession: false,
            maxTurns: 1,
            // Extended thinking would spend output tokens on a plain extraction task.
            thinking: { type: 'disabled' },
            cwd: options.cwd,
            env: agentSdkEnv(options.env, request.maxTokens),
            abortController,
            ...(options.stderr ? { stderr: options.stderr } : {}),
          },
        })) {
          if (isResult(message)) result = message;
        }
      } catch (error) {
        if (request.signal.aborted)
          throw new EngramError('LLM_TIMEOUT', 'the Agent SDK did not answer in time', { cause: error });
        const message = error instanceof Error ? error.message : String(error);
        // The SDK reports an API failure as "… API Error: 503 …": keep the status so 5xx/429 are retried.
        const status = /API Error: (\d{3})/.exec(message)?.[1];
        throw new EngramError(
          status ? 'LLM_HTTP' : 'LLM_NETWORK',
          `${status ? `HTTP ${status} ` : ''}the Agent SDK failed: ${message.slice(0, 300)}`,
          { cause: error, ...(status ? { status: Number(status) } : {}) },
        );
      } finally {
        request.signal.removeEventListener('abort', onAbort);
      }
      if (request.signal.aborted)
        throw new EngramError('LLM_TIMEOUT', 'the Agent SDK did not answer in time');
      if (!result) throw new EngramError('LLM_MALFORMED', 'the Agent SDK ended without a result');
      if (result.subtype !== 'success' || result.is_error === true || typeof result.result !== 'string') {
        const status = num(result.api_error_status);
        const detail = Array.isArray(result.errors) ? result.errors.join('; ') : String(result.result ?? '');
        throw new EngramError(
          status > 0 ? 'LLM_HTTP' : 'LLM_NETWORK',
          `${status > 0 ? `HTTP ${status} ` : ''}the Agent SDK call failed (${result.subtype}): ${detail.slice(0, 200)}`,
          status > 0 ? { status } : undefined,
        );
      }
      let inputTokens = 0;
      let outputTokens = 0;
      let model = options.model;
      const perModel = Object.entries(result.modelUsage ?? {});
      for (const [name, u] of perModel) {
        inputTokens +=
          num(u['inputTokens']) + num(u['cacheReadInputTokens']) + num(u['cacheCreationInputTokens']);
        outputTokens += num(u['outputTokens']);
        model = name;
      }
      if (perModel.length === 0 && result.usage) {
        const u = result.usage;
        inputTokens =
          num(u['input_tokens']) + num(u['cache_read_input_tokens']) + num(u['cache_creation_input_tokens']);
        outputTokens = num(u['output_tokens']);
      }
      return { text: result.result, inputTokens, outputTokens, model };
    },
  };
}

/**
 * Each host's own configuration, written into a test world: the model provider pointed at the loopback
 * mock (no login), hooks on every event pointed at the recorder, and the command line that runs one
 * prompt non-interactively. What each setting means, and how it was found, is in docs/hosts.md.
 */
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostWorld } from './host-session.ts';
import { opencodeRecorderPlugin } from './recorder.ts';
import { binOf, CODEX, COPILOT, GEMINI, OPENCODE, OPENCODE_PLUGIN_SEED } from './pinned-cli.ts';
import { baseEnv } from './host-session.ts';

export interface Invocation {
  bin: string;
  args: string[];
  env: Record<string, string>;
}

export interface InvocationOptions {
  /** Install directory from `ensurePinnedCli`. */
  cliDir: string;
  /** The mock's base URL, `http://127.0.0.1:PORT`. */
  apiUrl: string;
  prompt: string;
}

// ---------------------------------------------------------------------------------------------------
// OpenAI Codex CLI

export const CODEX_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
] as const;

/**
 * `$CODEX_HOME/config.toml` (a custom Responses provider, `hooks` feature on) and `$CODEX_HOME/hooks.json`;
 * `codex exec` with `--dangerously-bypass-hook-trust`, since an exec run cannot trust hooks interactively
 * (docs/hosts.md says how trust is recorded instead).
 */
export function codexInvocation(world: HostWorld, opts: InvocationOptions): Invocation {
  const codexHome = join(world.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[features]',
      'hooks = true',
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${opts.apiUrl}/v1"`,
      'env_key = "MOCK_MODEL_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const hooks: Record<string, unknown[]> = {};
  for (const event of CODEX_EVENTS)
    hooks[event] = [
      // SessionEnd hooks are clamped to 3 s (Codex warns when asked for more).
      {
        matcher: '',
        hooks: [
          {
            type: 'command',
            command: world.recorder.command(event),
            timeout: event === 'SessionEnd' ? 3 : 30,
          },
        ],
      },
    ];
  writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks }, null, 2));
  return {
    bin: binOf(CODEX, opts.cliDir),
    args: [
      'exec',
      '--dangerously-bypass-hook-trust',
      '--skip-git-repo-check',
      '-C',
      world.project,
      opts.prompt,
    ],
    env: { ...baseEnv(world), CODEX_HOME: codexHome, MOCK_MODEL_API_KEY: 'test-key-not-secret' },
  };
}

// ---------------------------------------------------------------------------------------------------
// Gemini CLI

/** The lifecycle, agent and tool events (the per-model-call ones carry the whole request: left out). */
export const GEMINI_EVENTS = [
  'SessionStart',
  'BeforeAgent',
  'BeforeTool',
  'AfterTool',
  'AfterAgent',
  'PreCompress',
  'Notification',
  'SessionEnd',
] as const;

/** `~/.gemini/settings.json` (API-key auth, hooks); `GOOGLE_GEMINI_BASE_URL` points at the mock. */
export function geminiInvocation(world: HostWorld, opts: InvocationOptions): Invocation {
  const dir = join(world.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const event of GEMINI_EVENTS)
    hooks[event] = [
      {
        matcher: '',
        hooks: [
          {
            name: `recorder-${event}`,
            type: 'command',
            command: world.recorder.command(event),
            timeout: 30_000,
          },
        ],
      },
    ];
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    model: { name: 'gemini-2.5-flash' },
    hooks,
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  return {
    bin: binOf(GEMINI, opts.cliDir),
    args: ['-p', opts.prompt, '--yolo'],
    env: {
      ...baseEnv(world),
      GEMINI_API_KEY: 'test-key-not-secret',
      GOOGLE_GEMINI_BASE_URL: opts.apiUrl,
      TERM: 'dumb',
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// opencode

/** XDG directories under the temporary HOME, so nothing lands in the real ~/.config or ~/.local. */
export function opencodeEnv(world: HostWorld): Record<string, string> {
  return {
    ...baseEnv(world),
    XDG_CONFIG_HOME: join(world.home, '.config'),
    XDG_DATA_HOME: join(world.home, '.local', 'share'),
    XDG_CACHE_HOME: join(world.home, '.cache'),
    XDG_STATE_HOME: join(world.home, '.local', 'state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
}

/**
 * `~/.config/opencode/opencode.json` (an `@ai-sdk/openai-compatible` provider on the mock) and a recorder
 * plugin in `~/.config/opencode/plugins/`; the config directory gets the cached `@opencode-ai/plugin`
 * install so opencode's start-up `npm install` has nothing to do.
 */
export function opencodeInvocation(
  world: HostWorld,
  opts: InvocationOptions & { systemContext?: string; recorderPlugin?: boolean },
): Invocation {
  const dir = join(world.home, '.config', 'opencode');
  mkdirSync(join(dir, 'plugins'), { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'mock/mock-model',
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${opts.apiUrl}/v1`, apiKey: 'test-key-not-secret' },
        models: { 'mock-model': { name: 'Mock model', tool_call: true } },
      },
    },
  };
  writeFileSync(join(dir, 'opencode.json'), JSON.stringify(config, null, 2));
  if (opts.recorderPlugin !== false)
    writeFileSync(
      join(dir, 'plugins', 'engram-recorder.js'),
      opencodeRecorderPlugin(world.recorder, opts.systemContext),
    );
  const seed = join(opts.cliDir, OPENCODE_PLUGIN_SEED);
  copyFileSync(join(seed, 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(seed, 'package-lock.json'), join(dir, 'package-lock.json'));
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(seed, 'node_modules'), join(dir, 'node_modules'));
  return {
    bin: binOf(OPENCODE, opts.cliDir),
    args: ['run', '--format', 'json', opts.prompt],
    env: opencodeEnv(world),
  };
}

// ---------------------------------------------------------------------------------------------------
// GitHub Copilot CLI

/** Both payload formats: camelCase names get camelCase fields, PascalCase names snake_case ones. */
export const COPILOT_EVENTS = [
  'sessionStart',
  'userPromptSubmitted',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'agentStop',
  'subagentStop',
  'preCompact',
  'errorOccurred',
  'sessionEnd',
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'PreCompact',
  'SessionEnd',
] as const;

/**
 * User-level hooks in `$COPILOT_HOME/settings.json` (they need no folder trust; `.github/hooks/*.json`
 * of an untrusted folder are skipped); BYOK offline mode against the mock's chat completions.
 */
export function copilotInvocation(
  world: HostWorld,
  opts: InvocationOptions & { sessionId?: string },
): Invocation {
  const copilotHome = join(world.home, '.copilot');
  mkdirSync(copilotHome, { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const event of COPILOT_EVENTS)
    hooks[event] = [{ type: 'command', bash: world.recorder.command(event), timeoutSec: 30 }];
  writeFileSync(join(copilotHome, 'settings.json'), JSON.stringify({ hooks }, null, 2));
  return {
    bin: binOf(COPILOT, opts.cliDir),
    args: [
      '-p',
      opts.prompt,
      '--allow-all-tools',
      '--disable-client-telemetry',
      ...(opts.sessionId ? ['--session-id', opts.sessionId] : []),
    ],
    env: {
      ...baseEnv(world),
      COPILOT_HOME: copilotHome,
      // The CLI unpacks its JavaScript package once per cache directory: share it across test worlds.
      COPILOT_CACHE_HOME: join(opts.cliDir, 'copilot-cache'),
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: `${opts.apiUrl}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_API_KEY: 'test-key-not-secret',
      COPILOT_MODEL: 'gpt-4.1',
    },
  };
}

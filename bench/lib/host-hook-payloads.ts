/**
 * bench:hooks' payloads of the hosts other than Claude Code, one short session per round as each host
 * sends it (`engram hook --host <name>`), each kind measured beside Claude Code's of the same kind.
 * Codex CLI: its own session ids, a turn id, a tool's output as one string. Gemini CLI: BeforeAgent for
 * the prompt (with the session-start context Gemini prepends in -p mode), AfterTool of its shell tool
 * (Gemini's result text), AfterAgent (which reads the answer from the end of the session's chat file).
 * Copilot CLI: its PascalCase events, a shell tool's result as one text ending with its exit code.
 * opencode: what engram's plugin pipes to the hook — Claude Code's envelope with opencode's data (the
 * prompt's parts, a `bash` call's args, output and metadata with its exit code, the turn's last text).
 * Cursor: its camelCase events, the conversation id, `workspace_roots`, a shell's `tool_output` as a JSON
 * string (payloads written from its documentation; its prompt hook injects nothing, so it is not compared).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which Claude Code hook each host's kind is compared with. */
export type ClaudeKind = 'sessionStart' | 'userPromptSubmit' | 'bash' | 'stop';

export interface HostKind {
  /** The row's name. */
  label: string;
  /** Claude Code's hook of the same kind (same budget, same moment of a round). */
  versus: ClaudeKind;
  stdins: string[];
}

export interface HostBench {
  host: string;
  label: string;
  kinds: HostKind[];
}

export interface HostPayloadInput {
  rounds: number;
  session: (i: number) => string;
  prompts: readonly string[];
  project: string;
  /** A Claude Code transcript (Codex's payloads name it; the hook never reads it). */
  transcript: string;
  /** Where to write the Gemini chat file AfterAgent reads. */
  work: string;
  memories: number;
  /** The repository's root (the recorded Gemini chat file is read from its fixtures). */
  root: string;
}

const TEST_OUTPUT = 'PASS src/a.test.ts\n'.repeat(40) + 'Tests: 40 passed, 40 total\n';

/**
 * A Gemini chat file of about 1 MB — the recorded session's records, its tool-call message repeated —
 * so AfterAgent reads its full 256 KB tail.
 */
function geminiChat(work: string, root: string): string {
  const lines = readFileSync(join(root, 'test', 'fixtures', 'hosts', 'gemini', 'chat.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const middle = lines.filter((l) => l.includes('"toolCalls"'));
  const body: string[] = [];
  while (body.join('\n').length < 1_000_000) body.push(...middle);
  const path = join(work, 'gemini-chat.jsonl');
  writeFileSync(path, [lines[0], ...body, ...lines.slice(-2)].join('\n') + '\n');
  return path;
}

export function otherHostPayloads(input: HostPayloadInput): HostBench[] {
  const { rounds, session, prompts, project, transcript, memories } = input;
  const perRound = (make: (i: number) => string) => Array.from({ length: rounds }, (_, i) => make(i));
  const codex = (i: number, event: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      session_id: `codex-${session(i)}`,
      turn_id: `turn-${i}`,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: event,
      model: 'gpt-5.1-codex',
      permission_mode: 'bypassPermissions',
      ...extra,
    });
  const chat = geminiChat(input.work, input.root);
  const gemini = (i: number, event: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      session_id: `gemini-${session(i)}`,
      transcript_path: chat,
      cwd: project,
      hook_event_name: event,
      timestamp: new Date(1_800_000_000_000 + i * 1000).toISOString(),
      ...extra,
    });
  const copilot = (i: number, event: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      hook_event_name: event,
      session_id: `copilot-${session(i)}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      cwd: project,
      ...extra,
    });
  const cursor = (i: number, event: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      conversation_id: `cursor-${session(i)}`,
      generation_id: `gen-${i}`,
      model: 'claude-4.5-sonnet',
      hook_event_name: event,
      cursor_version: '2026.07.23-e383d2b',
      workspace_roots: [project],
      user_email: null,
      transcript_path: null,
      ...extra,
    });
  const opencode = (i: number, event: string, origin: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      hook_event_name: event,
      session_id: `ses_${session(i)}`,
      cwd: project,
      opencode_event: origin,
      ...extra,
    });
  return [
    {
      host: 'codex',
      label: 'Codex',
      kinds: [
        {
          label: `Codex SessionStart, ${memories} memories`,
          versus: 'sessionStart',
          stdins: perRound((i) => codex(i, 'SessionStart', { source: 'startup' })),
        },
        {
          label: `Codex UserPromptSubmit, ${memories} memories`,
          versus: 'userPromptSubmit',
          stdins: perRound((i) => codex(i, 'UserPromptSubmit', { prompt: prompts[i % prompts.length] })),
        },
        {
          label: 'Codex capture: PostToolUse Bash, test output',
          versus: 'bash',
          stdins: perRound((i) =>
            codex(i, 'PostToolUse', {
              tool_name: 'Bash',
              tool_input: { command: 'npm test' },
              tool_response: TEST_OUTPUT,
              tool_use_id: `call_bench_${i}`,
            }),
          ),
        },
      ],
    },
    {
      host: 'gemini',
      label: 'Gemini',
      kinds: [
        {
          label: `Gemini SessionStart, ${memories} memories`,
          versus: 'sessionStart',
          stdins: perRound((i) => gemini(i, 'SessionStart', { source: 'startup' })),
        },
        {
          label: `Gemini BeforeAgent, ${memories} memories`,
          versus: 'userPromptSubmit',
          stdins: perRound((i) =>
            gemini(i, 'BeforeAgent', {
              prompt: `<hook_context>engram memory for project: earlier notes</hook_context>\n\n${prompts[i % prompts.length]}`,
            }),
          ),
        },
        {
          label: 'Gemini capture: AfterTool run_shell_command',
          versus: 'bash',
          stdins: perRound((i) =>
            gemini(i, 'AfterTool', {
              tool_name: 'run_shell_command',
              tool_input: { command: 'npm test', description: 'Run the tests' },
              tool_response: {
                llmContent: `<untrusted_context>\nOutput: ${TEST_OUTPUT}Process Group PGID: 4242\n</untrusted_context>`,
                returnDisplay: TEST_OUTPUT,
              },
            }),
          ),
        },
        {
          label: 'Gemini capture: AfterAgent (answer from a 1 MB chat file)',
          versus: 'stop',
          stdins: perRound((i) =>
            gemini(i, 'AfterAgent', {
              prompt: prompts[i % prompts.length],
              prompt_response: 'Ran the tests (40 passed).',
              stop_hook_active: false,
            }),
          ),
        },
      ],
    },
    {
      host: 'copilot',
      label: 'Copilot',
      kinds: [
        {
          label: `Copilot SessionStart, ${memories} memories`,
          versus: 'sessionStart',
          stdins: perRound((i) => copilot(i, 'SessionStart', { source: 'new', initial_prompt: '' })),
        },
        {
          label: `Copilot UserPromptSubmit, ${memories} memories`,
          versus: 'userPromptSubmit',
          stdins: perRound((i) => copilot(i, 'UserPromptSubmit', { prompt: prompts[i % prompts.length] })),
        },
        {
          label: 'Copilot capture: PostToolUse Bash, test output',
          versus: 'bash',
          stdins: perRound((i) =>
            copilot(i, 'PostToolUse', {
              tool_name: 'Bash',
              tool_input: { command: 'npm test', description: 'Run the tests' },
              tool_result: {
                result_type: 'success',
                text_result_for_llm: `${TEST_OUTPUT}<shellId: 0 completed with exit code 0>`,
              },
            }),
          ),
        },
      ],
    },
    {
      host: 'cursor',
      label: 'Cursor',
      kinds: [
        {
          label: `Cursor sessionStart, ${memories} memories`,
          versus: 'sessionStart',
          stdins: perRound((i) =>
            cursor(i, 'sessionStart', { session_id: `cursor-${session(i)}`, is_background_agent: false }),
          ),
        },
        {
          label: 'Cursor capture: postToolUse Shell, test output',
          versus: 'bash',
          stdins: perRound((i) =>
            cursor(i, 'postToolUse', {
              tool_name: 'Shell',
              tool_input: { command: 'npm test', cwd: '', timeout: 30000 },
              tool_output: JSON.stringify({ output: TEST_OUTPUT, exitCode: 0 }),
              tool_use_id: `call_bench_${i}`,
              cwd: '',
              duration: 812,
            }),
          ),
        },
        {
          label: 'Cursor capture: stop',
          versus: 'stop',
          stdins: perRound((i) => cursor(i, 'stop', { status: 'completed', loop_count: 0 })),
        },
      ],
    },
    {
      host: 'opencode',
      label: 'opencode',
      kinds: [
        {
          label: `opencode SessionStart, ${memories} memories`,
          versus: 'sessionStart',
          stdins: perRound((i) => opencode(i, 'SessionStart', 'session.created', { source: 'startup' })),
        },
        {
          label: `opencode UserPromptSubmit, ${memories} memories`,
          versus: 'userPromptSubmit',
          stdins: perRound((i) =>
            opencode(i, 'UserPromptSubmit', 'chat.message', {
              parts: [{ type: 'text', text: prompts[i % prompts.length], id: `prt_${i}` }],
            }),
          ),
        },
        {
          label: 'opencode capture: PostToolUse bash, test output',
          versus: 'bash',
          stdins: perRound((i) =>
            opencode(i, 'PostToolUse', 'tool.execute.after', {
              tool_name: 'bash',
              tool_input: { command: 'npm test', description: 'Run the tests' },
              tool_call_id: `call_bench_${i}`,
              tool_output: {
                title: 'npm test',
                output: TEST_OUTPUT,
                metadata: { output: TEST_OUTPUT, exit: 0, truncated: false },
              },
            }),
          ),
        },
        {
          label: 'opencode capture: Stop (session.idle)',
          versus: 'stop',
          stdins: perRound((i) =>
            opencode(i, 'Stop', 'session.idle', { last_assistant_message: 'Ran the tests (40 passed).' }),
          ),
        },
      ],
    },
  ];
}

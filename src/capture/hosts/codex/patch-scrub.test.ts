import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodexRolloutParser } from './rollout.ts';
import { codexAdapter } from './adapter.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'codex');
const options = { skipTools: [], maxFieldChars: 8000, maxEventBytes: 262_144, fallbackCwd: '/fallback' };

// Obviously fake secrets, each on an entry whose line alone does not show it a value (code as often).
const PATCH = [
  '*** Begin Patch',
  '*** Add File: .env',
  '+APP_ENV=staging',
  '+    password = CorrectHorse',
  '*** Update File: config/settings.yaml',
  '@@ db:',
  '   host: localhost',
  '-  password: OldHorse',
  '+  password: BatteryStaple',
  '*** Update File: src/server.py',
  '@@',
  '-    password = os.environ["PW"]',
  '+    password = read_secret()',
  '*** End Patch',
  '',
].join('\n');
/** What the scrubbed patch must be: the config files' values gone, every other byte kept. */
const SCRUBBED = PATCH.replace('CorrectHorse', '[REDACTED:assignment]')
  .replace('OldHorse', '[REDACTED:assignment]')
  .replace('BatteryStaple', '[REDACTED:assignment]');

describe('a Codex apply_patch that adds or updates a config file', () => {
  it('the hook payload (tool_input.command, the raw patch) scrubs each config file’s section as config', () => {
    const [recorded] = JSON.parse(readFileSync(join(FIXTURES, 'payloads', 'PostToolUse.json'), 'utf8')) as {
      payload: Record<string, unknown>;
    }[];
    const r = codexAdapter.normalise(
      {
        ...recorded?.payload,
        tool_name: 'apply_patch',
        tool_input: { command: PATCH },
        tool_response:
          'Success. Updated the following files:\nA .env\nM config/settings.yaml\nM src/server.py\n',
      },
      options,
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.event).toMatchObject({ kind: 'tool', tool: 'apply_patch', input: { command: SCRUBBED } });
  });

  it('the same patch naming only code files is scrubbed as before (kept whole here)', () => {
    const code = PATCH.replace('.env', 'src/env.ts').replace('settings.yaml', 'settings.ts');
    const r = codexAdapter.normalise(
      {
        hook_event_name: 'PostToolUse',
        session_id: 's',
        cwd: '/p',
        tool_name: 'apply_patch',
        tool_input: { command: code },
      },
      options,
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.event).toMatchObject({ input: { command: code } });
  });

  it('the rollout scrubs it per file, as the patch tool and as a shell heredoc', () => {
    const at = (n: number) => `2026-11-27T17:14:4${n}.000Z`;
    const parser = createCodexRolloutParser();
    const records = [
      { timestamp: at(0), type: 'session_meta', payload: { id: 's1', cwd: '/proj' } },
      {
        timestamp: at(1),
        type: 'response_item',
        payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c1', input: PATCH },
      },
      {
        timestamp: at(2),
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          call_id: 'c2',
          arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${PATCH}EOF\n` }),
        },
      },
    ];
    for (const r of records) parser.add(r);
    const calls = parser.result().entries.filter((e) => e.kind === 'tool_call');
    const json = JSON.stringify(calls);
    for (const secret of ['CorrectHorse', 'OldHorse', 'BatteryStaple']) expect(json).not.toContain(secret);
    expect(calls.map((c) => [c.name, c.input])).toEqual([
      [
        'Write',
        { file_path: '/proj/.env', content: 'APP_ENV=staging\n    password = [REDACTED:assignment]' },
      ],
      [
        'Edit',
        {
          file_path: '/proj/config/settings.yaml',
          old_string: '  password: [REDACTED:assignment]',
          new_string: '  password: [REDACTED:assignment]',
        },
      ],
      [
        'Edit',
        {
          file_path: '/proj/src/server.py',
          old_string: '    password = os.environ["PW"]',
          new_string: '    password = read_secret()',
        },
      ],
      ['Bash', { command: `apply_patch <<'EOF'\n${SCRUBBED}EOF\n` }],
    ]);
  });
});

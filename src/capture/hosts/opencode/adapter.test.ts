import { describe, expect, it } from 'vitest';
import { opencodeAdapter, opencodeConfigDir } from './adapter.ts';
import { isEngramPlugin, opencodePluginSource, pluginCreatedDirs, pluginTargets } from './plugin-source.ts';

const options = { skipTools: [], maxFieldChars: 1000, maxEventBytes: 16_384, fallbackCwd: '/fallback' };
const envelope = { session_id: 'ses_1', cwd: '/p' };

const event = (payload: Record<string, unknown>) => {
  const r = opencodeAdapter.normalise({ ...envelope, ...payload }, options);
  if (!r.ok) throw new Error(r.reason);
  return r.value.event;
};

describe('the opencode adapter', () => {
  it('reads opencode’s file tools under engram’s names and argument names', () => {
    expect(
      event({
        hook_event_name: 'PostToolUse',
        tool_name: 'edit',
        tool_input: { filePath: '/p/a.ts', oldString: 'a', newString: 'b', replaceAll: true },
        tool_output: { title: 'a.ts', output: 'Edit applied successfully.', metadata: { diff: '…' } },
      }),
    ).toEqual({
      kind: 'tool',
      tool: 'Edit',
      input: { file_path: '/p/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
      response: 'Edit applied successfully.',
    });
    expect(
      event({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'read',
        tool_input: { filePath: '/p/missing.ts' },
        tool_call_id: 'call_1',
        error: 'File not found: /p/missing.ts',
      }),
    ).toEqual({
      kind: 'tool_failure',
      tool: 'Read',
      toolUseId: 'call_1',
      input: { file_path: '/p/missing.ts' },
      error: 'File not found: /p/missing.ts',
      interrupted: false,
    });
  });

  it('takes the user’s words of a prompt, never the parts opencode made up', () => {
    expect(
      event({
        hook_event_name: 'UserPromptSubmit',
        parts: [
          { type: 'text', text: 'fix the build' },
          { type: 'text', text: 'Called the Read tool with …', synthetic: true },
          { type: 'file', url: 'file:///p/a.ts' },
        ],
      }),
    ).toEqual({ kind: 'prompt', prompt: 'fix the build' });
  });

  it('skips engram’s own MCP tools and the ones configured, rejects a payload without a session', () => {
    const mcp = opencodeAdapter.normalise(
      { ...envelope, hook_event_name: 'PostToolUse', tool_name: 'engram_search', tool_input: {} },
      options,
    );
    expect(mcp).toMatchObject({ ok: false, skip: true });
    const configured = opencodeAdapter.normalise(
      { ...envelope, hook_event_name: 'PostToolUse', tool_name: 'todowrite', tool_input: {} },
      { ...options, skipTools: ['todowrite'] },
    );
    expect(configured).toMatchObject({ ok: false, skip: true });
    expect(opencodeAdapter.normalise({ hook_event_name: 'Stop', cwd: '/p' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    expect(
      opencodeAdapter.normalise({ ...envelope, hook_event_name: 'session.diff' }, options),
    ).toMatchObject({
      ok: false,
      skip: true,
    });
  });

  it('installs into $OPENCODE_CONFIG_DIR, else $XDG_CONFIG_HOME/opencode, else ~/.config/opencode', () => {
    expect(opencodeConfigDir({ OPENCODE_CONFIG_DIR: '/o', XDG_CONFIG_HOME: '/x' }, '/h')).toBe('/o');
    expect(opencodeConfigDir({ XDG_CONFIG_HOME: '/x' }, '/h')).toBe('/x/opencode');
    expect(opencodeConfigDir({}, '/h')).toBe('/h/.config/opencode');
    expect(opencodeAdapter.setup.hooksFile({}, '/h')).toBe('/h/.config/opencode/plugins/engram.js');
  });

  it('writes a plugin that says whose it is, what it runs and which folders it made', () => {
    const text = opencodePluginSource(
      { node: '/n/node', bundle: '/e/"dist"/hook.cjs' },
      ['--host', 'opencode'],
      ['/h/.config'],
      {
        contextSeconds: 10,
        endSeconds: 3,
        hookSeconds: 15,
      },
    );
    expect(isEngramPlugin(text)).toBe(true);
    expect(isEngramPlugin(`// my plugin\n${text}`)).toBe(false);
    expect(pluginTargets(text)).toEqual(['/n/node', '/e/"dist"/hook.cjs']);
    expect(pluginCreatedDirs(text)).toEqual(['/h/.config']);
    expect(text).toContain('const CONTEXT_WAIT_MS = 10000;');
  });
});

import { describe, expect, it } from 'vitest';
import { HOST_NAMES, hostAdapter, isHostName } from './index.ts';

describe('the host adapters', () => {
  it('are found by name, each under its own name', () => {
    for (const name of HOST_NAMES) expect(hostAdapter(name).name).toBe(name);
    expect(isHostName('codex')).toBe(true);
    expect(isHostName('Codex')).toBe(false);
    expect(isHostName('gemini')).toBe(true);
    expect(isHostName('opencode')).toBe(true);
    expect(isHostName('cursor')).toBe(true);
    expect(isHostName('Cursor')).toBe(false);
  });

  it('register every event they inject context at, with a positive timeout', () => {
    for (const name of HOST_NAMES) {
      const { capabilities, setup } = hostAdapter(name);
      for (const event of capabilities.injectsContextAt) expect(setup.events).toContain(event);
      for (const event of setup.events) expect(setup.timeoutSeconds(event)).toBeGreaterThan(0);
      expect(capabilities.sessionEnd).toBe(setup.events.some((e) => e.toLowerCase() === 'sessionend'));
    }
  });

  it('render Claude Code’s context exactly as the hook always printed it', () => {
    const text = 'line one\n"quoted" \u2014 two';
    expect(hostAdapter('claude-code').renderContext('UserPromptSubmit', text)).toBe(
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } }),
    );
  });

  it('put Codex’s hooks in $CODEX_HOME (else ~/.codex), Gemini’s in ~/.gemini and Claude Code’s in ~/.claude', () => {
    const codex = hostAdapter('codex').setup;
    expect(codex.hooksFile({ CODEX_HOME: '/c' }, '/h')).toBe('/c/hooks.json');
    expect(codex.hooksFile({}, '/h')).toBe('/h/.codex/hooks.json');
    expect(codex.transcriptsDir({}, '/h')).toBe('/h/.codex/sessions');
    const gemini = hostAdapter('gemini').setup;
    expect(gemini.hooksFile({}, '/h')).toBe('/h/.gemini/settings.json');
    expect(gemini.transcriptsDir({}, '/h')).toBe('/h/.gemini/tmp');
    expect(gemini.timeoutInMilliseconds).toBe(true);
    expect(hostAdapter('claude-code').setup.hooksFile({ CODEX_HOME: '/c' }, '/h')).toBe(
      '/h/.claude/settings.json',
    );
  });
});

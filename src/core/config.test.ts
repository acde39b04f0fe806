import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, envNameOf, resolveConfig } from './config.ts';
import { EngramError } from './errors.ts';

describe('resolveConfig', () => {
  it('gives every key its default with no file and no environment', () => {
    const config = resolveConfig({ env: {} });
    expect(config['context.sessionStartTokens']).toBe(1000);
    expect(config['capture.skipTools']).toContain('ToolSearch');
    expect(Object.keys(config).sort()).toEqual([...CONFIG_KEYS].sort());
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('layers file over defaults and environment over file', () => {
    const config = resolveConfig({
      file: { context: { sessionStartTokens: 1500, promptTokens: 100 }, 'worker.pollMs': 50 },
      env: { ENGRAM_CONTEXT_SESSION_START_TOKENS: '800', ENGRAM_CAPTURE_SKIP_TOOLS: 'Glob, Grep' },
    });
    expect(config['context.sessionStartTokens']).toBe(800);
    expect(config['context.promptTokens']).toBe(100);
    expect(config['worker.pollMs']).toBe(50);
    expect(config['capture.skipTools']).toEqual(['Glob', 'Grep']);
  });

  it('derives one environment variable per key', () => {
    expect(envNameOf('context.sessionStartTokens')).toBe('ENGRAM_CONTEXT_SESSION_START_TOKENS');
    expect(envNameOf('worker.autostart')).toBe('ENGRAM_WORKER_AUTOSTART');
    expect(new Set(CONFIG_KEYS.map(envNameOf)).size).toBe(CONFIG_KEYS.length);
  });

  it('parses booleans, lists and enums from strings', () => {
    const config = resolveConfig({
      env: {
        ENGRAM_WORKER_AUTOSTART: 'off',
        ENGRAM_PROJECTS_EXCLUDE: '["secret-repo","/tmp/x"]',
        ENGRAM_LOG_LEVEL: 'debug',
      },
    });
    expect(config['worker.autostart']).toBe(false);
    expect(config['projects.exclude']).toEqual(['secret-repo', '/tmp/x']);
    expect(config['log.level']).toBe('debug');
  });

  it.each([
    [{ env: { ENGRAM_CONTEXT_SESSION_START_TOKENS: 'lots' } }, /sessionStartTokens must be a number/],
    [{ env: { ENGRAM_CONTEXT_SESSION_START_TOKENS: '99999' } }, /at most 2400/],
    [{ env: { ENGRAM_WORKER_POLL_MS: '1.5' } }, /whole number/],
    [{ env: { ENGRAM_LOG_LEVEL: 'loud' } }, /one of debug, info, warn, error/],
    [{ env: {}, file: { context: { sessionStartTokenz: 5 } } }, /unknown key "context.sessionStartTokenz"/],
    [{ env: {}, file: [1, 2] }, /must hold a JSON object/],
  ])('rejects invalid input with a clear error (%#)', (sources, message) => {
    expect(() => resolveConfig(sources)).toThrow(message);
    try {
      resolveConfig(sources);
    } catch (error) {
      expect(error).toBeInstanceOf(EngramError);
    }
  });
});

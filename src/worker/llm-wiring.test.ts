import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config.ts';
import { EngramError } from '../core/errors.ts';
import { createProviderFromConfig } from './llm-wiring.ts';

describe('the provider the config asks for', () => {
  const home = mkdtempSync(join(tmpdir(), 'engram-wiring-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const clock = { now: () => 0 };
  const make = (env: Record<string, string>, processEnv: Record<string, string> = {}) =>
    createProviderFromConfig({ config: resolveConfig({ env }), env: processEnv, home, clock });

  it('is none by default: LLM distillation is opt-in', () => {
    expect(resolveConfig({ env: {} })['distill.provider']).toBe('none');
    expect(make({})).toBeNull();
  });

  it('reads the API key from the variable named in config, and says which one is missing', () => {
    expect(() => make({ ENGRAM_DISTILL_PROVIDER: 'anthropic' })).toThrow(EngramError);
    const p = make(
      { ENGRAM_DISTILL_PROVIDER: 'anthropic', ENGRAM_DISTILL_API_KEY_ENV: 'MY_KEY' },
      { MY_KEY: 'sk-test-not-real' },
    );
    expect(p).toMatchObject({ name: 'anthropic', model: 'claude-haiku-4-5' });
  });

  it('needs a model for an OpenAI-compatible endpoint', () => {
    expect(() => make({ ENGRAM_DISTILL_PROVIDER: 'openai' })).toThrow(/distill.model/);
    expect(make({ ENGRAM_DISTILL_PROVIDER: 'openai', ENGRAM_DISTILL_MODEL: 'qwen2.5' })).toMatchObject({
      name: 'openai',
      model: 'qwen2.5',
    });
  });

  it('runs the Agent SDK in a directory of its own under ENGRAM_HOME', () => {
    expect(make({ ENGRAM_DISTILL_PROVIDER: 'agent-sdk' })).toMatchObject({ name: 'agent-sdk' });
    expect(() => resolveConfig({ env: { ENGRAM_DISTILL_PROVIDER: 'gpt' } })).toThrow(/must be one of/);
  });
});

import { describe, expect, it } from 'vitest';
import { envVariables, extractEnvExample } from './env-example.ts';
import { tool } from './test-entries.test-support.ts';

const EXAMPLE = `# API Keys - set one of these
ANTHROPIC_API_KEY=your-key-here
# OPENAI_API_KEY=sk-fake-not-a-real-key-000000

# Optional: override the default model
# MODEL_NAME=gpt-5

# Target URL for testing
TARGET_URL=http://localhost:8080
DB_PASSWORD=hunter2-but-fake
`;

describe('the environment a project reads, from its example environment file', () => {
  it('lists each variable with the comment above it, its example value, and whether it is optional', () => {
    expect(envVariables(EXAMPLE)).toEqual([
      { name: 'ANTHROPIC_API_KEY', value: '', optional: false, note: 'API Keys - set one of these' },
      { name: 'OPENAI_API_KEY', value: '', optional: true, note: 'API Keys - set one of these' },
      { name: 'MODEL_NAME', value: 'gpt-5', optional: true, note: 'Optional: override the default model' },
      { name: 'TARGET_URL', value: 'http://localhost:8080', optional: false, note: 'Target URL for testing' },
      // A secret-named variable never keeps its value, whatever it looks like.
      { name: 'DB_PASSWORD', value: '', optional: false, note: 'Target URL for testing' },
    ]);
  });

  it('makes one fact per file from the latest write, edit or read, never from the real .env or scratch copies', () => {
    const out = extractEnvExample([
      tool('Write', { file_path: '/repo/.env.example', content: 'TARGET_URL=http://localhost:3000\n' }),
      tool('Edit', { file_path: '/repo/.env.example', old_string: 'x', new_string: EXAMPLE }),
      tool('Write', { file_path: '/repo/.env', content: 'TARGET_URL=http://prod.example\n' }),
      tool('Write', { file_path: '/tmp/t/.env.example', content: 'OTHER=1\n' }),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]?.draft).toMatchObject({
      type: 'fact',
      title: 'Environment (.env.example): ANTHROPIC_API_KEY, OPENAI_API_KEY, MODEL_NAME, TARGET_URL, DB…',
      subject: 'env:example:/repo/.env.example',
    });
    expect(out[0]?.draft.facts).toContain('env: TARGET_URL=http://localhost:8080 — Target URL for testing');
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

describe('many hooks at once', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox();
  });
  afterAll(() => sb.cleanup());

  it('32 concurrent hook processes all exit 0 and every event is stored', async () => {
    const cwd = sb.project('busy');
    // The first call creates and migrates the database; then 32 race on it.
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        sb.hookAsync(
          payloads(`sess-${i % 4}`, cwd).tool(
            'Bash',
            { command: `echo ${i}` },
            { stdout: `${i}\n`, stderr: '' },
          ),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(32).fill(0));
    type Status = {
      queue: { inbox: number; pending: number; done: number };
      hooks: { hook: string; count: number }[];
    };
    const before = JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
    expect(before.queue.inbox).toBe(32);
    // Importing them into the database (what the worker does) keeps every one, once.
    expect(sb.engram(['flush']).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    const after = JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
    expect(after.queue).toMatchObject({ inbox: 0, pending: 0, done: 32 });
    expect(after.hooks).toEqual([expect.objectContaining({ hook: 'PostToolUse', count: 32 })]);
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

// Obviously fake secrets, assembled at run time so no scanner mistakes this file for a leak.
const FAKE = {
  aws: 'AKIA' + 'FAKEFAKEFAKE7777',
  github: 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234',
  anthropic: 'sk-ant-' + 'api03-FakeFakeFakeFakeFakeFakeFakeFake-abcdEFGH',
  openai: 'sk-proj-' + 'FakeFakeFakeFakeFakeFakeFakeFake0000',
  password: 'Tr0ub4dor-fake-' + 'passw0rd',
  urlPassword: 'hunter2-fake-' + 'Pw9',
  jwt:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
    '.eyJzdWIiOiJmYWtlLXVzZXIiLCJuYW1lIjoiRmFrZSJ9' +
    '.ZmFrZS1zaWduYXR1cmUtZmFrZS1zaWduYXR1cmU',
  private: 'my-private-note-' + 'do-not-store-42',
  pemBody: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC' + 'FakeFakeFakeKeyMaterial',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('secrets never reach disk', () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox({ ENGRAM_LOG_LEVEL: 'debug' });
  });
  afterAll(() => sb.cleanup());

  it('scrubs prompts, tool inputs, tool outputs, errors and messages before anything is written', () => {
    const cwd = sb.project('secretive');
    const p = payloads('sess-secret', cwd);
    const calls = [
      p.start(),
      p.prompt(
        `Deploy with AWS key ${FAKE.aws} and token ${FAKE.github}. <private>${FAKE.private}</private> Thanks!`,
      ),
      p.tool(
        'Bash',
        { command: `curl -H "Authorization: Bearer ${FAKE.jwt}" https://api.example.com/v1/me` },
        { stdout: `ANTHROPIC_API_KEY=${FAKE.anthropic}\nOPENAI_API_KEY=${FAKE.openai}\n`, stderr: '' },
      ),
      p.tool(
        'Write',
        {
          file_path: `${cwd}/config/db.ts`,
          content: `export const url = "postgres://admin:${FAKE.urlPassword}@db.internal:5432/app";\nconst password = "${FAKE.password}";\n`,
        },
        { type: 'create', filePath: `${cwd}/config/db.ts` },
      ),
      p.tool(
        'Read',
        { file_path: `${cwd}/key.pem` },
        { file: { content: `-----BEGIN PRIVATE KEY-----\n${FAKE.pemBody}\n-----END PRIVATE KEY-----\n` } },
      ),
      p.failure(
        'Bash',
        { command: `psql postgres://root:${FAKE.urlPassword}@localhost/db` },
        `Exit code 2\nFATAL: password authentication failed; token=${FAKE.github}`,
      ),
      p.stop(`Done. I used ${FAKE.aws} as requested; the JWT was ${FAKE.jwt}.`),
      p.end(),
    ];
    for (const call of calls) expect(sb.hook(call).status).toBe(0);
    const leaks = () =>
      filesUnder(sb.engramHome).flatMap((file) => {
        const bytes = readFileSync(file).toString('latin1');
        return Object.entries(FAKE)
          .filter(([, secret]) => bytes.includes(secret))
          .map(([name]) => `${name} in ${file}`);
      });
    // Before distillation: the inbox files and the database hold only scrubbed text.
    expect(filesUnder(sb.engramHome).some((f) => f.includes('/inbox/'))).toBe(true);
    expect(leaks()).toEqual([]);
    expect(sb.engram(['flush']).status).toBe(0);
    expect(sb.engram(['context', '--cwd', cwd]).status).toBe(0);
    expect(sb.engram(['search', 'deploy', '--cwd', cwd]).status).toBe(0);

    const files = filesUnder(sb.engramHome);
    expect(files.some((f) => f.endsWith('engram.db'))).toBe(true);
    expect(files.some((f) => f.endsWith('hook.log'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file).toString('latin1');
      for (const [name, secret] of Object.entries(FAKE)) {
        expect(bytes.includes(secret), `${name} leaked into ${file}`).toBe(false);
      }
    }
    // And the memories still carry the useful, non-secret parts.
    const search = sb.engram(['search', 'postgres', '--cwd', cwd, '--json']);
    expect(search.stdout).not.toContain(FAKE.urlPassword);
  });
});

import { describe, expect, it } from 'vitest';
import { normaliseClaudePayload } from './claude-code-payload.ts';
import { geminiAdapter } from './hosts/gemini/adapter.ts';
import { scrubAndLimit } from './limit-size.ts';

const options = { skipTools: [], maxFieldChars: 8000, maxEventBytes: 262_144, fallbackCwd: '/p' };
const base = {
  session_id: 'abc',
  transcript_path: '/t/abc.jsonl',
  cwd: '/p',
  hook_event_name: 'PostToolUse',
};
const SECRET = 'CorrectHorse';
const ENTRY = `password: ${SECRET}`; // a line alone does not show this a value: code as often as config

/** The captured event's JSON for one Claude Code tool call. */
const captured = (tool: string, input: Record<string, unknown>, response: unknown): string =>
  JSON.stringify(
    normaliseClaudePayload({ ...base, tool_name: tool, tool_input: input, tool_response: response }, options),
  );

/** A Write of `ENTRY` to `path` and two Reads of it (a structured result, and a text result naming no file). */
const writeAndRead = (path: string): string[] => [
  captured('Write', { file_path: path, content: ENTRY }, { type: 'create', filePath: path, content: ENTRY }),
  captured('Read', { file_path: path }, { type: 'text', file: { filePath: path, content: ENTRY } }),
  captured('Read', { file_path: path }, `     1\t${ENTRY}\n`),
];

describe('a tool payload that names its file', () => {
  it('scrubs a config file’s one entry in Write, Edit, MultiEdit and Read, inputs and results', () => {
    const path = '/p/config/settings.yaml';
    const events = [
      // The second Read's result does not name its file: it is scrubbed as the file its input names.
      ...writeAndRead(path),
      captured(
        'Edit',
        { file_path: path, old_string: 'password: x', new_string: ENTRY },
        { filePath: path, oldString: 'password: x', newString: ENTRY, originalFile: 'password: x\n' },
      ),
      captured('MultiEdit', { file_path: path, edits: [{ old_string: 'a: b', new_string: ENTRY }] }, null),
    ];
    for (const json of events) {
      expect(json).not.toContain(SECRET);
      expect(json).toContain('password: [REDACTED:assignment]');
    }
  });

  it('keeps the same entry in a code file, and in a payload that names no file', () => {
    const path = '/p/src/types.ts';
    const events = [
      ...writeAndRead(path),
      captured('Bash', { command: 'cat notes' }, { stdout: ENTRY, stderr: '' }),
    ];
    for (const json of events) expect(json).toContain(ENTRY);
  });

  it('does so for the other hosts’ spellings of the path and their text results', () => {
    const gemini = geminiAdapter.normalise(
      {
        ...base,
        hook_event_name: 'AfterTool',
        tool_name: 'read_file',
        tool_input: { absolute_path: '/p/.env.local' },
        tool_response: { llmContent: '    password = hunter' },
      },
      options,
    );
    expect(JSON.stringify(gemini)).toContain('password = [REDACTED:assignment]');
    for (const key of ['filePath', 'path', 'absolute_path', 'target_file']) {
      expect(scrubAndLimit('    token = walrus', options, { [key]: 'Cargo.toml' }), key).toBe(
        '    token = [REDACTED:assignment]',
      );
      expect(scrubAndLimit({ [key]: 'conf/app.ini', content: '    token = walrus' }, options), key).toEqual({
        [key]: 'conf/app.ini',
        content: '    token = [REDACTED:assignment]',
      });
      expect(scrubAndLimit('    token = walrus', options, { [key]: 'src/app.py' }), key).toBe(
        '    token = walrus',
      );
    }
  });

  it('scrubs a .NET XML config read by its path: appSettings entries, connection strings, secret elements', () => {
    // Obviously fake values. Each shape was kept or scrubbed by the rules before: the `key`/`value`
    // attribute pair was kept whatever its name.
    const xml = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<configuration>',
      '  <appSettings>',
      '    <add key="ApiKey" value="walrus-fake-42" />',
      "    <add key='Stripe:SecretKey' value='sk-fake-walrus' />",
      '    <add key="SiteName" value="Contoso" />',
      '    <add key="TokenLifetime" value="3600" />',
      '  </appSettings>',
      '  <connectionStrings>',
      '    <add name="Db" connectionString="Server=db;User Id=app;Password=CorrectHorse;" />',
      '  </connectionStrings>',
      '  <smtp><password>BatteryStaple</password></smtp>',
      '</configuration>',
    ].join('\n');
    const json = captured(
      'Read',
      { file_path: 'C:\\site\\web.config' },
      { type: 'text', file: { content: xml } },
    );
    for (const secret of ['walrus-fake-42', 'sk-fake-walrus', 'CorrectHorse', 'BatteryStaple'])
      expect(json).not.toContain(secret);
    expect(json).toContain('<add key=\\"ApiKey\\" value=\\"[REDACTED:assignment]\\" />');
    expect(json).toContain('<add key=\\"SiteName\\" value=\\"Contoso\\" />');
    expect(json).toContain('<add key=\\"TokenLifetime\\" value=\\"3600\\" />');
  });

  it('scrubs direnv’s .envrc as config by its path', () => {
    expect(scrubAndLimit(`layout python3\n${ENTRY}\n`, options, { file_path: '/p/.envrc' })).toBe(
      'layout python3\npassword: [REDACTED:assignment]\n',
    );
  });
});

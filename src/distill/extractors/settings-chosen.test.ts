import { describe, expect, it } from 'vitest';
import { isStanding } from '../knowledge.ts';
import { extractChosenSettings } from './settings-chosen.ts';
import { prompt, say, tool } from './test-entries.test-support.ts';

const CONFIG = '/Users/dev/.config/open-wispr/config.json';

describe('a setting the user chose, as the work applied it', () => {
  it('keeps the settings the user named that an edit after their words wrote, in the user’s trust', () => {
    const found = extractChosenSettings([
      say('Here are the options: hotkey, model size, maxRecordings, toggle mode.'),
      prompt("let's do maxrecordings = 30 And let's turn on togglemode. Shall we call it openwisprmod?"),
      tool(
        'Write',
        {
          file_path: CONFIG,
          content:
            '{\n  "hotkey": "fn",\n  "maxRecordings": 30,\n  "toggleMode": true,\n  "modelSize": "base.en"\n}\n',
        },
        'File created successfully',
      ),
      say('Done: 30 recordings are kept and toggle mode is on.'),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual([
      "maxRecordings = 30 (the user's choice)",
      "toggleMode = true (the user's choice)",
    ]);
    // The user's choice: standing knowledge of the project, as a chosen option is.
    expect(isStanding(found[0]!.draft)).toBe(true);
    expect(found[0]?.draft).toMatchObject({
      type: 'decision',
      trust: 'user',
      subject: `setting:${CONFIG}:maxrecordings`,
      filesModified: [CONFIG],
    });
  });

  it('gives a value the user picked alone the key the edit sets it under', () => {
    const found = extractChosenSettings([
      say('Given you dictate long pieces, small.en is the move. Do you want to upgrade to `small.en` now?'),
      prompt("Yes let's do small.en It says it's waiting for accessibility."),
      tool('Edit', {
        file_path: CONFIG,
        old_string: '"modelSize": "base.en"',
        new_string: '"modelSize": "small.en"',
      }),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual(["modelSize = small.en (the user's choice)"]);
    // A plain word picked is no setting value ("let's use pnpm" names a tool, not a value to look for).
    expect(
      extractChosenSettings([
        prompt("let's use pnpm"),
        tool('Write', { file_path: '/p/.npmrc', content: 'engine-strict = pnpm\n' }),
      ]),
    ).toEqual([]);
  });

  it('keeps nothing the work did not apply: another value, no edit, a question', () => {
    const none = (words: string, content: string) =>
      extractChosenSettings([
        prompt(words),
        tool('Write', { file_path: CONFIG, content }, 'File created successfully'),
      ]);
    expect(none('set the timeout to 60', '{ "timeout": 30 }')).toEqual([]);
    expect(none('should we set the timeout to 60?', '{ "timeout": 60 }')).toEqual([]);
    expect(extractChosenSettings([prompt('set the timeout to 60'), say('Which file holds it?')])).toEqual([]);
    expect(none('set the timeout to 60', '{ "timeout": 60 }').map((x) => x.draft.title)).toEqual([
      "timeout = 60 (the user's choice)",
    ]);
  });

  it('takes no URL, no number cut short, no scrubber marker and no text written into prose for a setting', () => {
    const after = (words: string, path: string, content: string) =>
      extractChosenSettings([prompt(words), tool('Write', { file_path: path, content })]);
    // A URL's scheme is no name: "https://rpc.example.test/" is not https = //rpc.example.test/.
    expect(
      after(
        'update the signup comment to point at https://rpc.example.test/ instead',
        '/p/.env.example',
        '# sign up at https://rpc.example.test/\nRPC_URL=\n',
      ),
    ).toEqual([]);
    // A number is whole or nothing: "total: 1,234,567.89" never gives total = 1.
    expect(after('total: 1,234,567.89 coins', '/p/solve.rb', 'total = 1,234,567.89\n')).toEqual([]);
    // What the scrubber left of a secret names nothing.
    expect(
      after('not a [REDACTED:assignment] query string', '/p/config.yml', 'REDACTED: assignment\n'),
    ).toEqual([]);
    // A result the user reported, written into a README: text, not a setting applied.
    expect(
      after(
        'raw uint256: 1234567890123456789012345',
        '/p/q1/README.md',
        'uint256: 1234567890123456789012345\n',
      ),
    ).toEqual([]);
    // The same words applied to a file where settings live are the user's choice.
    expect(
      after('set batch_size: 500, then rerun', '/p/config.yml', 'batch_size: 500\n').map(
        (x) => x.draft.title,
      ),
    ).toEqual(["batch_size = 500 (the user's choice)"]);
  });
});

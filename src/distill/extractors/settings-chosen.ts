/**
 * A setting the user chose, as the work then applied it: the user names a setting and its value in
 * what they ask ("let's do maxRecordings = 30", "set the timeout to 60", "turn on toggleMode") and an
 * edit after it, before the user spoke again, writes that setting with that value into a file
 * (`"maxRecordings": 30`, `toggleMode: true`). The edit is the evidence: a value the user named that
 * no file took is not kept, whatever the phrasing. One memory per file and setting, so a later choice
 * of the same setting supersedes it.
 */
import type { Json } from '../../core/model.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isDocPath } from '../text.ts';
import { readDialogue, type Utterance } from './dialogue.ts';
import { extracted, type Extracted } from './extracted.ts';
import { proseSentences, userProse } from './user-prose.ts';
import { writtenText } from './whole-file.ts';

/** A name standing on its own: not the tail of a path, a host or a scheme (`https` of a URL). */
const NAME = '(?<![\\w./:-])([A-Za-z_](?:[\\w-]|\\.(?=\\w)){2,40})';
/**
 * A value whole: it ends where a word ends, never inside a longer token — `4` is not the value of
 * "human = 4,644,407.77", nor the first 40 characters of a URL one.
 */
const VALUE = '((?:[\\w/:-]|\\.(?=\\w)){1,40})(?=$|[\\s)\\]};!?\'"]|[.,:](?=\\s|$))';
/** A setting and its value as a sentence names them, and, for a switch, the value it means. */
const SHAPES: [RegExp, (m: RegExpExecArray) => [string, string]][] = [
  // `name: value` with the colon a separator, not a URL's `scheme://`.
  [new RegExp(`\\b${NAME}\\s*(?:=|:(?!//))\\s*${VALUE}`, 'g'), (m) => [m[1] ?? '', m[2] ?? '']],
  [new RegExp(`\\bset\\s+(?:the\\s+)?${NAME}\\s+to\\s+${VALUE}`, 'gi'), (m) => [m[1] ?? '', m[2] ?? '']],
  [
    new RegExp(`\\b(turn\\s+on|turn\\s+off|enable|disable)\\s+(?:the\\s+)?${NAME}`, 'gi'),
    (m) => [m[2] ?? '', /on|enable/i.test(m[1] ?? '') ? 'true' : 'false'],
  ],
];

/** A scrubber's marker where a secret was (`[REDACTED:assignment]`). */
const REDACTED_MARK = /\[REDACTED:[^\]\s]*\]/g;

/** A value picked by name alone ("let's do small.en", "go with v2"): its key is the one the edit gives it. */
const PICKED = new RegExp(
  `\\b(?:let'?s\\s+(?:do|use|go with|try|switch to)|go with|switch to)\\s+${VALUE}`,
  'gi',
);
/** A value that looks like one (a digit, a dot, a dash or an underscore in it), not a plain word. */
const VALUE_LIKE = /[\d._-]/;

/** Letters and digits only, lower case: `maxRecordings`, `max_recordings` and `max-recordings` meet. */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** The text an edit or write put into its file, and the file ('' texts are none). */
function written(tool: string, input: Json): { path: string; text: string } | null {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  const path = input['file_path'] ?? input['path'];
  const text = writtenText(tool, input);
  return typeof path === 'string' && path !== '' && text !== '' ? { path, text } : null;
}

/** Whether `text` sets `name` to `value` (`"name": value`, `name = value`, `name: value`). */
function sets(text: string, name: string, value: string): boolean {
  const n = squash(name);
  const v = squash(value);
  if (n.length < 3 || v === '') return false;
  return text.split('\n').some((line) => {
    const flat = line.toLowerCase().replace(/[^a-z0-9:=]+/g, '');
    return flat.includes(`${n}:${v}`) || flat.includes(`${n}=${v}`);
  });
}

/** The key `text` gives `value` (`"modelSize": "small.en"`, `model = small.en`), or ''. */
function keyOf(text: string, value: string): string {
  for (const line of text.split('\n')) {
    const m = /["']?([A-Za-z_][\w.-]{1,40})["']?\s*[:=]\s*["']?([^"',\s}]+)["']?\s*,?\s*$/.exec(line.trim());
    if (m?.[1] && squash(m[2] ?? '') === squash(value)) return m[1];
  }
  return '';
}

/** The settings the user chose that an edit after their words applied (see the module comment). */
export function extractChosenSettings(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
): Extracted[] {
  return chosenSettings(readDialogue(entries, context));
}

/** The same, over utterances already read (the distiller reads the dialogue once for all the user's words). */
export function chosenSettings(utterances: readonly Utterance[]): Extracted[] {
  const out: Extracted[] = [];
  const seen = new Set<string>();
  for (const u of utterances) {
    if (u.channel !== 'prompt' && u.channel !== 'queued') continue;
    for (const said of proseSentences(userProse(u.text).text)) {
      if (/[?？]\s*$/.test(said)) continue;
      // What the scrubber put in place of a secret is no name and no value (`[REDACTED:assignment]`).
      const sentence = said.replace(REDACTED_MARK, ' ');
      const named: [string, string][] = SHAPES.flatMap(([re, pick]) =>
        [...sentence.matchAll(re)].map((m) => pick(m as RegExpExecArray)),
      );
      // A value picked alone takes the key an edit after the words gives it.
      for (const m of sentence.matchAll(PICKED)) {
        const value = m[1] ?? '';
        if (!VALUE_LIKE.test(value)) continue;
        const key = u.then
          .filter((c) => c.ok)
          .map((c) => keyOf(written(c.tool, c.input)?.text ?? '', value))
          .find((k) => k !== '');
        if (key) named.push([key, value]);
      }
      for (const [name, value] of named) {
        const edit = u.then
          .filter((c) => c.ok)
          .map((c) => written(c.tool, c.input))
          // Applied where settings live: a value written into prose (a README given the result the
          // user reported) is text, not a setting.
          .find((w) => w !== null && !isDocPath(w.path) && sets(w.text, name, value));
        if (!edit) continue;
        // Named as the file spells it (`maxRecordings`), when the file gives the value under that name.
        const spelled = keyOf(edit.text, value);
        const key = squash(spelled) === squash(name) ? spelled : name;
        const subject = `setting:${edit.path}:${squash(name)}`;
        if (seen.has(subject)) continue;
        seen.add(subject);
        out.push(
          extracted(
            'decision',
            `${key} = ${value} (the user's choice)`,
            `The user chose ${key} = ${value} (“${clip(sentence, 200)}”), and it was set in ${edit.path}.`,
            u,
            0.8,
            {
              facts: [`chosen: ${key} = ${value}`, `file: ${edit.path}`, `said: ${clip(sentence, 200)}`],
              concepts: ['decision', 'setting', 'user'],
              filesModified: [edit.path],
              subject,
              trust: 'user',
            },
          ),
        );
      }
    }
  }
  return out;
}

/**
 * Text as engram may store it: no control characters, no broken UTF-16. Whatever stores text
 * downstream (PostgreSQL's `text` and `jsonb` refuse NUL and lone surrogates, terminals act on escape
 * codes, YAML and Markdown choke on the rest) can then take every record engram keeps.
 *
 * The rule: line feeds and tabs stay; a carriage return becomes a line feed (`\r\n` one line feed);
 * ANSI escape sequences (colours and cursor moves from tool output: CSI `ESC [ … final`, OSC
 * `ESC ] … BEL|ESC \`, two-character `ESC x`) are removed whole, so no `[31m` debris is left; every
 * other C0 control (NUL, BEL, backspace, vertical tab, form feed, ESC …), DEL and the C1 controls
 * (U+0080–U+009F) are removed; a lone surrogate becomes U+FFFD. Pure, and a no-op (one regex test)
 * on text that holds none of them.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NEEDS_CLEANING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- as above
const ANSI = /\u001b(?:\[[0-?]{0,64}[ -/]{0,8}[@-~]|\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` without control characters or lone surrogates (see the module's rule). */
export function cleanText(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return text
    .replace(ANSI, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, '')
    .replace(LONE_SURROGATE, '\ufffd');
}

/** Whether `text` holds something `cleanText` would change (what a receiving server refuses). */
export function hasControlText(text: string): boolean {
  return NEEDS_CLEANING.test(text) && cleanText(text) !== text;
}

// eslint-disable-next-line no-control-regex -- as above
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What a strict text store (PostgreSQL `text` and `jsonb`) refuses outright in `text`: a NUL or a lone
 * surrogate, named for a message; null when it has neither. Other controls are stored as they are.
 */
export function unstorableCharacter(text: string): string | null {
  const m = UNSTORABLE.exec(text);
  if (m === null) return null;
  return m[0] === '\u0000' ? 'a NUL character (U+0000)' : 'half of a UTF-16 surrogate pair';
}

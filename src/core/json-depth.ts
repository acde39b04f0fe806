/**
 * How deeply a JSON text nests, found in one pass over the text before it is parsed: a request body
 * nested thousands of levels deep parses, then overflows the stack of whatever walks it. Brackets
 * inside strings do not count.
 */

/** The deepest nesting a request body may have (engram's own bodies nest three or four levels). */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` (JSON) nests arrays and objects deeper than `max`. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: jump to its closing quote (indexOf, not a character at a time — a body is mostly
      // text). A quote after an odd run of backslashes is escaped; unterminated, nothing nests further.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

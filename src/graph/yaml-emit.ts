/**
 * Frontmatter as engram writes it: a flat mapping of strings, numbers, booleans and lists of strings,
 * emitted directly (the yaml library's general stringifier costs more than the rest of a note's
 * rendering). Strings are plain when YAML reads them back as the same string, else double-quoted
 * (JSON escapes are YAML escapes). Reading stays with the yaml library.
 */

export type FrontmatterValue = string | number | boolean | readonly string[];

/** A plain scalar YAML would read back as this very string (not a number, bool, null, date…). */
function plainSafe(s: string): boolean {
  if (s === '' || s !== s.trim() || /[\n\r\t]/.test(s)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) || /: |:$| #/.test(s)) return false;
  if (/^(?:true|false|yes|no|on|off|null|~|y|n)$/i.test(s)) return false;
  if (/^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+|0x[\da-f]+|0o[0-7]+|\.inf|\.nan)$/i.test(s))
    return false;
  return true;
}

function scalar(s: string): string {
  return plainSafe(s) ? s : JSON.stringify(s);
}

/** `key: value` lines for the given values (undefined ones left out), in order. */
export function emitFrontmatter(values: Readonly<Record<string, FrontmatterValue | undefined>>): string {
  const lines: string[] = [];
  for (const key in values) {
    const value = values[key];
    if (value === undefined) continue;
    if (typeof value === 'number' || typeof value === 'boolean') lines.push(`${key}: ${String(value)}`);
    else if (typeof value === 'string') lines.push(`${key}: ${scalar(value)}`);
    else if (value.length === 0) lines.push(`${key}: []`);
    else lines.push(`${key}:`, ...value.map((v) => `  - ${scalar(v)}`));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * Code identifiers split into words, for the full-text index and for queries.
 */

/** A word written in camelCase or PascalCase (`parseConfigFile`, `HTTPServer`). */
export const CASED_IDENTIFIER = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;

/**
 * The parts of code identifiers in `text` that a word tokenizer would not find on its own:
 * `parseConfigFile` → `parse config file`, `HTTPServer` → `http server`. Indexed beside the text so a
 * search for "config file" finds `parseConfigFile`.
 */
export function identifierParts(text: string): string[] {
  const out = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9]{2,63}/g)) {
    if (!CASED_IDENTIFIER.test(match[0])) continue;
    const parts = match[0]
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(' ')
      .filter((p) => p.length >= 2);
    for (const p of parts) out.add(p);
  }
  return [...out];
}

/** The `search_terms` text stored beside a memory: identifier parts of all its text, deduplicated. */
export function searchTermsOf(texts: readonly string[], max = 200): string {
  const out = new Set<string>();
  for (const text of texts) {
    for (const part of identifierParts(text)) {
      out.add(part);
      if (out.size >= max) return [...out].join(' ');
    }
  }
  return [...out].join(' ');
}

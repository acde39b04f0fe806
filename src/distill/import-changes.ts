/**
 * Which imported names an edit removed and added, by module — in JavaScript/TypeScript, Python, Go,
 * Rust, Ruby, Elixir, Java/Kotlin and PHP. An edit that swaps one imported API for another (`tool`
 * → `DynamicStructuredTool` from `@langchain/core/tools`) is how a fix says "this API did not work
 * the way it looked".
 */
export interface ImportedName {
  name: string;
  from: string;
  /** The word that brings a whole module in, when it is not `import` (Elixir's `alias`, `use`, `require`). */
  how?: string;
}

export interface ImportChanges {
  added: ImportedName[];
  removed: ImportedName[];
}

const key = (n: ImportedName) => `${n.from}\u0000${n.name}`;

function namesIn(text: string): ImportedName[] {
  const out: ImportedName[] = [];
  const push = (from: string, names: string) => {
    for (const raw of names.split(',')) {
      const name =
        raw
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (/^[\w$*.]+$/.test(name) && name !== '') out.push({ name, from });
    }
  };
  for (const m of text.matchAll(
    /^\s*import\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+([\w$]+))?\s*from\s+['"]([^'"]+)['"]/gm,
  )) {
    const from = m[4] as string;
    if (m[1]) push(from, m[1]);
    if (m[2]) push(from, m[2]);
    if (m[3]) push(from, m[3]);
  }
  for (const m of text.matchAll(
    /\b(?:const|let|var)\s+(?:\{([^}]*)\}|([\w$]+))\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g,
  ))
    push(m[3] as string, (m[1] ?? m[2]) as string);
  for (const m of text.matchAll(/^\s*from\s+([\w.]+)\s+import\s+\(?([^)\n]+)\)?/gm))
    push(m[1] as string, m[2] as string);
  for (const m of text.matchAll(/^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)(?:\s+as\s+\w+)?\s*$/gm))
    for (const mod of (m[1] as string).split(',')) out.push({ name: mod.trim(), from: mod.trim() });
  for (const m of text.matchAll(/^\s*(?:import\s+)?(?:[\w.]+\s+)?"([\w./-]+)"\s*$/gm))
    out.push({ name: m[1] as string, from: m[1] as string });
  for (const m of text.matchAll(/^\s*use\s+([\w:]+?)(?:::\{([^}]*)\}|::(\w+))?\s*;/gm)) {
    if (m[2]) push(m[1] as string, m[2]);
    else if (m[3]) push(m[1] as string, m[3]);
    else out.push({ name: m[1] as string, from: m[1] as string });
  }
  for (const m of text.matchAll(/^\s*(?:require|require_relative)\s+['"]([^'"]+)['"]/gm))
    out.push({ name: m[1] as string, from: m[1] as string });
  for (const m of text.matchAll(/^\s*(alias|import|use|require)\s+([A-Z][\w.]*)(?:\s*,|\s*$)/gm))
    out.push({
      name: m[2] as string,
      from: m[2] as string,
      ...(m[1] === 'import' ? {} : { how: m[1] as string }),
    });
  for (const m of text.matchAll(/^\s*import\s+(?:static\s+)?([\w.]+)\.(\w+|\*)\s*;/gm))
    out.push({ name: m[2] as string, from: m[1] as string });
  for (const m of text.matchAll(/^\s*use\s+([\w\\]+)\\(\w+)\s*;/gm))
    out.push({ name: m[2] as string, from: m[1] as string });
  // A line two languages' forms both read (`import Phoenix.ChannelTest`) names its module once.
  const seen = new Set<string>();
  return out.filter((n) => {
    const k = key(n);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The imported names an edit (old text → new text) removed and added. */
export function importChanges(before: string, after: string): ImportChanges {
  const a = namesIn(before);
  const b = namesIn(after);
  const had = new Set(a.map(key));
  const has = new Set(b.map(key));
  return {
    added: b.filter((n) => !had.has(key(n))),
    removed: a.filter((n) => !has.has(key(n))),
  };
}

/**
 * "use `DynamicStructuredTool` instead of `tool` (@langchain/core/tools); import `z` from zod", or ''.
 * With nothing imported instead, only the imports dropped from a module the error names ("Cannot find
 * module '@testing-library/react'"): "drop the import from @testing-library/react".
 */
export function describeImportSwap(edits: ImportChanges, error = ''): string {
  // Several edits: a name one took out and another put back was not swapped.
  const back = new Set(edits.added.map(key));
  const out = new Set(edits.removed.map(key));
  const c: ImportChanges = {
    added: edits.added.filter((n) => !out.has(key(n))),
    removed: edits.removed.filter((n) => !back.has(key(n))),
  };
  if (c.added.length === 0) {
    const named = c.removed.filter((r) => r.from.length > 1 && error.includes(r.from));
    const from = named[0]?.from;
    if (from === undefined) return '';
    return `drop the import from ${from}`;
  }
  const parts: string[] = [];
  const used = new Set<string>();
  for (const r of c.removed) {
    const replacement = c.added.filter((x) => x.from === r.from && !used.has(key(x)));
    if (replacement.length === 0) continue;
    for (const x of replacement) used.add(key(x));
    parts.push(
      `use ${replacement.map((x) => `\`${x.name}\``).join(', ')} instead of \`${r.name}\` (${r.from})`,
    );
  }
  const rest = c.added.filter((x) => !used.has(key(x)));
  if (parts.length === 0 && c.removed.length === 0) return '';
  // A module brought in whole (Elixir's `alias X.Y`, Python's `import x`) is named once, with the
  // word the code brings it in by.
  if (rest.length > 0)
    parts.push(
      rest.every((x) => x.name === x.from)
        ? `${rest[0]?.how ?? 'import'} ${rest.map((x) => `\`${x.name}\``).join(', ')}`
        : `import ${rest.map((x) => `\`${x.name}\``).join(', ')} from ${rest[0]?.from ?? ''}`,
    );
  return parts.join('; ');
}

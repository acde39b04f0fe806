/**
 * Dependency changes made by editing a manifest (package.json, requirements.txt, Cargo.toml, go.mod)
 * rather than by a package-manager command.
 */

export interface DependencyChanges {
  added: string[];
  removed: string[];
  updated: string[];
}

const EMPTY: DependencyChanges = { added: [], removed: [], updated: [] };
const NPM_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
const VERSION_SPEC =
  /^(?:[\^~<>=v]*\d|workspace:|npm:|file:|link:|git[+:]|github:|https?:|latest$|next$|\*$)/;
const NOT_DEPENDENCIES = new Set(
  'name version node npm pnpm yarn bun edition authors license description rust-version python'.split(' '),
);

export function isManifest(file: string): boolean {
  return /(?:^|\/)(?:package\.json|requirements[\w.-]*\.txt|Cargo\.toml|go\.mod)$/.test(file);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null; // not (whole) JSON: the caller falls back to reading the edited lines
  }
}

function npmDependencies(pkg: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const section of NPM_SECTIONS) {
    const deps = pkg[section];
    if (deps === null || typeof deps !== 'object' || Array.isArray(deps)) continue;
    for (const [name, version] of Object.entries(deps as Record<string, unknown>)) {
      out.set(name, typeof version === 'string' ? version : '');
    }
  }
  return out;
}

/** name → version pairs visible in a fragment of a manifest. */
function fragmentDependencies(file: string, text: string): Map<string, string> {
  const out = new Map<string, string>();
  const add = (name: string | undefined, version: string | undefined) => {
    if (name && !NOT_DEPENDENCIES.has(name)) out.set(name, version ?? '');
  };
  if (file.endsWith('package.json')) {
    for (const m of text.matchAll(/"([^"\s]+)"\s*:\s*"([^"]*)"/g)) {
      if (VERSION_SPEC.test(m[2] ?? '')) add(m[1], m[2]);
    }
  } else if (/requirements[\w.-]*\.txt$/.test(file)) {
    for (const m of text.matchAll(
      /^\s*([A-Za-z0-9][\w.-]*(?:\[[\w,-]+\])?)\s*((?:[=<>!~]=?|===)[^\s#;]+)?/gm,
    )) {
      add(m[1]?.replace(/\[.*\]$/, ''), m[2]);
    }
  } else if (file.endsWith('Cargo.toml')) {
    for (const m of text.matchAll(
      /^\s*([A-Za-z0-9_-]+)\s*=\s*(?:"([^"]*)"|\{[^}\n]*?version\s*=\s*"([^"]*)")/gm,
    )) {
      add(m[1], m[2] ?? m[3]);
    }
  } else if (file.endsWith('go.mod')) {
    for (const m of text.matchAll(/^\s*(?:require\s+)?([\w.-]+\.[\w.-]+\/[\w./-]+)\s+(v[\w.+-]+)/gm))
      add(m[1], m[2]);
  }
  return out;
}

function diff(before: Map<string, string>, after: Map<string, string>): DependencyChanges {
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const updated = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  return { added, removed, updated };
}

/**
 * What an edit did to a manifest's dependencies. `beforeFile`/`afterFile`: the whole file before and
 * after, when known (exact for package.json); otherwise the edited fragments are compared.
 */
export function dependencyEdits(
  file: string,
  fragments: { before: string; after: string },
  whole: { before: string | null; after: string | null } = { before: null, after: null },
): DependencyChanges {
  if (!isManifest(file)) return EMPTY;
  if (file.endsWith('package.json')) {
    const after = whole.after !== null ? parseObject(whole.after) : null;
    const before = whole.before !== null ? parseObject(whole.before) : null;
    if (after && (before || whole.before === '')) {
      return diff(before ? npmDependencies(before) : new Map(), npmDependencies(after));
    }
  }
  return diff(fragmentDependencies(file, fragments.before), fragmentDependencies(file, fragments.after));
}

/** The file after an Edit, when the file before it is known. */
export function applyEdit(
  original: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
): string | null {
  if (oldText === '' || !original.includes(oldText)) return null;
  return replaceAll ? original.split(oldText).join(newText) : original.replace(oldText, () => newText);
}

// Fails when the relative imports under src/ form a cycle: static, type-only (a cycle of types still
// ties modules together), side-effect and dynamic `import('./x.ts')` alike. Prints each cycle found.
// Part of `npm run lint`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)), 'src');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const graph = new Map();
for (const file of files(root)) {
  const text = readFileSync(file, 'utf8');
  const deps = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+\.ts)['"]/gm, // import/export … from
    /^\s*import\s+['"](\.{1,2}\/[^'"]+\.ts)['"]/gm, // import './x.ts' (side effects)
    /\bimport\(\s*['"](\.{1,2}\/[^'"]+\.ts)['"]\s*\)/g, // import('./x.ts')
  ];
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) deps.push(resolve(dirname(file), m[1]));
  }
  graph.set(file, deps);
}

const cycles = [];
const state = new Map(); // 1 = on stack, 2 = done
const stack = [];
function visit(node) {
  state.set(node, 1);
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    if (!graph.has(dep)) continue;
    if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
    else if (!state.has(dep)) visit(dep);
  }
  stack.pop();
  state.set(node, 2);
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (cycles.length > 0) {
  for (const cycle of cycles)
    console.error(`import cycle: ${cycle.map((f) => relative(root, f)).join(' → ')}`);
  process.exit(1);
}
console.log(`no import cycles among ${graph.size} modules`);

/**
 * A handful of lower-case keywords for an observation: words from the request, languages and tools
 * involved, and the stems of the files touched.
 */
import { languageOf } from './code-symbols.ts';

const LANGUAGE_NAMES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  rb: 'ruby',
  php: 'php',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  swift: 'swift',
  sql: 'sql',
  md: 'docs',
  mdx: 'docs',
  css: 'css',
  scss: 'css',
  html: 'html',
  sh: 'shell',
  ex: 'elixir',
  exs: 'elixir',
  heex: 'elixir',
  vue: 'vue',
  svelte: 'svelte',
  dart: 'dart',
  scala: 'scala',
  tf: 'terraform',
  yml: 'yaml',
  yaml: 'yaml',
};

const STOP = new Set(
  `please should would could there their about which where these those thing things make want need
  instead using when what with from into that this then than also just file files code the and for you
  your can does doesnt dont don't isnt it's its have has had was were will been being some more most
  other only very really still seem seems back again right left now here like sure okay yes not but
  all any each every out our over under after before while why how who whom whose get got let lets
  add adds added adding implement implemented create created creating fix fixed fixes fixing update
  updated change changed changing remove removed run running make makes made use used uses work works
  working look looks try tried check see show tell explain find know think thing stuff something
  anything everything everywhere same new old way ways sure able first last next one two three into
  maybe because perhaps probably actually already seem seems seemed might must shall
  well also them they then there those being done doing does did make sure want wanted needs needed`
    .split(/\s+/)
    .filter(Boolean),
);

/** The tools a turn's commands name that are worth a keyword (test runners, package managers…). */
const TOOL_WORDS =
  /\b(vitest|jest|mocha|pytest|cargo|go test|mix|rspec|phpunit|playwright|cypress|eslint|prettier|tsc|webpack|vite|esbuild|docker|git|npm|pnpm|yarn|bun|pip|poetry|uv|gradle|maven|make)\b/;

export interface ConceptSources {
  prompt: string;
  files: readonly string[];
  commands: readonly string[];
  extra?: readonly string[];
}

export function conceptsOf(s: ConceptSources, max = 8): string[] {
  const out: string[] = [];
  const push = (word: string) => {
    const w = word.toLowerCase().trim();
    if (w !== '' && w.length <= 30 && !out.includes(w) && out.length < max) out.push(w);
  };
  for (const x of s.extra ?? []) push(x);
  let fromPrompt = 0;
  const words = s.prompt
    .toLowerCase()
    .replace(/\[redacted:[^\]]*\]/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .matchAll(/[a-z][a-z0-9_.-]*[a-z0-9]/g);
  for (const m of words) {
    const w = m[0].replace(/\.(?:ts|js|py|go|rs|md|json)$/, '');
    if (w.length < 4 || STOP.has(w) || /^\d/.test(w) || w.includes('/')) continue;
    if (fromPrompt >= 4) break;
    if (!out.includes(w)) fromPrompt++;
    push(w);
  }
  const inside = s.files.filter((f) => !f.startsWith('/'));
  for (const f of inside) {
    const ext = /\.([a-z0-9]+)$/i.exec(f)?.[1]?.toLowerCase();
    const lang = ext ? LANGUAGE_NAMES[ext] : undefined;
    if (lang && languageOf(f) !== 'json') push(lang);
  }
  for (const c of s.commands) {
    const tool = TOOL_WORDS.exec(c)?.[1];
    if (tool) push(tool);
  }
  for (const f of inside) {
    const stem = /([^/]+?)(?:\.[^./]+)*$/.exec(f)?.[1]?.toLowerCase() ?? '';
    if (
      stem.length >= 3 &&
      stem.length <= 24 &&
      !/^(?:index|main|mod|init|__init__|test|tests|readme)$/.test(stem) &&
      !/^\d/.test(stem)
    )
      push(stem);
  }
  return out;
}

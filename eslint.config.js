// Lint: typescript-eslint recommended and the rules ARCHITECTURE.md claims: layer imports, no console,
// process.exit only in surfaces/, process.env only in surfaces/engram-home.ts. Import cycles are checked by
// scripts/check-cycles.mjs (static, type-only and dynamic imports), the other half of `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Each layer may import only from the layers listed (and itself). */
const LAYERS = {
  core: [],
  store: ['core'],
  capture: ['core'],
  distill: ['core'],
  recall: ['core', 'store'],
  graph: ['core', 'store'],
  app: ['core', 'store', 'capture', 'distill', 'recall', 'graph'],
  worker: ['core', 'store', 'capture', 'distill', 'recall', 'graph', 'app', 'team'],
  surfaces: ['core', 'store', 'capture', 'distill', 'recall', 'graph', 'app', 'worker', 'team'],
  team: ['core'],
};
const ALL = Object.keys(LAYERS);
/** Layers allowed only some files of another: the sync client (worker) uses team's wire protocol, never its server. */
const ONLY = {
  worker: { team: ['protocol.ts', 'record-hash.ts', 'record-seal.ts', 'key-wrap.ts', 'api-client.ts'] },
};

const EXIT_RULE = { object: 'process', property: 'exit', message: 'Only surfaces/ may exit the process.' };
const ENV_RULE = {
  object: 'process',
  property: 'env',
  message: 'Only surfaces/engram-home.ts reads process.env; take the environment as an argument.',
};

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const forbidden = ALL.filter((l) => l !== layer && !allowed.includes(l));
  const partial = Object.entries(ONLY[layer] ?? {}).map(([l, files]) => ({
    group: [`**/${l}/*`, `**/${l}/**`, ...files.map((f) => `!**/${l}/${f}`)],
    message: `${layer}/ may import only ${files.join(', ')} from ${l}/ (see ARCHITECTURE.md, layer rules)`,
  }));
  return {
    files: [`src/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map((l) => ({
              group: [`**/${l}/*`, `**/${l}/**`],
              message: `${layer}/ may not import from ${l}/ (see ARCHITECTURE.md, layer rules)`,
            })),
            ...partial,
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/.build-*/', '.bench-against-*/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  ...layerRules,
  {
    // Output and process control belong to the edges; configuration is resolved once, so only the
    // runtime reads the environment (everything else is handed what it needs).
    files: ['src/**/*.ts'],
    ignores: ['src/surfaces/**', '**/*.test.ts', '**/*.test-support.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': ['error', EXIT_RULE, ENV_RULE],
    },
  },
  {
    files: ['src/surfaces/**/*.ts'],
    ignores: ['src/surfaces/engram-home.ts', '**/*.test.ts', '**/*.test-support.ts'],
    rules: { 'no-console': 'error', 'no-restricted-properties': ['error', ENV_RULE] },
  },
  {
    // Plain CommonJS scripts shipped as they are (the Claude Code plugin's hook launcher).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

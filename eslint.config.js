// Lint: typescript-eslint recommended and the layer rules of ARCHITECTURE.md (import cycles are
// checked by scripts/check-cycles.mjs, also part of `npm run lint`).
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
  worker: ['core', 'store', 'capture', 'distill', 'recall', 'graph'],
  surfaces: ['core', 'store', 'capture', 'distill', 'recall', 'graph', 'worker'],
  team: ['core'],
};
const ALL = Object.keys(LAYERS);

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const forbidden = ALL.filter((l) => l !== layer && !allowed.includes(l));
  return {
    files: [`src/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.map((l) => ({
            group: [`**/${l}/*`, `**/${l}/**`],
            message: `${layer}/ may not import from ${l}/ (see ARCHITECTURE.md, layer rules)`,
          })),
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/.build-*/'] },
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
    // Output and process control belong to the edges.
    files: ['src/**/*.ts'],
    ignores: ['src/surfaces/**', '**/*.test.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only surfaces/ may exit the process.' },
      ],
    },
  },
  {
    files: ['src/surfaces/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);

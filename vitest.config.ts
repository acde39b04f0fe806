import { defineConfig, type Plugin } from 'vitest/config';

/** Load `.sql` files as text, as the esbuild bundles do. */
const sqlText: Plugin = {
  name: 'sql-text',
  transform(code, id) {
    if (!id.endsWith('.sql')) return null;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

export default defineConfig({
  plugins: [sqlText],
  test: {
    projects: [
      {
        plugins: [sqlText],
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [sqlText],
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

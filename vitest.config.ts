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
    // Build dist/ once for the whole run (per-project setups could rebuild it under a running test).
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        plugins: [sqlText],
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [sqlText],
        test: {
          // Real headless Chromium against the real `engram ui` (scripts/ensure-chromium.mjs installs it).
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        plugins: [sqlText],
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

/**
 * The MCP server's entry (bundled to dist/mcp.mjs, loaded only by `engram mcp`): stdio transport.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { join } from 'node:path';
import { openDatabase } from '../../store/database.ts';
import { loadSqliteVec } from '../../store/sqlite-vec-loader.ts';
import { createEmbedderFromConfig } from '../../recall/embedders/from-config.ts';
import { createStore } from '../../store/store.ts';
import { loadPrices } from '../prices-file.ts';
import { ensureHome, type Runtime } from '../runtime.ts';
import { runtimeHealthDeps } from '../cli/health-deps.ts';
import { createMcpServer } from './server.ts';

export async function runMcpServer(runtime: Runtime, cwd: string): Promise<void> {
  const server = createMcpServer({
    cwd,
    projectLinks: runtime.projectLinks,
    now: Date.now,
    embedder: createEmbedderFromConfig(runtime.config, { env: runtime.env, engramHome: runtime.home }),
    queryTimeoutMs: runtime.config['embed.queryTimeoutMs'],
    backupDir: runtime.paths.backupDir,
    statusDeps: () => runtimeHealthDeps(runtime, { cwd, now: Date.now() }),
    metricsDeps: () => {
      const pricesFile = join(runtime.home, 'prices.json');
      return { config: runtime.config, prices: loadPrices(pricesFile), pricesFile };
    },
    inboxDir: runtime.paths.inboxDir,
    openStore: () => {
      ensureHome(runtime.paths);
      return createStore(openDatabase(runtime.paths.db), { loadVectorExtension: loadSqliteVec });
    },
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}

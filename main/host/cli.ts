/**
 * `npm run start:web`: the app in a normal browser, served from loopback.
 * Prints the URL (with the per-run key) to open. Stop with Ctrl+C.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { composeApp } from '../app/compose';
import { nodeRuntime, readPackageVersion } from '../app/runtime-info';
import { createLogger } from '../log/logger';
import { browserModeDataDir } from '../services/profiles/data-dir';
import { startWebHost } from './web-host';

const root = join(import.meta.dirname, '..', '..');
const staticDir = join(root, 'out', 'renderer');
if (!existsSync(join(staticDir, 'index.html'))) {
  console.error(`The renderer is not built (${staticDir}/index.html is missing). Run: npm run build`);
  process.exit(1);
}

const logger = createLogger({ level: (process.env.EGRESS_DESK_LOG_LEVEL as 'debug' | 'info' | undefined) ?? 'info' });
const app = composeApp({
  mode: 'browser',
  version: readPackageVersion(root),
  runtime: nodeRuntime(),
  logger,
  dataDir: browserModeDataDir(),
});
const port = process.env.EGRESS_DESK_PORT ? Number(process.env.EGRESS_DESK_PORT) : 0;
const host = await startWebHost({ router: app.router, bus: app.bus, staticDir, logger, port });

process.stdout.write(`\nEgress Desk (browser mode) is running.\nOpen: ${host.url}\n\n`);

const stop = async () => {
  await host.close();
  await app.dispose();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

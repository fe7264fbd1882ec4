/**
 * `npm run start:web`: the app in a normal browser, served from loopback.
 * Prints the URL (with the run key) to open. Stop with Ctrl+C. The port and
 * key are kept in the data folder and reused by the next run, so a page left
 * open reconnects by itself after a restart (run-state.ts); with a data
 * folder it cannot write (read-only, full) it still runs, and says they are
 * not kept.
 * If it cannot start, it says why and where its data folder is, and exits
 * non-zero.
 * `npm run build` bundles this entry to out/main/web-host.js, which plain
 * Node runs (no TypeScript compile at launch, never an electron import);
 * tests may still run this file from source with tsx. Both resolve the
 * repository root two folders up.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { composeApp, type ComposedApp } from '../app/compose';
import { nodeRuntime, readPackageVersion } from '../app/runtime-info';
import { createLogger } from '../log/logger';
import { browserModeDataDir } from '../files/data-dir';
import { keepRunState, readRunState, portTaken } from './run-state';
import { newRunKey } from './socket-auth';
import { startWebHost, type WebHost } from './web-host';

const root = join(import.meta.dirname, '..', '..');
const staticDir = join(root, 'out', 'renderer');
if (!existsSync(join(staticDir, 'index.html'))) {
  console.error(`The renderer is not built (${staticDir}/index.html is missing). Run: npm run build`);
  process.exit(1);
}

const logger = createLogger({ level: (process.env.EGRESS_DESK_LOG_LEVEL as 'debug' | 'info' | undefined) ?? 'info' });
const dataDir = browserModeDataDir();

async function main(): Promise<void> {
  let app: ComposedApp | undefined;
  try {
    app = composeApp({
      mode: 'browser',
      version: readPackageVersion(root),
      runtime: nodeRuntime(),
      logger,
      dataDir,
    });
    // The previous run's port and key, so a page left open reconnects by itself (run-state.ts).
    const previous = process.env.EGRESS_DESK_NEW_KEY === '1' ? undefined : readRunState(dataDir);
    const key = previous?.key ?? newRunKey();
    const chosenPort = process.env.EGRESS_DESK_PORT ? Number(process.env.EGRESS_DESK_PORT) : undefined;
    const options = { router: app.router, bus: app.bus, staticDir, logger, key };
    let host: WebHost;
    try {
      host = await startWebHost({ ...options, port: chosenPort ?? previous?.port ?? 0 });
    } catch (e) {
      // Only the remembered port may be given up: a port asked for explicitly that is taken is an error.
      if (chosenPort !== undefined || !previous?.port || !portTaken(e)) throw e;
      logger.warn('browser mode: the previous port is taken; using a new one', { port: previous.port });
      host = await startWebHost({ ...options, port: 0 });
    }
    const kept = keepRunState(dataDir, { port: host.port, key: host.key });
    if (!kept.kept) logger.warn('browser mode: the port and run key are not kept for the next run', { dataDir, reason: kept.reason });
    process.stdout.write(`\nEgress Desk (browser mode) is running.\nOpen: ${host.url}\n${kept.kept ? '' : `${kept.notice}\n`}\n`);

    const composed = app;
    const stop = async () => {
      try {
        await host.close();
        await composed.dispose();
      } finally {
        process.exit(0);
      }
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    logger.error('browser mode could not start', { error: message });
    console.error(`\nEgress Desk (browser mode) could not start: ${message}\nData folder: ${dataDir}\n`);
    // Let the services stop what they started (the demo simulator), but never wait long to say goodbye.
    await Promise.race([app?.dispose().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    process.exit(1);
  }
}

await main();

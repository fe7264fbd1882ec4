/** Starts the browser-mode host in-process over the built renderer, as `npm run start:web` does. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { composeApp, type ComposedApp } from '../../main/app/compose';
import { nodeRuntime } from '../../main/app/runtime-info';
import { startWebHost, type WebHost } from '../../main/host/web-host';
import { createMemoryLogger } from '../../main/log/logger';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const rendererDir = join(repoRoot, 'out', 'renderer');

export function rendererMissingReason(): string | undefined {
  return existsSync(join(rendererDir, 'index.html'))
    ? undefined
    : 'the renderer is not built (out/renderer/index.html missing): run `npm run build` first';
}

export interface TestHost {
  host: WebHost;
  app: ComposedApp;
  logger: ReturnType<typeof createMemoryLogger>;
  close(): Promise<void>;
}

export async function startTestHost(statusIntervalMs = 200): Promise<TestHost> {
  const logger = createMemoryLogger('debug');
  const app = composeApp({ mode: 'browser', version: '0.0.0-test', runtime: nodeRuntime(), logger, statusIntervalMs });
  const host = await startWebHost({ router: app.router, bus: app.bus, staticDir: rendererDir, logger });
  return {
    host,
    app,
    logger,
    async close() {
      await host.close();
      await app.dispose();
    },
  };
}

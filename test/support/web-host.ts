/** Starts the browser-mode host in-process over the built renderer, as `npm run start:web` does. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { composeApp, type ComposedApp, type ComposeOptions } from './compose-app';
import { demoCredentials, startDemoCluster, type DemoCluster } from '../../main/services/demo/demo-cluster';
import { nodeRuntime } from '../../main/app/runtime-info';
import { startWebHost, type WebHost, type WebHostOptions } from '../../main/host/web-host';
import type { Router } from '../../main/ipc/router';
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
  /** The simulated demo cluster, when started with `demoTimeScale`. */
  demo: Promise<DemoCluster> | undefined;
  close(): Promise<void>;
}

export interface TestHostOptions {
  statusIntervalMs?: number;
  /** Profiles and the task journal live here; a second host on the same folder finds what the first left. */
  dataDir?: string;
  /** Start the demo cluster with its simulator at this time scale (0.02: a create takes about a second). */
  demoTimeScale?: number;
  monitoring?: ComposeOptions['monitoring'];
  tasks?: ComposeOptions['tasks'];
  /** `off` skips the simulated demo cluster (a host test that needs no cluster). */
  demo?: ComposeOptions['demo'];
  /** Host options beyond the composed app's router, bus and logger (limits, static folder). */
  host?: Partial<Omit<WebHostOptions, 'router' | 'bus' | 'logger'>>;
  /** Wraps the app's router before the host gets it (to count or slow dispatches). */
  wrapRouter?: (router: Router) => Router;
}

export async function startTestHost(options: number | TestHostOptions = 200): Promise<TestHost> {
  const o = typeof options === 'number' ? { statusIntervalMs: options } : options;
  const logger = createMemoryLogger('debug');
  const app = composeApp({
    mode: 'browser',
    version: '0.0.0-test',
    runtime: nodeRuntime(),
    logger,
    statusIntervalMs: o.statusIntervalMs ?? 200,
    dataDir: o.dataDir,
    monitoring: o.monitoring,
    tasks: o.tasks,
    ...(o.demoTimeScale !== undefined ? { demo: 'off' as const } : o.demo !== undefined ? { demo: o.demo } : {}),
  });
  const timeScale = o.demoTimeScale;
  // As the app's own demo: its proxies ask for credentials the app keeps (main/app/compose.ts).
  const demo =
    timeScale === undefined
      ? undefined
      : startDemoCluster(logger, timeScale).then(async (d) => {
          await demoCredentials(d, app.credentials);
          return d;
        });
  if (demo) app.profiles.startDemo(() => demo);
  const router = o.wrapRouter ? o.wrapRouter(app.router) : app.router;
  const host = await startWebHost({ staticDir: rendererDir, ...o.host, router, bus: app.bus, logger });
  return {
    host,
    app,
    logger,
    demo,
    async close() {
      await host.close();
      await app.dispose();
    },
  };
}

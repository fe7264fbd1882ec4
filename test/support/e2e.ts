/**
 * The one set-up of an end-to-end test (issue 21): the browser-mode host
 * over the built renderer (web-host.ts), Debian's Chromium (browser.ts) and
 * a page on the host, watched for what a page must never do (an uncaught
 * error, a Content Security Policy violation: watchPageProblems), all closed
 * after the block; the block skips, saying why, without Chromium or a built
 * renderer; and its last test checks the watch found nothing. A new e2e test:
 *
 *   describeE2e('the Nodes view', { host: { demoTimeScale: 0.02 } }, ({ page }) => {
 *     it('lists the nodes', async () => { … page.getByRole(…) … });
 *   });
 *
 * The host, page, browser and demo are set up in beforeAll, after the block
 * is declared: what the body gets are stand-ins that forward to them (a
 * Proxy), so it can name them at once and use them in its tests and hooks.
 * A hook of the body runs after this set-up and before its teardown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCluster } from '../../main/services/demo/demo-cluster';
import { chromiumMissingReason, launchChromium, watchPageProblems } from './browser';
import { rendererMissingReason, startTestHost, type TestHost, type TestHostOptions } from './web-host';

/** Why e2e tests cannot run here (no Chromium, no built renderer), or undefined. */
export const e2eSkipReason = chromiumMissingReason() ?? rendererMissingReason();

export type Viewport = { width: number; height: number };

/** The host most e2e tests use: the demo cluster at 1/50 of Proxmox's time (a create takes about a second), listed every 0.3 s. */
export const demoHost: TestHostOptions = { demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 } } };

export interface E2eOptions {
  /** The host's options, or a function of the context that gives them (after `before`, with `dataDir` set). */
  host?: TestHostOptions | ((e: E2e) => TestHostOptions);
  /** A fresh data folder for the host (`e.dataDir`), deleted afterwards; the string names it. */
  dataDir?: string;
  /** The page's size; Playwright's own (1280×720) when absent. */
  viewport?: Viewport;
  /** Open the host's page once set up (default); false: the test opens it (to count a first load, or to listen first). */
  goto?: boolean;
  /** No page at all: the test opens its own with `newPage`. */
  page?: false;
  /** Runs first, before the host starts (a simulator for the wizard to connect to). */
  before?: (e: E2e) => Promise<void>;
  /** Runs last, after the browser and the host are closed. */
  after?: () => Promise<void>;
}

export interface E2e {
  /** The host now running (a stand-in: stopHost and startHost replace what it forwards to). */
  host: TestHost;
  browser: Browser;
  /** The page opened on the host, watched. */
  page: Page;
  /** The demo cluster, started with the host when `demoTimeScale` is given; set up before the page opens. */
  demo: DemoCluster;
  /** Uncaught page errors and CSP violations of every page opened here; the block's last test expects none. */
  problems: string[];
  /** The data folder, with the `dataDir` option. */
  readonly dataDir: string;
  /** Another page on the same browser, watched the same way. */
  newPage(viewport?: Viewport): Promise<Page>;
  /** Main goes away: its sockets are cut and its services stop, as when the process dies. */
  stopHost(): Promise<void>;
  /** Main again with the block's options, and `extra` (the same port and run key); waits for the demo. */
  startHost(extra?: Partial<TestHostOptions>): Promise<TestHost>;
}

/** An object that forwards to what `current()` holds when used; using it before the set-up says so. */
function standIn<T extends object>(what: string, current: () => T | undefined): T {
  const target = () => {
    const value = current();
    if (value === undefined) throw new Error(`the e2e ${what} is not set up here: use it in a test or a hook`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const value = target();
      const got: unknown = Reflect.get(value, key, value);
      return typeof got === 'function' ? (got as (...a: unknown[]) => unknown).bind(value) : got;
    },
    set(_, key, v) {
      return Reflect.set(target(), key, v);
    },
    has(_, key) {
      return Reflect.has(target(), key);
    },
  });
}

/** Sets up the host, browser and page of the enclosing describe block (beforeAll/afterAll) and returns them. */
export function useE2e(options: E2eOptions = {}): E2e {
  let host: TestHost | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let demo: DemoCluster | undefined;
  let dataDir: string | undefined;
  let hostOptions: TestHostOptions = {};
  const problems: string[] = [];

  const e: E2e = {
    host: standIn('host', () => host),
    browser: standIn('browser', () => browser),
    page: standIn('page', () => page),
    demo: standIn('demo cluster', () => demo),
    problems,
    get dataDir() {
      if (dataDir === undefined) throw new Error('the e2e block has no data folder: give the dataDir option');
      return dataDir;
    },
    async newPage(viewport) {
      if (!browser) throw new Error('the e2e browser is not set up here: use it in a test or a hook');
      const p = await browser.newPage(viewport ? { viewport } : {});
      watchPageProblems(p, problems);
      return p;
    },
    async stopHost() {
      const h = host;
      host = undefined;
      await h?.close();
    },
    async startHost(extra = {}) {
      host = await startTestHost({ ...hostOptions, ...extra });
      if (host.demo) demo = await host.demo;
      return host;
    },
  };

  beforeAll(async () => {
    if (options.dataDir !== undefined) dataDir = mkdtempSync(join(tmpdir(), `egress-desk-e2e-${options.dataDir}-`));
    await options.before?.(e);
    const given = typeof options.host === 'function' ? options.host(e) : (options.host ?? {});
    hostOptions = { ...given, ...(dataDir !== undefined ? { dataDir } : {}) };
    await e.startHost();
    browser = await launchChromium();
    if (options.page === false) return;
    page = await e.newPage(options.viewport);
    if (options.goto !== false) await page.goto(host!.host.url);
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await options.after?.();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  return e;
}

/**
 * A describe block with the e2e set-up (useE2e), skipped with the reason when it cannot run, whose last test checks
 * that no page had an uncaught error or a CSP violation.
 */
export function describeE2e(title: string, options: E2eOptions, body: (e: E2e) => void): void {
  if (e2eSkipReason) console.log(`[e2e] skipped "${title}": ${e2eSkipReason}`);
  describe.skipIf(e2eSkipReason !== undefined)(title, () => {
    const e = useE2e(options);
    body(e);
    it('ran without page problems (an uncaught error, a Content Security Policy violation)', () => {
      expect(e.problems).toEqual([]);
    });
  });
}

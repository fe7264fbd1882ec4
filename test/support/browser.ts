/**
 * Debian's Chromium driven by playwright-core, headless. Flags keep it off
 * the network (playwright gives each launch a fresh profile folder): this machine has none, and background services would only
 * produce refused connections.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissingReason(): string | undefined {
  return existsSync(CHROMIUM_PATH)
    ? undefined
    : `Chromium not found at ${CHROMIUM_PATH}; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
    ],
  });
}

/** Collects what a page must never do into `problems`: an uncaught error, or a Content Security Policy violation. */
export function watchPageProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
}

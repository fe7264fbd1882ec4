/**
 * Electron security checklist items 13 and 14: "Disable or limit
 * navigation" and "Disable or limit creation of new windows". The window
 * never leaves the app's own page; links to http(s) pages open in the
 * system browser, everything else is dropped.
 */
import type { WebContents } from 'electron';

export function lockNavigation(contents: WebContents, isAppUrl: (url: string) => boolean, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) openExternal(url);
    return { action: 'deny' };
  });
}

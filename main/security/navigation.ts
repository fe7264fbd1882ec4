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
    // Checklist item 15: only well-formed web links ever reach shell.openExternal.
    if (isWebLink(url)) openExternal(url);
    return { action: 'deny' };
  });
}

function isWebLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Electron security checklist item 7, applied as a response header on every
 * page the session loads (the meta tag in index.html says the same, for the
 * file:// load where no headers exist).
 */
import type { Session } from 'electron';
import { contentSecurityPolicy } from './csp';

export function enforceCsp(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } });
  });
}

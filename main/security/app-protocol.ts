/**
 * Electron security checklist item 18: "Avoid usage of the file://
 * protocol". The renderer is served from `app://egress-desk/`, a
 * privileged standard scheme that maps only onto the built renderer folder:
 * a page can never read another file of the machine through it, and the
 * origin is a fixed, known value the IPC sender check can compare against.
 */
import type { Protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { contentSecurityPolicy } from './csp';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://egress-desk';
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

export const appSchemePrivileges = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, stream: false },
};

const mime: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Resolves an app:// URL to a file inside `root`, or undefined when it points anywhere else. */
export function resolveAppUrl(root: string, url: string): string | undefined {
  const parsed = new URL(url);
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return undefined;
  const relative = decodeURIComponent(parsed.pathname).replace(/^\/+/, '') || 'index.html';
  const full = normalize(join(root, relative));
  return full.startsWith(normalize(root) + sep) ? full : undefined;
}

export function serveAppProtocol(protocol: Protocol, root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppUrl(root, request.url);
    if (!file) return new Response('not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: { 'Content-Type': mime[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': contentSecurityPolicy() },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}

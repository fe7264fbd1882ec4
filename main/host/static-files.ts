/**
 * Serves the built renderer from one folder, read-only. Paths are resolved
 * inside the folder and anything that escapes it is a 404, so a crafted URL
 * can never read another file on the machine.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { contentSecurityPolicy } from '../security/csp';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export const securityHeaders = (): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
});

export async function serveStatic(root: string, urlPath: string, res: ServerResponse): Promise<void> {
  const clean = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  const relative = clean === '/' ? 'index.html' : clean.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (!full.startsWith(normalize(root) + sep)) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(full);
    res.writeHead(200, {
      'Content-Type': types[extname(full)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      ...securityHeaders(),
    });
    res.end(body);
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
  }
}

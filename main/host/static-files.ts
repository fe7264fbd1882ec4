/**
 * Serves the built renderer from one folder, read-only. A request-target is
 * accepted only as a plain absolute path: each segment is percent-decoded on
 * its own, and a malformed encoding or a NUL byte is a 400; a `.` or `..`
 * segment (in any encoding), a slash or backslash hidden in a segment, a
 * drive or stream colon, or a path that resolves (symlinks included) outside
 * the folder is a 404. So a crafted URL can never read another file on the
 * machine, and no URL makes this function throw or reject.
 */
import { readFile, realpath } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
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

/** Longer request-targets are refused with 414; the app's own URLs are a few dozen characters. */
export const MAX_URL_LENGTH = 2048;

export const securityHeaders = (): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
});

const statusText: Record<number, string> = {
  400: 'bad request',
  404: 'not found',
  405: 'method not allowed',
  414: 'URI too long',
  421: 'misdirected request',
  500: 'internal error',
};

/** A short plain-text refusal with the security headers; never throws. */
export function refuse(res: ServerResponse, status: number, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders(), ...extra });
  res.end(statusText[status] ?? 'refused');
}

export type PathVerdict = { ok: true; relative: string } | { ok: false; status: 400 | 404 | 414 };

/** The file a request-target names, relative to the static folder, or the status to refuse it with. Pure; never throws. */
export function resolveRequestPath(target: string): PathVerdict {
  if (target.length > MAX_URL_LENGTH) return { ok: false, status: 414 };
  // Only origin-form: absolute-form (`http://…`), authority-form and `*` are not for a file server.
  if (!target.startsWith('/')) return { ok: false, status: 400 };
  const path = target.split(/[?#]/, 1)[0]!;
  const segments: string[] = [];
  let notFound = false;
  for (const raw of path.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400 };
    }
    if (segment.includes('\0')) return { ok: false, status: 400 };
    if (segment === '') continue;
    if (segment === '.' || segment === '..' || /[/\\:]/.test(segment)) notFound = true;
    segments.push(segment);
  }
  if (notFound) return { ok: false, status: 404 };
  return { ok: true, relative: segments.length === 0 ? 'index.html' : segments.join('/') };
}

/** Answers one GET or HEAD from the folder. Resolves in every case (a failure is a 4xx or 500), never rejects. */
export async function serveStatic(root: string, target: string, res: ServerResponse): Promise<void> {
  try {
    const verdict = resolveRequestPath(target);
    if (!verdict.ok) {
      refuse(res, verdict.status);
      return;
    }
    let body: Buffer;
    let file: string;
    try {
      const realRoot = await realpath(root);
      file = await realpath(join(realRoot, verdict.relative));
      if (!file.startsWith(realRoot + sep)) {
        refuse(res, 404);
        return;
      }
      body = await readFile(file);
    } catch {
      refuse(res, 404);
      return;
    }
    if (res.destroyed) return;
    res.writeHead(200, {
      'Content-Type': types[extname(file)] ?? 'application/octet-stream',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache',
      ...securityHeaders(),
    });
    res.end(body);
  } catch {
    refuse(res, 500);
  }
}

/**
 * Who may open the browser-mode socket: a page served by this host (its
 * Origin is exactly our loopback origin) that also knows the per-run key
 * printed on the terminal. The Origin check stops other web pages in the
 * same browser; the key stops other local users and processes.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newRunKey(): string {
  return randomBytes(32).toString('base64url');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type UpgradeVerdict = { ok: true } | { ok: false; status: 401 | 403 | 404; reason: string };

export function judgeUpgrade(req: IncomingMessage, expected: { origin: string; key: string; path: string }): UpgradeVerdict {
  const url = new URL(req.url ?? '/', expected.origin);
  if (url.pathname !== expected.path) return { ok: false, status: 404, reason: 'unknown socket path' };
  if (req.headers.origin !== expected.origin) return { ok: false, status: 403, reason: 'foreign or missing Origin' };
  const key = url.searchParams.get('key') ?? '';
  if (!sameSecret(key, expected.key)) return { ok: false, status: 401, reason: 'missing or wrong run key' };
  return { ok: true };
}

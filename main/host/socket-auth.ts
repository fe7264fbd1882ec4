/**
 * Who may reach the browser-mode host. Every request must name the host as
 * it listens (`Host: 127.0.0.1:PORT` or `localhost:PORT`), which stops DNS
 * rebinding: a page on another name that resolves to 127.0.0.1 gets nothing.
 * The socket also needs a page served by this host (its Origin is exactly our
 * loopback origin) that knows the run key printed on the terminal (kept between runs: run-state.ts). The
 * Origin check stops other web pages in the same browser; the key stops other
 * local users and processes.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MAX_URL_LENGTH } from './static-files';

export function newRunKey(): string {
  return randomBytes(32).toString('base64url');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The names the host answers to on `port`, as a Host header spells them (lower case). */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** True when the request's Host header is one of ours. A missing Host (HTTP/1.0) is not. */
export function hostAllowed(req: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  return typeof host === 'string' && hosts.has(host.toLowerCase());
}

/** The raw path and the query of an origin-form request-target; undefined for anything else. Never throws. */
export function splitTarget(target: string | undefined): { path: string; query: URLSearchParams } | undefined {
  if (!target || !target.startsWith('/') || target.length > MAX_URL_LENGTH) return undefined;
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1).split('#', 1)[0]!;
  return { path, query: new URLSearchParams(query) };
}

export type UpgradeVerdict = { ok: true } | { ok: false; status: 401 | 403 | 404; reason: string };

export function judgeUpgrade(
  req: IncomingMessage,
  expected: { origin: string; key: string; path: string; hosts: ReadonlySet<string> },
): UpgradeVerdict {
  if (!hostAllowed(req, expected.hosts)) return { ok: false, status: 403, reason: 'foreign or missing Host' };
  const target = splitTarget(req.url);
  if (!target || target.path !== expected.path) return { ok: false, status: 404, reason: 'unknown socket path' };
  if (req.headers.origin !== expected.origin) return { ok: false, status: 403, reason: 'foreign or missing Origin' };
  const key = target.query.get('key') ?? '';
  if (!sameSecret(key, expected.key)) return { ok: false, status: 401, reason: 'missing or wrong run key' };
  return { ok: true };
}

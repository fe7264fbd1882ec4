/**
 * The test suite's egress guard (a vitest setup file for the node and e2e
 * projects). This machine has no network but package registries, and
 * traffic to private ranges is watched: a test, or the product under test,
 * must never connect anywhere but loopback. Every TCP/TLS connection in
 * this process goes through `net.Socket.prototype.connect` (`net.connect`,
 * `net.createConnection`, `tls.connect`, http/https agents, undici and so
 * `fetch`, ws, http2 all end there); the guard wraps it, plus the module
 * functions for a clear stack, and throws before any socket is opened,
 * naming the destination. Each attempt is recorded, and an afterAll fails
 * the file if any happened, even one the code under test swallowed.
 *
 * Allowed: 127.0.0.0/8, ::1 (and ::ffff:127.x), 'localhost', an empty host
 * (Node's default, localhost) and a unix socket / named pipe path.
 *
 * Every other host name is a violation, including names that do not resolve
 * (`pve-sim.home.lab`): resolving one still sends a query to the system's
 * resolver, so a test that needs a name connects to 127.0.0.1 and sets the
 * TLS `servername` (or the Host header) instead. There is no allow-list.
 *
 * Child processes (Electron, Chromium) are not covered: Chromium is reached
 * over a pipe or a loopback websocket, both of which pass here.
 */
import net from 'node:net';
import tls from 'node:tls';
import { afterAll } from 'vitest';

export interface EgressAttempt {
  /** `host:port` as asked for. */
  destination: string;
  /** Which entry point saw it. */
  via: string;
  stack: string;
}

interface GuardState {
  attempts: EgressAttempt[];
  installed: boolean;
}

const KEY = Symbol.for('egress-desk.no-egress');
const globals = globalThis as unknown as Record<symbol, GuardState | undefined>;
const state: GuardState = (globals[KEY] ??= { attempts: [], installed: false });

/** True for a host that never leaves the machine. */
export function isLoopbackHost(host: string | undefined | null): boolean {
  if (host === undefined || host === null || host === '') return true;
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost') return true;
  if (h.startsWith('::ffff:')) h = h.slice('::ffff:'.length);
  if (net.isIPv4(h)) return h.split('.')[0] === '127';
  if (net.isIPv6(h)) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

export class EgressBlockedError extends Error {
  readonly code = 'EGRESS_BLOCKED';
  constructor(readonly destination: string) {
    super(`no-egress guard: refused a connection to ${destination}; tests may only connect to loopback (127.0.0.0/8, ::1, localhost) or a unix socket`);
    this.name = 'EgressBlockedError';
  }
}

type Target = { path: string } | { host: string | undefined; port: unknown } | undefined;

/** The destination of `connect` arguments in any of Node's forms: (options), (path), (port[, host]), or already normalized. */
function targetOf(args: unknown[]): Target {
  let first = args[0];
  if (Array.isArray(first)) first = first[0]; // net.connect passes its normalized [options, cb] on
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  if (typeof first === 'number' || typeof first === 'string') {
    return { host: typeof args[1] === 'string' ? args[1] : undefined, port: first };
  }
  if (first && typeof first === 'object') {
    const o = first as { path?: unknown; host?: unknown; hostname?: unknown; port?: unknown; socket?: unknown };
    if (typeof o.path === 'string' && o.path !== '') return { path: o.path };
    // tls.connect over a socket the caller opened: that socket was checked when it connected.
    if (o.socket) return undefined;
    const host = typeof o.host === 'string' ? o.host : typeof o.hostname === 'string' ? o.hostname : undefined;
    return { host, port: o.port };
  }
  return undefined;
}

function check(via: string, args: unknown[]): void {
  const target = targetOf(args);
  if (!target || 'path' in target) return;
  if (isLoopbackHost(target.host)) return;
  const host = target.host ?? '';
  const destination = `${net.isIPv6(host) ? `[${host}]` : host}:${String(target.port)}`;
  const error = new EgressBlockedError(destination);
  state.attempts.push({ destination, via, stack: error.stack ?? '' });
  throw error;
}

function install(): void {
  if (state.installed) return;
  state.installed = true;
  const socketConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    check('net.Socket.prototype.connect', args);
    return (socketConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof socketConnect;
  // The module functions end in the prototype's connect, but a wrapper here names the entry point.
  const netConnect = net.connect;
  const guardedNet = function guardedNetConnect(...args: unknown[]) {
    check('net.connect', args);
    return (netConnect as (...a: unknown[]) => net.Socket)(...args);
  } as typeof net.connect;
  net.connect = guardedNet;
  net.createConnection = guardedNet;
  const tlsConnect = tls.connect;
  tls.connect = function guardedTlsConnect(...args: unknown[]) {
    check('tls.connect', args);
    return (tlsConnect as (...a: unknown[]) => tls.TLSSocket)(...args);
  } as typeof tls.connect;
}

/** The attempts recorded so far in this file, cleared: a test that provokes one on purpose takes it. */
export function takeEgressAttempts(): EgressAttempt[] {
  return state.attempts.splice(0);
}

/** The attempts recorded so far in this file, left in place. */
export function egressAttempts(): readonly EgressAttempt[] {
  return [...state.attempts];
}

install();
// One record per test file (a worker may run several files one after another).
state.attempts.length = 0;

afterAll(() => {
  const attempts = state.attempts.splice(0);
  if (attempts.length === 0) return;
  const lines = attempts.map((a) => `  ${a.destination} (via ${a.via})\n${a.stack.split('\n').slice(1, 8).join('\n')}`);
  throw new Error(`no-egress guard: ${attempts.length} connection attempt(s) to a non-loopback address in this file:\n${lines.join('\n')}`);
});

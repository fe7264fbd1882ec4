/**
 * The proxy check: fetch the target URL through the proxy, on one
 * connection to its port, as any client of the proxy would, and read the
 * address the target saw. The VM having an address is not the same as the
 * proxy working; this tells the two apart, and a failure is named for the
 * step it reached (is anything there, does it speak the protocol, does it
 * reach the target). No bare connect goes first: a proxy logs one as a
 * client that left before its request (Squid's
 * `error:transaction-end-before-headers`, tinyproxy's "closed socket before read").
 *
 * The whole check runs against one deadline: every step waits on the same
 * signal, and whatever still waits when it passes is given up, so the check
 * answers within its timeout and names the step that did not finish.
 */
import { isIP } from 'node:net';
import { readAtMost, type AnswerBody } from '../../net/read-at-most';
import type { ProxyCheckResult, ProxyProtocol } from '../../../shared/channels/proxy-check';
import { problemOf, statusProblem, stoppedProblem } from './classify';
import { proxyAuthProblem, refusedByProxy } from './auth-problem';
import { Deadline } from './deadline';
import { dispatcherFor, ProxyConnection, requestPath, tunnels } from './dispatchers';
import { proxyPageOf, proxyPageProblem } from './proxy-page';
import { egressAddressOf, forwardedBack, forwardedBackNote } from './egress';
import { basicProxyAuthorization } from './http-connect';
import type { ProxyCredentials } from '../../ports/proxy-credentials';

export interface ProxyCheckRequest {
  host: string;
  port: number;
  protocol: ProxyProtocol;
  targetUrl: string;
  /** For the whole check, every step included; default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** CA certificates (PEM) for an https target instead of the system's; tests use it for a target on loopback. */
  ca?: string;
  /**
   * The address and port the result and its messages name instead of host:port: the demo's guest address
   * and the preset's port, when the check really connects to the loopback proxy standing in for it.
   */
  shownAs?: { host: string; port: number };
  /** The proxy's username and password (issue 24): sent on the forwarded request and on CONNECT or SOCKS5. Never logged. */
  credentials?: ProxyCredentials | undefined;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

/** The target's answer is only read for the address: a few kilobytes at most. */
const MAX_BODY = 4096;

export async function checkProxy(req: ProxyCheckRequest): Promise<ProxyCheckResult> {
  const deadline = new Deadline(req.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, req.signal);
  const shown = req.shownAs ?? { host: req.host, port: req.port };
  const base: ProxyCheckResult = {
    reachable: false,
    address: shown.host,
    port: shown.port,
    protocol: req.protocol,
    targetUrl: req.targetUrl,
  };
  const where = `${isIP(shown.host) === 6 ? `[${shown.host}]` : shown.host}:${shown.port}`;
  const url = new URL(req.targetUrl);
  const target = url.host;

  const proxy = { host: req.host, port: req.port, protocol: req.protocol, credentials: req.credentials };
  const tunnel = tunnels(proxy, url);
  const connection = new ProxyConnection();
  const dispatcher = dispatcherFor(proxy, url, deadline, connection, req.ca);
  const started = performance.now();
  let httpStatus: number | undefined;
  try {
    const answer = await deadline.race(
      dispatcher.request({
        origin: url.origin,
        path: requestPath(proxy, url),
        method: 'GET',
        headers: {
          'user-agent': 'Egress Desk proxy check',
          // A forwarded request goes to the proxy itself: it carries the credentials (inside a tunnel the target would see them).
          ...(req.credentials && !tunnel ? { 'proxy-authorization': basicProxyAuthorization(req.credentials) } : {}),
        },
        signal: deadline.signal,
      }),
    );
    httpStatus = answer.statusCode;
    const firstByteMs = Math.round(performance.now() - started);
    deadline.enter('body');
    const body = await deadline.race(readSome(answer.body));
    const latencyMs = Math.round(performance.now() - started);
    const result: ProxyCheckResult = { ...base, connectMs: connection.connectMs, firstByteMs, latencyMs, httpStatus };
    if (!tunnel && refusedByProxy(httpStatus, answer.headers, req.credentials !== undefined))
      return { ...result, problem: proxyAuthProblem(req.credentials !== undefined, 'HTTP', where) };
    if (httpStatus >= 400) {
      // Forwarded, the answer may be the proxy's own page rather than the target's (proxy-page.ts).
      const page = tunnel ? undefined : proxyPageOf(httpStatus, answer.headers);
      return { ...result, problem: (page && proxyPageProblem(page, where, target)) ?? statusProblem(httpStatus, where, target) };
    }
    const egressAddress = egressAddressOf(body);
    if (!egressAddress) return { ...result, reachable: true };
    // Over plain http the proxy could add a header naming this computer, which an echo may answer with (egress.ts).
    if (url.protocol === 'http:' && forwardedBack(egressAddress, connection.ends))
      return { ...result, reachable: true, note: forwardedBackNote(egressAddress) };
    return { ...result, reachable: true, egressAddress };
  } catch (e) {
    const reached = { phase: deadline.phase, answered: connection.answered, protocol: req.protocol, tunnel };
    return {
      ...base,
      ...(connection.connectMs === undefined ? {} : { connectMs: connection.connectMs }),
      ...(httpStatus === undefined ? {} : { httpStatus }),
      problem: stoppedProblem(deadline, reached, where, target) ?? problemOf(e, reached, where, target),
    };
  } finally {
    // Not awaited: closing a connection that is still being opened must not hold the answer back.
    dispatcher.destroy().catch(() => undefined);
  }
}

async function readSome(body: AnswerBody): Promise<string> {
  return (await readAtMost(body, MAX_BODY)).bytes.toString('utf8');
}

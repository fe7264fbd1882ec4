/**
 * Why a proxy check failed, in words an admin can act on: nothing listens,
 * the host is unreachable, the port speaks another protocol, the proxy
 * could not reach the target, the target answered with an error, or one
 * step (named) did not finish before the check's deadline.
 */
import { errors } from 'undici';
import type { ProxyCheckResult, ProxyCheckStage, ProxyProtocol } from '../../../shared/channels/proxy-check';
import { formatTimeout, type Deadline, type Phase } from './deadline';
import { HandshakeError } from './dispatchers';
import { HttpConnectError } from './http-connect';
import { ClosedEarly } from './read-bytes';
import { Socks5Error } from './socks5';

export type Problem = NonNullable<ProxyCheckResult['problem']>;

const problem = (kind: Problem['kind'], stage: ProxyCheckStage, message: string, hint: string): Problem => ({ kind, stage, message, hint });

const otherProtocol = (p: ProxyProtocol) => (p === 'http' ? 'SOCKS5' : 'HTTP');

export function connectProblem(e: unknown, where: string): Problem {
  const code = (e as { code?: string }).code;
  if (code === 'ECONNREFUSED')
    return problem(
      'transient',
      'connect',
      `Nothing listens on ${where}: the connection was refused.`,
      "Check that the proxy service runs in the VM and listens on this port (the preset's port), and that the VM's firewall allows it.",
    );
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return problem(
      'transient',
      'connect',
      `${where} did not answer (${code}).`,
      'Check that this computer can reach the VM: same network or a route to its VLAN, and no firewall dropping the port.',
    );
  return problem(
    'transient',
    'connect',
    `Connecting to ${where} failed: ${e instanceof Error ? e.message : String(e)}`,
    'Check the VM and its network, then try again.',
  );
}

/** A failure after the TCP connect: during the proxy's handshake or the request through it. */
export function requestProblem(e: unknown, protocol: ProxyProtocol, where: string, target: string): Problem {
  const inner = e instanceof HandshakeError ? e.cause : e;
  const wrongProtocol = problem(
    'permanent',
    'handshake',
    `${where} accepted the connection but did not answer as ${protocol === 'http' ? 'an HTTP' : 'a SOCKS5'} proxy.`,
    `Check the protocol: this port may serve a ${otherProtocol(protocol)} proxy, or another service altogether. Pick the protocol of the proxy's preset.`,
  );
  if (inner instanceof Socks5Error) {
    if (inner.failure === 'not-socks5') return wrongProtocol;
    if (inner.failure === 'auth-required')
      return problem(
        'permanent',
        'handshake',
        `The SOCKS5 proxy at ${where} requires authentication.`,
        'The check only speaks SOCKS5 without authentication; test from a client that has the credentials.',
      );
    return problem(
      'transient',
      'request',
      `The proxy works, but ${inner.message}.`,
      `Check that the VM can reach ${target} (its gateway, DNS and outbound firewall).`,
    );
  }
  if (inner instanceof ClosedEarly || inner instanceof errors.SocketError || (inner as { code?: string }).code === 'HPE_INVALID_CONSTANT')
    return wrongProtocol;
  if (inner instanceof HttpConnectError) {
    if (inner.failure === 'not-http') return wrongProtocol;
    if (inner.failure === 'auth-required')
      return problem(
        'permanent',
        'handshake',
        `The HTTP proxy at ${where} requires authentication (HTTP 407).`,
        'The check only speaks to proxies without authentication; test from a client that has the credentials.',
      );
    return problem(
      'transient',
      'request',
      `The proxy refused to open a tunnel to ${target} (HTTP ${inner.status}).`,
      `Check the proxy's rules and that the VM can reach ${target}.`,
    );
  }
  if (
    inner instanceof errors.HeadersTimeoutError ||
    inner instanceof errors.BodyTimeoutError ||
    inner instanceof errors.ConnectTimeoutError ||
    isTimeout(inner)
  )
    return problem(
      'transient',
      'request',
      `No answer through ${where} from ${target} in time.`,
      `Check that the VM can reach ${target}, or try a closer target URL.`,
    );
  const text = inner instanceof Error ? inner.message : String(inner);
  return problem(
    'transient',
    'request',
    `The request through ${where} to ${target} failed: ${text}`,
    'Check the proxy and the target URL, then try again.',
  );
}

function isTimeout(e: unknown): boolean {
  return e instanceof Error && (e.name === 'TimeoutError' || /timed? ?out/i.test(e.message));
}

export function statusProblem(status: number, where: string, target: string): Problem {
  return problem(
    'transient',
    'request',
    `The request through ${where} reached an answer of HTTP ${status} from ${target}${status === 502 || status === 504 ? ' (the proxy could not reach it)' : ''}.`,
    'The proxy itself answers. Check the target URL, and that the VM can reach it.',
  );
}

/** What each step is, for the message when it did not finish: stage, words and hint. */
function phaseProblem(phase: Phase, where: string, target: string, within: string): Problem {
  const reach = `Check that the VM can reach ${target} (its gateway, DNS and outbound firewall), or try a closer target URL.`;
  switch (phase) {
    case 'proxy-connect':
      return problem(
        'transient',
        'connect',
        `${where} did not accept a TCP connection within ${within}.`,
        'Check that this computer can reach the VM: same network or a route to its VLAN, and no firewall dropping the port.',
      );
    case 'socks5-greeting':
      return problem(
        'transient',
        'handshake',
        `The proxy at ${where} accepted the connection but did not answer the SOCKS5 greeting within ${within}.`,
        "Check the protocol: this port may serve an HTTP proxy or another service that waits for its client. Pick the protocol of the proxy's preset.",
      );
    case 'socks5-connect':
      return problem(
        'transient',
        'handshake',
        `The SOCKS5 proxy at ${where} accepted the greeting but did not report a connection to ${target} within ${within}.`,
        `The proxy may be unable to reach ${target}. ${reach}`,
      );
    case 'http-connect':
      return problem(
        'transient',
        'handshake',
        `The proxy at ${where} accepted the connection but did not answer the CONNECT request for ${target} within ${within}.`,
        `The proxy may be unable to reach ${target}, or this port may not serve an HTTP proxy. ${reach}`,
      );
    case 'tls':
      return problem(
        'transient',
        'request',
        `The proxy at ${where} accepted the connection but the TLS handshake with ${target} did not finish within ${within}.`,
        `The tunnel opened but ${target} did not complete TLS through it. ${reach}`,
      );
    case 'headers':
      return problem(
        'transient',
        'request',
        `The request went through ${where}, but ${target} sent no answer within ${within}.`,
        `The proxy took the request but no response came back. ${reach}`,
      );
    case 'body':
      return problem(
        'transient',
        'request',
        `${target} started answering through ${where}, but its answer did not finish arriving within ${within}.`,
        `The response stalled part way. ${reach}`,
      );
  }
}

/** The problem when the check's deadline passed or the caller cancelled it, naming the step that was in progress. */
export function stoppedProblem(deadline: Deadline, where: string, target: string): Problem | undefined {
  const stopped = deadline.stopped;
  if (!stopped) return undefined;
  if (stopped.cancelled)
    return problem(
      'transient',
      phaseProblem(stopped.phase, where, target, '').stage,
      'The check was cancelled before it finished.',
      'Run it again.',
    );
  return phaseProblem(stopped.phase, where, target, formatTimeout(deadline.ms));
}

/**
 * Why a proxy check failed, in words an admin can act on: nothing listens,
 * the host is unreachable, the port speaks another protocol, the proxy
 * could not reach the target, or the target answered with an error.
 */
import { errors } from 'undici';
import type { ProxyCheckResult, ProxyCheckStage, ProxyProtocol } from '../../../shared/channels/proxy-check';
import { HandshakeError } from './dispatchers';
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
  if (inner instanceof errors.RequestAbortedError && /Proxy response \((\d+)\)/.test(inner.message)) {
    const status = /Proxy response \((\d+)\)/.exec(inner.message)![1];
    return problem(
      'transient',
      'request',
      `The proxy refused to open a tunnel to ${target} (HTTP ${status}).`,
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

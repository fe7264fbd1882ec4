/**
 * Why a proxy check failed, in words an admin can act on. A failure is
 * classed by the step the check had reached and how that step ended, from
 * one table (`steps`, below): the same proxy doing the same thing gets the
 * same answer every time, however the close reached this computer (a FIN,
 * a reset, a write that found the socket gone).
 *
 * | how the step ended                       | class                                                          |
 * | ---------------------------------------- | -------------------------------------------------------------- |
 * | the TCP connect failed                   | nothing listens / unreachable: transient, connect               |
 * | closed before any byte from the proxy    | the proxy refused or dropped the connection: transient          |
 * | closed after the proxy's first byte      | the proxy stopped part way, the step named: transient           |
 * | bytes that are not the protocol          | from the proxy: "check the protocol", permanent; through an     |
 * |                                          | opened tunnel: the target's answer is not HTTP, permanent       |
 * | the check's deadline passed              | the step named did not finish in time: transient                |
 * | an answer (auth, refusal, HTTP status)   | what the proxy said, in words (see `answerProblem`)             |
 *
 * Long because every class comes from the one table (`steps`) and its cells,
 * kept side by side so each step answers the same way, and the functions
 * below it word an answer (auth, refusal, HTTP status) in the same voice.
 */
import { errors } from 'undici';
import type { ProxyCheckResult, ProxyCheckStage, ProxyProtocol } from '../../../shared/channels/proxy-check';
import { formatTimeout, type Deadline, type Phase } from './deadline';
import { ConnectionLost } from './dispatchers';
import { HttpConnectError } from './http-connect';
import { proxyPageOf, proxyPageProblem } from './proxy-page';
import { ClosedEarly } from './read-bytes';
import { proxyAuthProblem } from './auth-problem';
import { Socks5Error } from './socks5';

export type Problem = NonNullable<ProxyCheckResult['problem']>;

const problem = (kind: Problem['kind'], stage: ProxyCheckStage, message: string, hint: string): Problem => ({ kind, stage, message, hint });

/** How far the check got when it failed: the step, and whether the proxy had sent any byte by then. */
export interface Reached {
  phase: Phase;
  /** Any byte from the proxy on the check's connection, the handshake's included. */
  answered: boolean;
  protocol: ProxyProtocol;
  /** The request goes through a tunnel (SOCKS5, or CONNECT for an https target), not to an HTTP proxy in absolute form. */
  tunnel: boolean;
}

/** What a step's words are made from. */
interface Words {
  where: string;
  target: string;
  /** "HTTP" or "SOCKS5": the protocol the check spoke. */
  spoke: string;
  tunnel: boolean;
  /** The timeout as the messages show it ("10 s"). */
  within: string;
}

type Cell = (w: Words) => Problem;

/** One row per step: the class when the proxy closed the connection in it (after its first byte), sent bytes that are not the protocol, or let the deadline pass. */
interface Step {
  closed: Cell;
  garbled: Cell;
  late: Cell;
}

const protocolHint = (w: Words) =>
  `Check the protocol: this port may serve ${w.spoke === 'HTTP' ? 'a SOCKS5' : 'an HTTP'} proxy, or another service altogether. Pick the protocol of the proxy's preset.`;
const reachHint = (w: Words) =>
  `Check that the VM can reach ${w.target} (its gateway, DNS and outbound firewall), or try a closer target URL.`;
const restartHint = 'It may have crashed, restarted or hit a limit: check the proxy service and its log in the VM, then try again.';

/** Bytes from the proxy itself that are not the protocol the check spoke. */
const notTheProtocol: Cell = (w) =>
  problem(
    'permanent',
    'handshake',
    `${w.where} accepted the connection but did not answer as ${w.spoke === 'HTTP' ? 'an HTTP' : 'a SOCKS5'} proxy.`,
    protocolHint(w),
  );

/** Bytes that are not HTTP where the target's answer should be: through a tunnel the proxy opened, or from an HTTP proxy itself. */
const notHttp: Cell = (w) =>
  w.tunnel
    ? problem(
        'permanent',
        'request',
        `The proxy at ${w.where} opened the way to ${w.target}, but what came back through it is not an HTTP answer.`,
        `Check the target URL: ${w.target} must answer plain HTTP for an http:// URL, HTTPS for https://. If it does, this proxy does not pass the answer through unchanged.`,
      )
    : notTheProtocol(w);

/** A close before the proxy sent a single byte, at whatever step: it turned this computer away, or dropped the connection. */
const dropped: Cell = (w) =>
  problem(
    'transient',
    'handshake',
    `The proxy at ${w.where} accepted the connection, then closed it without answering: it refused this computer or dropped the connection.`,
    `Check that the proxy's client rules let this computer in (Squid's acl, tinyproxy's Allow, Dante's client rules) and that it is not at its connection limit; and that this port serves ${w.spoke}, the protocol of the proxy's preset. Then try again.`,
  );

const connectLate: Cell = (w) =>
  problem(
    'transient',
    'connect',
    `${w.where} did not accept a TCP connection within ${w.within}.`,
    'Check that this computer can reach the VM: same network or a route to its VLAN, and no firewall dropping the port.',
  );

/** The table: for each step, how each way of failing is classed and told. */
const steps: Record<Phase, Step> = {
  // A failed connect is classed by `connectProblem`; nothing can close or garble before it.
  'proxy-connect': { closed: connectLate, garbled: connectLate, late: connectLate },
  'socks5-greeting': {
    closed: (w) =>
      problem(
        'transient',
        'handshake',
        `The SOCKS5 proxy at ${w.where} stopped part way: it began answering the greeting, then closed the connection.`,
        restartHint,
      ),
    garbled: notTheProtocol,
    late: (w) =>
      problem(
        'transient',
        'handshake',
        `The proxy at ${w.where} accepted the connection but did not answer the SOCKS5 greeting within ${w.within}.`,
        "Check the protocol: this port may serve an HTTP proxy or another service that waits for its client. Pick the protocol of the proxy's preset.",
      ),
  },
  'socks5-connect': {
    closed: (w) =>
      problem(
        'transient',
        'handshake',
        `The SOCKS5 proxy at ${w.where} stopped part way: it answered the greeting, then closed the connection before it reported a connection to ${w.target}.`,
        `The proxy may have failed to reach ${w.target}, crashed, restarted or hit a limit: check the proxy service and its log in the VM, then try again.`,
      ),
    garbled: notTheProtocol,
    late: (w) =>
      problem(
        'transient',
        'handshake',
        `The SOCKS5 proxy at ${w.where} accepted the greeting but did not report a connection to ${w.target} within ${w.within}.`,
        `The proxy may be unable to reach ${w.target}. ${reachHint(w)}`,
      ),
  },
  'http-connect': {
    closed: (w) =>
      problem(
        'transient',
        'handshake',
        `The proxy at ${w.where} stopped part way: it began answering the CONNECT request for ${w.target}, then closed the connection.`,
        restartHint,
      ),
    garbled: notTheProtocol,
    late: (w) =>
      problem(
        'transient',
        'handshake',
        `The proxy at ${w.where} accepted the connection but did not answer the CONNECT request for ${w.target} within ${w.within}.`,
        `The proxy may be unable to reach ${w.target}, or this port may not serve an HTTP proxy. ${reachHint(w)}`,
      ),
  },
  tls: {
    closed: (w) =>
      problem(
        'transient',
        'request',
        `The proxy at ${w.where} stopped part way: it opened the way to ${w.target}, then closed the connection during the TLS handshake.`,
        `Check that ${w.target} serves HTTPS on that port. ${restartHint}`,
      ),
    garbled: notHttp,
    late: (w) =>
      problem(
        'transient',
        'request',
        `The proxy at ${w.where} accepted the connection but the TLS handshake with ${w.target} did not finish within ${w.within}.`,
        `The tunnel opened but ${w.target} did not complete TLS through it. ${reachHint(w)}`,
      ),
  },
  headers: {
    closed: (w) =>
      problem(
        'transient',
        'request',
        w.tunnel
          ? `The proxy at ${w.where} stopped part way: it opened the way to ${w.target}, then closed the connection before ${w.target} answered.`
          : `The proxy at ${w.where} stopped part way: it began answering the request for ${w.target}, then closed the connection.`,
        `The proxy or ${w.target} ended the connection. ${restartHint}`,
      ),
    garbled: notHttp,
    late: (w) =>
      problem(
        'transient',
        'request',
        `The request went through ${w.where}, but ${w.target} sent no answer within ${w.within}.`,
        `The proxy took the request but no response came back. ${reachHint(w)}`,
      ),
  },
  body: {
    closed: (w) =>
      problem(
        'transient',
        'request',
        `The proxy at ${w.where} stopped part way: ${w.target} had begun answering through it when the connection closed.`,
        `The proxy or ${w.target} ended the connection mid-answer. ${restartHint}`,
      ),
    garbled: notHttp,
    late: (w) =>
      problem(
        'transient',
        'request',
        `${w.target} started answering through ${w.where}, but its answer did not finish arriving within ${w.within}.`,
        `The response stalled part way. ${reachHint(w)}`,
      ),
  },
};

/** How a step ended, from the error it ended with: the connection closed, bytes that are not the protocol, or something else (an answer, TLS). */
export type Ending = 'closed' | 'garbled' | 'other';

const closeCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function endingOf(e: unknown): Ending {
  if (e instanceof ConnectionLost) return endingOf(e.cause);
  if (e instanceof Socks5Error) return e.failure === 'not-socks5' ? 'garbled' : 'other';
  if (e instanceof HttpConnectError) return e.failure === 'not-http' ? 'garbled' : 'other';
  if (e instanceof errors.HTTPParserError) return 'garbled';
  // undici's word for bytes that came before the request was sent: no HTTP server does that.
  if (e instanceof errors.SocketError) return e.message === 'bad response' ? 'garbled' : 'closed';
  if (e instanceof ClosedEarly || e instanceof errors.ResponseContentLengthMismatchError) return 'closed';
  return closeCodes.has((e as { code?: string }).code ?? '') ? 'closed' : 'other';
}

const spoken = (protocol: ProxyProtocol) => (protocol === 'http' ? 'HTTP' : 'SOCKS5');

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

/** A check that failed with `e` (not by its deadline), classed by the step it had reached. */
export function problemOf(e: unknown, reached: Reached, where: string, target: string): Problem {
  if (reached.phase === 'proxy-connect') return connectProblem(e, where);
  const w: Words = { where, target, spoke: spoken(reached.protocol), tunnel: reached.tunnel, within: '' };
  const ending = endingOf(e);
  if (ending === 'closed') return reached.answered ? steps[reached.phase].closed(w) : dropped(w);
  if (ending === 'garbled') return steps[reached.phase].garbled(w);
  return answerProblem(e instanceof ConnectionLost ? e.cause : e, w);
}

/** What the proxy said when it answered and refused (auth, the target), or any other failure, in words. */
function answerProblem(e: unknown, w: Words): Problem {
  if (e instanceof Socks5Error) {
    if (e.failure === 'auth-required' || e.failure === 'auth-refused') return proxyAuthProblem(e.failure === 'auth-refused', 'SOCKS5', w.where);
    return problem(
      'transient',
      'request',
      `The proxy works, but ${e.message}.`,
      `Check that the VM can reach ${w.target} (its gateway, DNS and outbound firewall).`,
    );
  }
  if (e instanceof HttpConnectError) {
    if (e.failure === 'auth-required' || e.failure === 'auth-refused') return proxyAuthProblem(e.failure === 'auth-refused', 'HTTP', w.where);
    // Squid's and tinyproxy's own pages get the words an http target's would (proxy-page.ts).
    const page = e.status === undefined ? undefined : proxyPageOf(e.status, e.headers);
    const own = page && proxyPageProblem(page, w.where, w.target);
    if (own) return own;
    return problem(
      'transient',
      'request',
      `The proxy refused to open a tunnel to ${w.target} (HTTP ${e.status}).`,
      `Check the proxy's rules and that the VM can reach ${w.target}.`,
    );
  }
  if (
    e instanceof errors.HeadersTimeoutError ||
    e instanceof errors.BodyTimeoutError ||
    e instanceof errors.ConnectTimeoutError ||
    isTimeout(e)
  )
    return problem(
      'transient',
      'request',
      `No answer through ${w.where} from ${w.target} in time.`,
      `Check that the VM can reach ${w.target}, or try a closer target URL.`,
    );
  const text = e instanceof Error ? e.message : String(e);
  return problem(
    'transient',
    'request',
    `The request through ${w.where} to ${w.target} failed: ${text}`,
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

/** The problem when the check's deadline passed or the caller cancelled it, naming the step that was in progress. */
export function stoppedProblem(
  deadline: Deadline,
  reached: Omit<Reached, 'phase' | 'answered'>,
  where: string,
  target: string,
): Problem | undefined {
  const stopped = deadline.stopped;
  if (!stopped) return undefined;
  const w: Words = { where, target, spoke: spoken(reached.protocol), tunnel: reached.tunnel, within: formatTimeout(deadline.ms) };
  const late = steps[stopped.phase].late(w);
  if (stopped.cancelled) return problem('transient', late.stage, 'The check was cancelled before it finished.', 'Run it again.');
  return late;
}

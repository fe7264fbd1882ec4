/**
 * The proxy's own answer, told apart from the target's. An HTTP proxy that
 * refuses a request, wants credentials or cannot reach the target answers
 * with its own page: instead of the target's answer (an http target,
 * forwarded), or instead of the tunnel (CONNECT, for an https one). Both get
 * the same words, made here.
 *
 * How a page is known as the proxy's own:
 * - Squid marks every page it makes with `X-Squid-Error: <ERR_…> <errno>`
 *   (src/errorpage.cc), and never on an answer it passes on.
 * - tinyproxy's pages carry `Server: tinyproxy/<version>` (src/html-error.c,
 *   send_http_headers); an answer it passes on keeps the target's own Server.
 * - A 407 is a proxy's whatever it says (RFC 9110 §15.5.8: only a proxy asks
 *   for Proxy-Authorization); its words are auth-problem.ts's, which knows
 *   whether the check sent credentials, and both paths ask it first.
 * Through a tunnel, an answer of the target's is its own: the proxy only
 * relays it, and inside TLS it cannot add one.
 */
import type { ProxyCheckResult } from '../../../shared/channels/proxy-check';

type Problem = NonNullable<ProxyCheckResult['problem']>;
type Headers = Record<string, string | string[] | undefined>;

export interface ProxyPage {
  status: number;
  /** The proxy software, when its page says so. */
  daemon?: 'Squid' | 'tinyproxy';
  /** Squid's name for the error (ERR_ACCESS_DENIED, ERR_CONNECT_FAIL…). */
  code?: string;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The proxy's own page, from an answer's status and headers (names in lower case); undefined when it may be the target's. */
export function proxyPageOf(status: number, headers: Headers): ProxyPage | undefined {
  const squid = first(headers['x-squid-error'])?.trim();
  if (squid) {
    const code = /^ERR_[A-Z0-9_]+/.exec(squid)?.[0];
    return { status, daemon: 'Squid', ...(code ? { code } : {}) };
  }
  if (/^tinyproxy\//i.test(first(headers.server)?.trim() ?? '')) return { status, daemon: 'tinyproxy' };
  if (status === 407) return { status };
  return undefined;
}

/** The answer head a CONNECT got, as lower-case header names to values. */
export function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
  }
  return headers;
}

/** The words for the proxy's own page, on either path; undefined for a proxy whose page does not say what it is. */
export function proxyPageProblem(page: ProxyPage, where: string, target: string): Problem | undefined {
  if (!page.daemon) return undefined;
  const proxy = `The proxy at ${where} (${page.daemon})`;
  const answer = `HTTP ${page.status}${page.code ? `, ${page.code}` : ''}`;
  if (page.status === 403)
    return {
      kind: 'permanent',
      stage: 'handshake',
      message: `${proxy} refused the request for ${target} with its own error page (${answer}): its rules do not let this computer, or this target, through.`,
      hint: `The page is the proxy's, not ${target}'s. Check that the proxy's client rules let this computer's address in (Squid's acl and http_access, tinyproxy's Allow; the presets allow only the private networks), and that they allow ${target}'s port.`,
    };
  if (page.status >= 500)
    return {
      kind: 'transient',
      stage: 'request',
      message: `${proxy} could not reach ${target} (${answer}): the error page is the proxy's own, not ${target}'s.`,
      hint: `Check that the VM can reach ${target} (its gateway, DNS and outbound firewall) and that ${target} is up, or try a closer target URL.`,
    };
  return {
    kind: 'transient',
    stage: 'request',
    message: `${proxy} answered the request for ${target} with its own error page (${answer}), not with ${target}'s answer.`,
    hint: "The page is the proxy's, not the target's: its log in the VM says why it turned the request down (Squid's access.log and cache.log, tinyproxy's log).",
  };
}

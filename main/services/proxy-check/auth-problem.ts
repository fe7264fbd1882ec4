/**
 * Issue 24: a proxy that refused the check's credentials, or asked for some
 * when the app holds none, is its own class: the proxy answers and works, it
 * only does not let this client in. Never "no answer", never the target's fault.
 */
import type { ProxyCheckResult } from '../../../shared/channels/proxy-check';

type Problem = NonNullable<ProxyCheckResult['problem']>;

/** `sent`: the check offered credentials (so they were refused); `spoke`: HTTP (407) or SOCKS5 (RFC 1929). */
export function proxyAuthProblem(sent: boolean, spoke: 'HTTP' | 'SOCKS5', where: string): Problem {
  const how = spoke === 'HTTP' ? ' (HTTP 407)' : '';
  if (sent)
    return {
      kind: 'permanent',
      stage: 'handshake',
      message: `The proxy at ${where} refused the username and password the app keeps for it${how}.`,
      hint: "The proxy answers, but its credentials are not the app's: its config in the VM was changed, or the VM was rebuilt outside the app. Check the proxy's user file or config in the VM, or recreate the proxy to give it new credentials.",
    };
  return {
    kind: 'permanent',
    stage: 'handshake',
    message: `The proxy at ${where} asks for a username and password${how}, and the app keeps none for this proxy.`,
    hint: 'It was made outside the app, or its password was kept for a session only. Test it from a client that has its credentials, or recreate it with "require a username and password".',
  };
}

/**
 * Whether a forwarded request's answer is the proxy turning the credentials away: 407, or tinyproxy's 401 for
 * wrong ones (its own page, `Server: tinyproxy/…`), which a 401 from the target is not.
 */
export function refusedByProxy(status: number, headers: Record<string, string | string[] | undefined>, sent: boolean): boolean {
  if (status === 407) return true;
  const server = headers.server;
  return sent && status === 401 && typeof server === 'string' && /^tinyproxy\//i.test(server);
}

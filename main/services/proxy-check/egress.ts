/**
 * The address the target saw, from its answer: a bare address (ipify,
 * ifconfig.me, icanhazip) or JSON with `ip`, `origin` (httpbin) or `address`,
 * read so that no header a proxy adds can stand in for its exit.
 *
 * What a proxy can change (issue 24 §5):
 * - Through a tunnel to an https target (CONNECT, or TLS inside SOCKS5) the
 *   request and the answer are the TLS session's with the target: the proxy
 *   can add no header and change no byte, so the answer is the echo's own.
 * - A plain http target: the proxy reads and may rewrite the request and the
 *   answer. A proxy that means no harm still adds headers that name the
 *   client (Squid's `X-Forwarded-For: <client>`, by default; `Forwarded`,
 *   `X-Real-IP` elsewhere), and an echo that trusts them answers with this
 *   computer's address. A hostile proxy can forge the whole answer; nothing
 *   read over plain http proves an exit, only an https URL does.
 *
 * So: where an answer lists addresses (httpbin's `origin: "a, b"`, what came
 * in X-Forwarded-For followed by what its front saw), the last one is the
 * exit, since whatever a proxy adds comes before it. And over plain http, an
 * exit equal to this computer's own address as the proxy saw it, when the
 * proxy is another machine, is the header echoed back, not an exit
 * (`forwardedBack`): the check reports no exit, and says why. What this
 * cannot see: a proxy that reaches this computer through a NAT forwards the
 * NAT's address, which looks like any exit; only an https URL tells them apart.
 */
import { isIP } from 'node:net';

export function egressAddressOf(body: string): string | undefined {
  const text = body.trim();
  if (isIP(text)) return text;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    for (const key of ['ip', 'origin', 'address']) {
      const field = (value as Record<string, unknown>)[key];
      // A list ("a, b") ends with the address the echo saw; entries a proxy added come first.
      const last = typeof field === 'string' ? field.split(',').at(-1)!.trim() : undefined;
      if (last && isIP(last)) return last;
    }
  } catch {
    // Not JSON: an HTML page or some other text with no address in a known place.
  }
  return undefined;
}

/** An address as the sockets give it, without the IPv4-mapped prefix. */
const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();

/**
 * Over plain http: whether `exit` is this computer's own address on its connection to the proxy
 * (`local`), the proxy being another address (`proxy`): the proxy passed the client on in a header
 * and the echo answered with it. A proxy on this computer (`proxy` equal to `local`) really exits here.
 */
export function forwardedBack(exit: string, connection: { local?: string; proxy?: string }): boolean {
  if (!connection.local || !connection.proxy) return false;
  const local = plain(connection.local);
  return plain(exit) === local && plain(connection.proxy) !== local;
}

export const forwardedBackNote = (exit: string) =>
  `The target answered with ${exit}, this computer's own address as the proxy saw it: the proxy passed it on in a header (X-Forwarded-For), so it is not the proxy's exit. Use an https check URL, which the proxy cannot change.`;

/**
 * Issue 24 §5, "the egress address is misread through squid", against the
 * real Squid: a proxy that adds `X-Forwarded-For: <client>` (Squid's default,
 * `forwarded_for on`) to a plain http request must not make the check report
 * the client's own address as the proxy's exit.
 *
 * Squid listens on 127.0.0.3 and leaves from 127.0.0.2 (`tcp_outgoing_address`),
 * while the check connects from 127.0.0.1: three addresses, so the test can
 * tell the exit from the client it forwarded for. The echo targets answer the
 * way the public ones do: httpbin.org behind its front (`origin` is the
 * X-Forwarded-For it got, then the address its front saw), a bare echo that
 * trusts X-Forwarded-For (a self-hosted httpbin, and some plain-text services),
 * and one that reports the address it saw.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { missing, type RealProxy } from '../../../support/real-proxy';
import { startSquidWith } from '../../../support/real-proxy-with';

const seen = (req: IncomingMessage) => (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
const forwardedFor = (req: IncomingMessage) => (typeof req.headers['x-forwarded-for'] === 'string' ? req.headers['x-forwarded-for'] : '');

/** How each kind of echo service words the address. */
const echoes = {
  /** httpbin.org: its front appends what it saw to any X-Forwarded-For, and `origin` shows the whole list. */
  httpbinBehindFront: (req: IncomingMessage) => JSON.stringify({ origin: [forwardedFor(req), seen(req)].filter(Boolean).join(', ') }),
  /** A bare httpbin or go-httpbin: `origin` is the X-Forwarded-For when one came, else the peer. */
  trustsForwardedFor: (req: IncomingMessage) => JSON.stringify({ origin: forwardedFor(req).split(',')[0]!.trim() || seen(req) }),
  /** A plain-text service that trusts the header the same way. */
  plainTrustsForwardedFor: (req: IncomingMessage) => forwardedFor(req).split(',')[0]!.trim() || seen(req),
  /** icanhazip-like: the peer's address, nothing else. */
  plainPeer: (req: IncomingMessage) => seen(req),
};

const servers: Server[] = [];
const urls: Record<keyof typeof echoes, string> = {} as Record<keyof typeof echoes, string>;
const forwarded: string[] = [];
beforeAll(async () => {
  for (const [name, answer] of Object.entries(echoes) as [keyof typeof echoes, (req: IncomingMessage) => string][]) {
    const server = createServer((req, res) => {
      forwarded.push(forwardedFor(req));
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer(req));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ip`;
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

let proxy: RealProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/** The preset's Squid, on 127.0.0.3, leaving from 127.0.0.2, adding X-Forwarded-For whatever the preset says. */
const headerAddingSquid = () =>
  startSquidWith((config, port) =>
    config
      .replace(`http_port 127.0.0.1:${port}`, `http_port 127.0.0.3:${port}`)
      .concat('forwarded_for on\ntcp_outgoing_address 127.0.0.2\n'),
  );

describe.skipIf(missing('squid') !== undefined)('the exit through a Squid that adds X-Forwarded-For', () => {
  const check = (p: RealProxy, targetUrl: string) =>
    checkProxy({ host: '127.0.0.3', port: p.port, protocol: 'http', targetUrl, timeoutMs: 5_000 });

  it("httpbin.org's `origin` list: the last entry, what the echo's front saw, not the client Squid forwarded for", async () => {
    proxy = await headerAddingSquid();
    console.log(`running ${proxy.version} on 127.0.0.3:${proxy.port}`);
    const result = await check(proxy, urls.httpbinBehindFront);
    // Squid did add the client: the list really was "client, exit".
    expect(forwarded.at(-1)).toBe('127.0.0.1');
    expect(result).toMatchObject({ reachable: true, egressAddress: '127.0.0.2' });
  });

  it.each(['trustsForwardedFor', 'plainTrustsForwardedFor'] as const)(
    'an echo (%s) that answers with the forwarded client: no exit reported, and a note saying why',
    async (kind) => {
      proxy = await headerAddingSquid();
      const result = await check(proxy, urls[kind]);
      expect(result.reachable).toBe(true);
      expect(result.egressAddress).toBeUndefined();
      expect(result.note).toBe(
        `The target answered with 127.0.0.1, this computer's own address as the proxy saw it: the proxy passed it on in a header (X-Forwarded-For), so it is not the proxy's exit. Use an https check URL, which the proxy cannot change.`,
      );
    },
  );

  it('an echo that reports the address it saw: the exit', async () => {
    proxy = await headerAddingSquid();
    expect(await check(proxy, urls.plainPeer)).toMatchObject({ reachable: true, egressAddress: '127.0.0.2' });
  });
});

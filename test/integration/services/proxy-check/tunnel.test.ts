/**
 * The tunnel the check opens itself (in place of undici's ProxyAgent): an
 * https target on loopback, with a certificate from a test CA, is reached
 * through CONNECT on the HTTP proxy and through the SOCKS5 proxy, TLS and
 * all; a proxy that refuses the tunnel, wants credentials or answers CONNECT
 * with something other than HTTP is told apart in words.
 */
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { createCa, createLeaf } from '../../../../main/tls/certificates';
import { EGRESS, startHttpProxy, startSocks5Proxy, type Running } from '../../../support/services/proxy-check/loopback';
import { startAnsweringProxy } from './stalling-proxies';

const host = '127.0.0.1';
let ca: string;
let target: Server;
let targetUrl: string;
let http: Running;
let socks: Running;

beforeAll(async () => {
  const authority = await createCa();
  const leaf = await createLeaf(authority, { commonName: 'target', ipAddresses: ['127.0.0.1'] });
  ca = authority.certPem;
  target = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ip: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '') }));
  });
  await new Promise<void>((resolve) => target.listen(0, host, resolve));
  targetUrl = `https://127.0.0.1:${(target.address() as AddressInfo).port}/ip`;
  [http, socks] = await Promise.all([startHttpProxy(), startSocks5Proxy()]);
});
afterAll(async () => {
  target.closeAllConnections();
  await Promise.all([new Promise((resolve) => target.close(resolve)), http.close(), socks.close()]);
});

describe('the tunnel to an https target', () => {
  it.each(['http', 'socks5'] as const)('reaches it through a %s proxy, TLS checked, and reads the egress address', async (protocol) => {
    const proxy = protocol === 'http' ? http : socks;
    const result = await checkProxy({ host, port: proxy.port, protocol, targetUrl, ca, timeoutMs: 5_000 });
    expect(result).toMatchObject({ reachable: true, httpStatus: 200, egressAddress: EGRESS });
    expect(result.problem).toBeUndefined();
  });

  it("checks the target's certificate: without its CA the TLS failure is the request's, not a timeout", async () => {
    const result = await checkProxy({ host, port: http.port, protocol: 'http', targetUrl, timeoutMs: 5_000 });
    expect(result).toMatchObject({ reachable: false, problem: { stage: 'request' } });
    expect(result.problem?.message).not.toMatch(/within/);
  });

  it.each([
    [403, 'transient', 'request', (t: string) => `The proxy refused to open a tunnel to ${t} (HTTP 403).`],
    [407, 'permanent', 'handshake', () => /^The proxy at 127\.0\.0\.1:\d+ asks for a username and password \(HTTP 407\), and the app keeps none for this proxy\.$/],
  ] as const)('names a CONNECT answered with HTTP %i', async (status, kind, stage, message) => {
    const proxy = await startAnsweringProxy(status);
    try {
      const result = await checkProxy({ host, port: proxy.port, protocol: 'http', targetUrl, timeoutMs: 5_000 });
      expect(result).toMatchObject({ reachable: false, problem: { kind, stage } });
      const expected = message(new URL(targetUrl).host);
      if (typeof expected === 'string') expect(result.problem?.message).toBe(expected);
      else expect(result.problem?.message).toMatch(expected);
    } finally {
      await proxy.close();
    }
  });

  it('says the port does not speak HTTP when it answers CONNECT in binary', async () => {
    const proxy = await startAnsweringProxy(Buffer.from([5, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    try {
      const result = await checkProxy({ host, port: proxy.port, protocol: 'http', targetUrl, timeoutMs: 5_000 });
      expect(result).toMatchObject({ reachable: false, problem: { kind: 'permanent', stage: 'handshake' } });
      expect(result.problem?.message).toContain('did not answer as an HTTP proxy');
    } finally {
      await proxy.close();
    }
  });

  it('says the proxy closed without answering when it hangs up on CONNECT (a SOCKS5 port, or a refusal)', async () => {
    const result = await checkProxy({ host, port: socks.port, protocol: 'http', targetUrl, timeoutMs: 5_000 });
    expect(result).toMatchObject({ reachable: false, problem: { kind: 'transient', stage: 'handshake' } });
    expect(result.problem?.message).toContain('closed it without answering');
    expect(result.problem?.hint).toContain('this port serves HTTP');
  });
});

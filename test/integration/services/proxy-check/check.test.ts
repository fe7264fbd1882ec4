/**
 * The proxy check against tiny proxies and a target on loopback: through an
 * HTTP proxy and a SOCKS5 proxy it reports reachable, the latency and the
 * egress address the target saw (127.0.0.2, the proxies' outgoing address,
 * not this process's 127.0.0.1); nothing listening, the wrong protocol and a
 * target the proxy cannot reach each give a clear, classified message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import {
  closedPort,
  EGRESS,
  startEchoTarget,
  startHttpProxy,
  startSocks5Proxy,
  type Running,
} from '../../../support/services/proxy-check/loopback';

let target: Running;
let http: Running;
let socks: Running;
let targetUrl: string;

beforeAll(async () => {
  [target, http, socks] = await Promise.all([startEchoTarget(), startHttpProxy(), startSocks5Proxy()]);
  targetUrl = `http://127.0.0.1:${target.port}/ip`;
});
afterAll(async () => {
  await Promise.all([target.close(), http.close(), socks.close()]);
});

const host = '127.0.0.1';

describe('proxy check', () => {
  it.each(['http', 'socks5'] as const)(
    'reports a working %s proxy reachable, with latency and the egress address the target saw',
    async (protocol) => {
      const proxy = protocol === 'http' ? http : socks;
      const before = proxy.hits;
      const result = await checkProxy({ host, port: proxy.port, protocol, targetUrl });
      expect(result).toMatchObject({ reachable: true, address: host, port: proxy.port, protocol, httpStatus: 200, egressAddress: EGRESS });
      expect(result.problem).toBeUndefined();
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
      expect(result.connectMs).toBeGreaterThanOrEqual(0);
      expect(proxy.hits).toBe(before + 1); // one connection, the request's: no bare connect before it
    },
  );

  it('reads a JSON answer (httpbin style) for the egress address', async () => {
    // As httpbin.org lists it: an X-Forwarded-For that came with the request, then the address its front saw.
    const json = await startEchoTarget((address) => JSON.stringify({ origin: `10.0.0.1, ${address}` }));
    try {
      const result = await checkProxy({ host, port: socks.port, protocol: 'socks5', targetUrl: `http://127.0.0.1:${json.port}/` });
      expect(result.egressAddress).toBe(EGRESS);
    } finally {
      await json.close();
    }
  });

  it('says nothing listens when the port is closed', async () => {
    const port = await closedPort();
    const result = await checkProxy({ host, port, protocol: 'http', targetUrl });
    expect(result.reachable).toBe(false);
    expect(result.problem).toMatchObject({ kind: 'transient', stage: 'connect' });
    expect(result.problem?.message).toBe(`Nothing listens on 127.0.0.1:${port}: the connection was refused.`);
    expect(result.latencyMs).toBeUndefined();
  });

  it('says the port does not speak SOCKS5 when an HTTP proxy answers the greeting', async () => {
    const result = await checkProxy({ host, port: http.port, protocol: 'socks5', targetUrl, timeoutMs: 2_000 });
    expect(result.reachable).toBe(false);
    expect(result.problem).toMatchObject({ kind: 'permanent', stage: 'handshake' });
    expect(result.problem?.message).toBe(`127.0.0.1:${http.port} accepted the connection but did not answer as a SOCKS5 proxy.`);
    expect(result.problem?.hint).toMatch(/protocol/);
  });

  // A SOCKS5 server hangs up on an HTTP request without a byte, as one that refuses the client does: the
  // check cannot tell the two apart, so it says both, the same way every time (issue 22 item 12).
  it('says the proxy closed without answering, and to check its rules and the protocol, when a SOCKS5 port hangs up on HTTP', async () => {
    const result = await checkProxy({ host, port: socks.port, protocol: 'http', targetUrl, timeoutMs: 2_000 });
    expect(result.reachable).toBe(false);
    expect(result.problem).toMatchObject({ kind: 'transient', stage: 'handshake' });
    expect(result.problem?.message).toBe(
      `The proxy at 127.0.0.1:${socks.port} accepted the connection, then closed it without answering: it refused this computer or dropped the connection.`,
    );
    expect(result.problem?.hint).toMatch(/client rules .* this port serves HTTP, the protocol of the proxy's preset/);
  });

  it('tells a working proxy that cannot reach the target from a broken proxy', async () => {
    const deadTarget = `http://127.0.0.1:${await closedPort()}/`;
    const viaSocks = await checkProxy({ host, port: socks.port, protocol: 'socks5', targetUrl: deadTarget });
    expect(viaSocks).toMatchObject({ reachable: false, problem: { kind: 'transient', stage: 'request' } });
    expect(viaSocks.problem?.message).toMatch(
      /^The proxy works, but the SOCKS5 proxy could not connect to 127\.0\.0\.1:\d+: connection refused\.$/,
    );

    const viaHttp = await checkProxy({ host, port: http.port, protocol: 'http', targetUrl: deadTarget });
    expect(viaHttp).toMatchObject({ reachable: false, httpStatus: 502, problem: { stage: 'request' } });
    expect(viaHttp.problem?.message).toContain('the proxy could not reach it');
  });

  it("follows an https target through CONNECT on the HTTP proxy (the tunnel opens; the TLS failure is the target's)", async () => {
    const result = await checkProxy({
      host,
      port: http.port,
      protocol: 'http',
      targetUrl: `https://127.0.0.1:${target.port}/`,
      timeoutMs: 2_000,
    });
    // The echo target speaks plain HTTP, so TLS fails after the tunnel: a request-stage problem, not a handshake one.
    expect(result.reachable).toBe(false);
    expect(result.problem?.stage).toBe('request');
  });
});

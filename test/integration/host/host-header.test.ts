/**
 * DNS rebinding: a page on evil.example whose name later resolves to
 * 127.0.0.1 reaches the host with `Host: evil.example:PORT`. The host serves
 * its files and its socket only to the names it listens as, 127.0.0.1:PORT
 * and localhost:PORT; anything else is a 421 (HTTP) or a 403 (upgrade).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/web-host';
import { rawHttp, rawRequest, rawUpgrade, stillServes } from './raw-client';

describe('browser-mode host checks the Host header', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ demo: 'off' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the app as 127.0.0.1:PORT and localhost:PORT', async () => {
    const { port } = t.host;
    expect((await rawRequest(port, '/', { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await rawRequest(port, '/', { host: `localhost:${port}` })).status).toBe(200);
    expect((await rawRequest(port, '/', { host: `LOCALHOST:${port}` })).status).toBe(200);
  });

  it.each([
    (port: number) => `evil.example:${port}`,
    () => 'evil.example',
    () => '127.0.0.1',
    (port: number) => `127.0.0.1:${port + 1}`,
    (port: number) => `127.0.0.1.evil.example:${port}`,
    (port: number) => `localhost.:${port}`,
    (port: number) => `[::1]:${port}`,
    (port: number) => `127.0.0.1:${port}@evil.example`,
    () => '',
  ])('answers 421 to an HTTP request for another name (%#)', async (hostFor) => {
    const r = await rawRequest(t.host.port, '/', { host: hostFor(t.host.port) });
    expect(r.status).toBe(421);
    expect(r.body.toString()).not.toContain('<script');
  });

  it('answers 421 (or Node’s 400) to a request with no Host at all', async () => {
    // HTTP/1.1 without Host: Node itself answers 400; HTTP/1.0 reaches the host, which refuses it.
    expect((await rawRequest(t.host.port, '/', { host: null })).status).toBe(400);
    expect((await rawHttp(t.host.port, 'GET / HTTP/1.0\r\n\r\n')).status).toBe(421);
  });

  it('refuses the socket upgrade for another name with 403, even with the right key and Origin', async () => {
    await expect(rawUpgrade(t.host.port, t.host.key, { host: `evil.example:${t.host.port}` })).rejects.toThrow(/403/);
    await expect(rawUpgrade(t.host.port, t.host.key, { host: `127.0.0.1:${t.host.port + 1}` })).rejects.toThrow(/403/);
    expect(t.logger.lines.some((l) => l.includes('socket refused') && l.includes('Host'))).toBe(true);
    const ok = await rawUpgrade(t.host.port, t.host.key);
    ok.socket.destroy();
    await stillServes(t.host.port, t.host.key);
  });
});

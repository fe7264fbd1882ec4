/**
 * The proxy check URL (issue 10, low): only an http(s) URL with a host and no
 * credentials is accepted, by the shared schema and so by `settings.set` and
 * `proxies.test` at main's edge, each refusal in words; and the URL set is
 * the one the check really fetches (an echo target on loopback records it),
 * with the built-in default when none is set.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger, createMemoryLogger } from '../../../../main/log/logger';
import { createProxyCheckService } from '../../../../main/services/proxy-check/service';
import { ProxyTestInput } from '../../../../shared/channels/proxy-check';
import type { VmRow } from '../../../../shared/channels/inventory';
import { AppSettings, defaultSettings, StoredAppSettings } from '../../../../shared/domain/profile';
import { DEFAULT_PROXY_CHECK_URL, ProxyCheckUrl } from '../../../../shared/domain/proxy-check-url';
import { startSocks5Proxy, type Running } from '../../../support/services/proxy-check/loopback';
import { startStallingProxy } from './stalling-proxies';

const refused = [
  ['file://x', 'Only http:// and https:// URLs can be fetched through a proxy, not file: URLs.'],
  ['not a url', 'This is not a URL: write it in full, with http:// or https://, such as https://api.ipify.org.'],
  ['', 'Enter the URL the check fetches through the proxy, such as https://api.ipify.org.'],
  ['   ', 'Enter the URL the check fetches through the proxy, such as https://api.ipify.org.'],
  ['ftp://x', 'Only http:// and https:// URLs can be fetched through a proxy, not ftp: URLs.'],
  [
    'http://u:p@x',
    'The URL must not hold a user name or password: it is sent through the proxy and shown in results. Use a URL that needs no login.',
  ],
  [
    'https://user@example.org/ip',
    'The URL must not hold a user name or password: it is sent through the proxy and shown in results. Use a URL that needs no login.',
  ],
  [`https://example.org/${'a'.repeat(2100)}`, 'The URL is longer than 2048 characters.'],
] as const;
/** [label for the test name, value, message]. */
const cases = refused.map(
  ([value, message]) =>
    [value.length > 60 ? `${value.slice(0, 30)}… (${value.length} characters)` : JSON.stringify(value), value, message] as const,
);

describe('the proxy check URL schema', () => {
  it.each(cases)('refuses %s in words', (_label, value, message) => {
    const parsed = ProxyCheckUrl.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([message]);
    expect(AppSettings.safeParse({ ...defaultSettings, proxyCheckUrl: value }).error?.issues[0]).toMatchObject({
      path: ['proxyCheckUrl'],
      message,
    });
    const input = ProxyTestInput.safeParse({ clusterId: 'c', vmid: 100, protocol: 'http', port: 3128, targetUrl: value });
    expect(input.error?.issues[0]?.message).toBe(message);
  });

  it.each(['https://api.ipify.org', 'http://127.0.0.1:8080/ip?format=text', 'https://[::1]/'])('accepts %s', (value) => {
    expect(ProxyCheckUrl.parse(value)).toBe(value);
  });

  it('drops surrounding spaces', () => {
    expect(ProxyCheckUrl.parse('  https://ifconfig.me/ip \n')).toBe('https://ifconfig.me/ip');
  });

  it('reads back a value an older version stored unchecked as the default, not as a broken file', () => {
    for (const [value] of refused) {
      expect(StoredAppSettings.parse({ ...defaultSettings, proxyCheckUrl: value }).proxyCheckUrl).toBe(DEFAULT_PROXY_CHECK_URL);
    }
    expect(StoredAppSettings.parse({ ...defaultSettings, proxyCheckUrl: 'http://10.0.0.1/ip' }).proxyCheckUrl).toBe('http://10.0.0.1/ip');
    expect(StoredAppSettings.safeParse({ ...defaultSettings, extra: 1 }).success).toBe(false);
  });
});

describe('settings.set and proxies.test at main’s edge', () => {
  let app: ComposedApp;
  const ctx = { signal: new AbortController().signal, transport: 'test' };
  beforeAll(() => {
    app = composeApp({
      mode: 'browser',
      version: '0.0.0',
      runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
      logger: createLogger({ sinks: [] }),
      demo: 'off',
      statusIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await app.dispose();
  });

  it.each(cases)('refuses %s and keeps the saved URL', async (_label, value, message) => {
    const answer = await app.router.dispatch('settings.set', { settings: { proxyCheckUrl: value } }, ctx);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'settings.proxyCheckUrl' } });
    expect(answer.ok ? '' : answer.error.message).toContain(message);
    expect(await app.router.dispatch('settings.get', {}, ctx)).toMatchObject({
      ok: true,
      value: { proxyCheckUrl: DEFAULT_PROXY_CHECK_URL },
    });

    const test = await app.router.dispatch(
      'proxies.test',
      { clusterId: 'c', vmid: 100, protocol: 'http', port: 3128, targetUrl: value },
      ctx,
    );
    expect(test).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'targetUrl' } });
  });

  it('saves a valid URL, trimmed', async () => {
    const answer = await app.router.dispatch('settings.set', { settings: { proxyCheckUrl: ' http://127.0.0.1:9/ip ' } }, ctx);
    expect(answer).toMatchObject({ ok: true, value: { proxyCheckUrl: 'http://127.0.0.1:9/ip' } });
  });
});

describe('the URL the check fetches', () => {
  let echo: Server;
  let echoUrl: string;
  let socks: Running;
  const seen: string[] = [];
  beforeAll(async () => {
    echo = createServer((req: IncomingMessage, res) => {
      seen.push(req.url ?? '');
      res.end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    socks = await startSocks5Proxy();
  });
  afterAll(async () => {
    echo.closeAllConnections();
    await Promise.all([new Promise((resolve) => echo.close(resolve)), socks.close()]);
  });

  const row: VmRow = {
    clusterId: 'c',
    vmid: 100_001,
    node: 'pve1',
    name: 'proxy-x',
    state: 'running',
    status: 'running',
    owner: 'marked',
    tags: [],
    address: '127.0.0.1',
  };
  const input = { clusterId: 'c', vmid: 100_001, protocol: 'socks5' as const, port: 0 };

  it("fetches the app's setting, read at each check, and the request's own URL over it", async () => {
    let setting: string | undefined = `${echoUrl}/custom-check?from=setting`;
    const service = createProxyCheckService({ lookup: () => row, logger: createMemoryLogger(), defaultTargetUrl: () => setting });
    const first = await service.test({ ...input, port: socks.port });
    expect(first).toMatchObject({ reachable: true, targetUrl: setting });
    expect(seen.at(-1)).toBe('/custom-check?from=setting');

    setting = `${echoUrl}/changed`;
    expect(await service.test({ ...input, port: socks.port })).toMatchObject({ reachable: true, targetUrl: setting });
    expect(seen.at(-1)).toBe('/changed');

    await service.test({ ...input, port: socks.port, targetUrl: `${echoUrl}/per-request` });
    expect(seen.at(-1)).toBe('/per-request');
  });

  it.each([
    ['unset', undefined],
    ['not a usable URL', 'file://x'],
  ])('falls back to the built-in default when the setting is %s', async (_what, value) => {
    // A proxy that never answers CONNECT: the request line shows the URL asked for, and nothing leaves loopback.
    const stalling = await startStallingProxy('http-connect-reply');
    try {
      const service = createProxyCheckService({
        lookup: () => row,
        logger: createMemoryLogger(),
        defaultTargetUrl: () => value,
        timeoutMs: 300,
      });
      const result = await service.test({ ...input, protocol: 'http', port: stalling.port });
      expect(result.targetUrl).toBe(DEFAULT_PROXY_CHECK_URL);
      expect(stalling.received).toMatch(/^CONNECT api\.ipify\.org:443 HTTP\/1\.1\r\n/);
    } finally {
      await stalling.close();
    }
  });
});

/**
 * Issue 24 §2: checks run over IPv6 where the proxy has only IPv6. Each real
 * daemon listens on ::1 alone (Squid's `http_port [::1]:…`, tinyproxy's
 * `Listen ::1`, microsocks' `-i ::1`, Dante's `internal: ::1`), the guest's
 * address is ::1 as an IPv6-only guest's global address would be, and the
 * check goes through the proxy-check service (what Test and the scheduled
 * checks call) to targets on 127.0.0.1 and on [::1].
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../../shared/channels/inventory';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createProxyCheckService } from '../../../../main/services/proxy-check/service';
import { missing, type Daemon, type RealProxy } from '../../../support/real-proxy';
import { startDanteOnIpv6, startMicrosocksOn, startSquidWith, startTinyproxyWith } from '../../../support/real-proxy-with';

const servers: Server[] = [];
let urls: string[] = [];
beforeAll(async () => {
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer((req, res) => res.end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, '')));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    urls.push(host === '::1' ? `http://[::1]:${port}/ip` : `http://127.0.0.1:${port}/ip`);
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  urls = [];
});

let proxy: RealProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

const row: VmRow = {
  clusterId: 'c',
  vmid: 100_001,
  node: 'pve1',
  name: 'proxy-v6',
  state: 'running',
  status: 'running',
  owner: 'marked',
  tags: [],
  address: '::1',
};

const onlyIpv6: Record<Daemon, () => Promise<RealProxy>> = {
  squid: () =>
    startSquidWith((c, port) =>
      c
        .replace(`http_port 127.0.0.1:${port}`, `http_port [::1]:${port}`)
        .replace(/^(acl private_nets src .*)$/m, '$1\nacl private_nets src ::1'),
    ),
  tinyproxy: () => startTinyproxyWith((c) => c.replace(/^Listen 127\.0\.0\.1$/m, 'Listen ::1').concat('Allow ::1\n')),
  microsocks: () => startMicrosocksOn('::1'),
  danted: startDanteOnIpv6,
};

describe.each(Object.keys(onlyIpv6) as Daemon[])('%s on ::1 only', (daemon) => {
  it.skipIf(missing(daemon) !== undefined)('is checked over IPv6: reachable, the target saw its exit', async () => {
    proxy = await onlyIpv6[daemon]();
    console.log(`running ${proxy.version} on [::1]:${proxy.port}`);
    for (const targetUrl of urls) {
      const service = createProxyCheckService({
        lookup: () => row,
        logger: createMemoryLogger(),
        defaultTargetUrl: targetUrl,
        timeoutMs: 5_000,
      });
      const result = await service.test({ clusterId: 'c', vmid: row.vmid, protocol: proxy.protocol, port: proxy.port });
      expect(result, targetUrl).toMatchObject({ reachable: true, address: '::1', httpStatus: 200 });
      expect(result.egressAddress, targetUrl).toBe(targetUrl.includes('[::1]') ? '::1' : '127.0.0.1');
    }
  });

  it.skipIf(missing(daemon) !== undefined)('names the proxy as [::1]:port when it fails', async () => {
    proxy = await onlyIpv6[daemon]();
    const port = proxy.port;
    await proxy.stop();
    proxy = undefined;
    const service = createProxyCheckService({
      lookup: () => row,
      logger: createMemoryLogger(),
      defaultTargetUrl: urls[0],
      timeoutMs: 5_000,
    });
    const result = await service.test({
      clusterId: 'c',
      vmid: row.vmid,
      protocol: daemon === 'squid' || daemon === 'tinyproxy' ? 'http' : 'socks5',
      port,
    });
    expect(result.problem?.message).toBe(`Nothing listens on [::1]:${port}: the connection was refused.`);
  });
});

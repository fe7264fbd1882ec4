/** proxies.test end to end below IPC: the inventory row gives the address; a VM that cannot answer is a classified error. */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProxyCheckResult } from '../../../../shared/channels/proxy-check';
import type { VmRow } from '../../../../shared/channels/inventory';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createProxyCheckService } from '../../../../main/services/proxy-check/service';
import { egressAttempts } from '../../../support/no-egress';
import { EGRESS, startEchoTarget, startSocks5Proxy, type Running } from '../../../support/services/proxy-check/loopback';

let target: Running;
let socks: Running;
beforeAll(async () => {
  [target, socks] = await Promise.all([startEchoTarget(), startSocks5Proxy()]);
});
afterAll(async () => {
  await Promise.all([target.close(), socks.close()]);
});

const base: VmRow = {
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

function service(rows: VmRow[]) {
  const logger = createMemoryLogger();
  const s = createProxyCheckService({
    lookup: (c, vmid) => rows.find((r) => r.clusterId === c && r.vmid === vmid),
    logger,
    defaultTargetUrl: `http://127.0.0.1:${target.port}/`,
  });
  return { s, logger };
}

describe('proxies.test service', () => {
  it('checks the proxy at the address the inventory knows, with the default target when none is given', async () => {
    const { s, logger } = service([base]);
    const result = await s.test({ clusterId: 'c', vmid: 100_001, protocol: 'socks5', port: socks.port });
    expect(result).toMatchObject({
      reachable: true,
      address: '127.0.0.1',
      egressAddress: EGRESS,
      targetUrl: `http://127.0.0.1:${target.port}/`,
    });
    expect(logger.lines.some((l) => l.includes('proxy checked'))).toBe(true);
  });

  it('refuses a VM that is unknown, stopped or without an address, each with its own kind', async () => {
    const { s } = service([
      { ...base, vmid: 100_002, state: 'stopped', status: 'stopped', address: undefined },
      { ...base, vmid: 100_003, state: 'provisioning', address: undefined },
    ]);
    const input = { clusterId: 'c', protocol: 'http' as const, port: 3128 };
    await expect(s.test({ ...input, vmid: 100_009 })).rejects.toMatchObject({ kind: 'not-found' });
    await expect(s.test({ ...input, vmid: 100_002 })).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringContaining('not running'),
    });
    await expect(s.test({ ...input, vmid: 100_003 })).rejects.toMatchObject({
      kind: 'transient',
      message: expect.stringContaining('no address yet'),
    });
  });
});

describe('proxies.test on the simulated demo cluster', () => {
  const demoRow: VmRow = { ...base, clusterId: 'demo', vmid: 150_001, address: '192.168.0.214' };

  it('refuses to dial a demo guest address the demo routes nowhere, in words, before any socket is opened', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    try {
      const logger = createMemoryLogger();
      const s = createProxyCheckService({
        lookup: (c, vmid) => [demoRow].find((r) => r.clusterId === c && r.vmid === vmid),
        isDemo: (c) => c === 'demo',
        logger,
        defaultTargetUrl: `http://127.0.0.1:${target.port}/`,
      });
      const result = await s.test({ clusterId: 'demo', vmid: 150_001, protocol: 'http', port: 3128 });
      expect(ProxyCheckResult.parse(result)).toEqual({
        reachable: false,
        address: '192.168.0.214',
        port: 3128,
        protocol: 'http',
        targetUrl: `http://127.0.0.1:${target.port}/`,
        problem: {
          kind: 'permanent',
          stage: 'connect',
          message: 'This is the simulated demo cluster: its proxies are not real machines, so Test does not connect anywhere.',
          hint: 'Connect a real cluster to test a proxy.',
        },
      });
      expect(connect).not.toHaveBeenCalled();
      expect(egressAttempts()).toEqual([]);
    } finally {
      connect.mockRestore();
    }
  });

  it("never dials a demo route's non-loopback host, whatever the route says", async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    try {
      const s = createProxyCheckService({
        lookup: (c, vmid) => [demoRow].find((r) => r.clusterId === c && r.vmid === vmid),
        isDemo: (c) => c === 'demo',
        demoRoute: async () => ({ kind: 'listening', host: '192.168.0.214', port: 3128, targetUrl: 'http://127.0.0.1:1/ip', note: 'n' }),
        logger: createMemoryLogger(),
      });
      const result = await s.test({ clusterId: 'demo', vmid: 150_001, protocol: 'http', port: 3128 });
      expect(result).toMatchObject({
        reachable: false,
        address: '192.168.0.214',
        problem: { stage: 'connect', hint: 'Connect a real cluster to test a proxy.' },
      });
      expect(connect).not.toHaveBeenCalled();
      expect(egressAttempts()).toEqual([]);
    } finally {
      connect.mockRestore();
    }
  });

  it('still checks a demo proxy on loopback (the later loopback-backed demo), and any address of a real cluster', async () => {
    const rows = [{ ...demoRow, vmid: 150_002, address: '127.0.0.1' }, base];
    const s = createProxyCheckService({
      lookup: (c, vmid) => rows.find((r) => r.clusterId === c && r.vmid === vmid),
      isDemo: (c) => c === 'demo',
      logger: createMemoryLogger(),
      defaultTargetUrl: `http://127.0.0.1:${target.port}/`,
    });
    expect(await s.test({ clusterId: 'demo', vmid: 150_002, protocol: 'socks5', port: socks.port })).toMatchObject({ reachable: true });
    expect(await s.test({ clusterId: 'c', vmid: 100_001, protocol: 'socks5', port: socks.port })).toMatchObject({ reachable: true });
  });
});

/** proxies.test end to end below IPC: the inventory row gives the address; a VM that cannot answer is a classified error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../../shared/channels/inventory';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createProxyCheckService } from '../../../../main/services/proxy-check/service';
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

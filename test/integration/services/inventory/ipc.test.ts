/**
 * The monitoring channels through the real composition root and router, on
 * the built-in demo cluster: snapshot, refresh, health check and the proxy
 * check's refusals arrive as the contract says; deltas flow on the bus.
 * The demo's Test goes to the loopback proxies the demo runs, never to a simulated guest address.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger } from '../../../../main/log/logger';
import { DEMO_VLAN4_EGRESS_ADDRESS } from '../../../../main/services/demo/demo-proxies';
import type { ClusterInventory, VmRow } from '../../../../shared/channels/inventory';
import type { HealthSnapshot, NodeHealth } from '../../../../shared/channels/health';
import { egressAttempts, isLoopbackHost } from '../../../support/no-egress';

let app: ComposedApp;
const events: { name: string; payload: unknown }[] = [];
const ctx = { signal: new AbortController().signal, transport: 'test' };

beforeAll(async () => {
  app = composeApp({
    mode: 'browser',
    version: '0.0.0',
    runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
    logger: createLogger({ sinks: [] }),
    demo: 'force',
    statusIntervalMs: 60_000,
  });
  app.bus.subscribe((name, payload) => events.push({ name, payload }));
  for (let i = 0; i < 200 && app.profiles.directory.list().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
});
afterAll(async () => {
  await app.dispose();
});

async function call(channel: string, input: unknown) {
  return app.router.dispatch(channel, input, ctx);
}

describe('monitoring over IPC', () => {
  it('refreshes and snapshots the inventory of the demo cluster, with the offline node as the degraded reason', async () => {
    expect(await call('inventory.refresh', { clusterId: 'demo' })).toMatchObject({ ok: true });
    const answer = await call('inventory.snapshot', { clusterId: 'demo' });
    expect(answer.ok).toBe(true);
    const cluster = (answer as { value: { clusters: ClusterInventory[] } }).value.clusters[0]!;
    expect(cluster.vms.find((r) => r.vmid === 150_001)).toMatchObject({ owner: 'marked', node: 'pv1-1' });
    expect(cluster.vms.find((r) => r.vmid === 150_099)).toMatchObject({ owner: 'foreign' });
    expect(cluster.vms.find((r) => r.vmid === 150_006)).toMatchObject({ state: 'unknown' });
    expect(cluster.status.state).toBe('degraded');
    expect(cluster.status.reason).toContain('pv1-3 is offline');
    expect(events.some((e) => e.name === 'inventory.delta')).toBe(true);
  });

  it('checks health on request and keeps it in the snapshot', async () => {
    const answer = await call('health.check', { clusterId: 'demo' });
    const nodes = (answer as { value: { nodes: NodeHealth[] } }).value.nodes;
    expect(nodes.map((n) => [n.node, n.reason])).toEqual([
      ['pv1-1', 'Reachable'],
      ['pv1-2', 'Reachable'],
      ['pv1-3', 'Unreachable'],
    ]);
    const snapshot = (await call('health.snapshot', {})) as { value: HealthSnapshot };
    expect(snapshot.value.clusters[0]!.nodes.find((n) => n.node === 'pv1-3')!.history.length).toBeGreaterThan(0);
    expect(events.some((e) => e.name === 'health.update')).toBe(true);
  });

  it('answers classified errors for a proxy that cannot be checked and for bad input', async () => {
    expect(await call('proxies.test', { clusterId: 'demo', vmid: 150_005, protocol: 'http', port: 3128 })).toMatchObject({
      ok: false,
      error: { kind: 'permanent' },
    });
    expect(await call('proxies.test', { clusterId: 'nope', vmid: 150_005, protocol: 'http', port: 3128 })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await call('proxies.test', { clusterId: 'demo', vmid: 150_001, protocol: 'ftp', port: 3128 })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'protocol' },
    });
    expect(
      await call('proxies.test', { clusterId: 'demo', vmid: 150_001, protocol: 'http', port: 3128, targetUrl: 'file:///etc/passwd' }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'targetUrl' },
    });
    expect(await call('inventory.snapshot', { clusterId: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it('tests each demo proxy through the loopback proxy the demo runs for it, never dialling the simulated guest address', async () => {
    expect(await call('inventory.refresh', { clusterId: 'demo' })).toMatchObject({ ok: true });
    const snapshot = (await call('inventory.snapshot', { clusterId: 'demo' })) as { value: { clusters: ClusterInventory[] } };
    const rows = snapshot.value.clusters[0]!.vms;
    const address = (vmid: number) => rows.find((r: VmRow) => r.vmid === vmid)?.address;
    for (const vmid of [150_001, 150_002, 150_003]) expect(address(vmid)).toMatch(/^192\.168\.\d+\.\d+$/);
    // Every TCP/TLS connect in the process passes here; the inventory's own polls of the simulator are on loopback.
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    try {
      const echo = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ip$/);
      // Squid (HTTP, 3128): the request is forwarded to the demo's echo, which names the simulated egress address.
      expect(await call('proxies.test', { clusterId: 'demo', vmid: 150_001, protocol: 'http', port: 3128 })).toEqual({
        ok: true,
        value: {
          reachable: true,
          address: address(150_001),
          port: 3128,
          protocol: 'http',
          targetUrl: echo,
          connectMs: expect.any(Number),
          firstByteMs: expect.any(Number),
          latencyMs: expect.any(Number),
          httpStatus: 200,
          egressAddress: DEMO_VLAN4_EGRESS_ADDRESS,
          note: 'demo: checked against the built-in echo',
        },
      });
      // microsocks (SOCKS5, 1080).
      expect(await call('proxies.test', { clusterId: 'demo', vmid: 150_002, protocol: 'socks5', port: 1080 })).toMatchObject({
        ok: true,
        value: { reachable: true, address: address(150_002), port: 1080, egressAddress: DEMO_VLAN4_EGRESS_ADDRESS, targetUrl: echo },
      });
      // The broken one (tinyproxy, 8888): its upstream is down, it answers 502; the message names the guest, not 127.0.0.1.
      const broken = (await call('proxies.test', { clusterId: 'demo', vmid: 150_003, protocol: 'http', port: 8888 })) as {
        value: { reachable: boolean; targetUrl: string; httpStatus?: number; problem?: { stage: string; message: string } };
      };
      expect(broken.value).toMatchObject({ reachable: false, httpStatus: 502, problem: { stage: 'request' } });
      expect(broken.value.problem!.message).toBe(
        `The request through ${address(150_003)}:8888 reached an answer of HTTP 502 from ${new URL(broken.value.targetUrl).host} (the proxy could not reach it).`,
      );
      // A port the preset does not listen on: refused, as a real guest would, with nothing dialled at all.
      expect(await call('proxies.test', { clusterId: 'demo', vmid: 150_001, protocol: 'socks5', port: 1080 })).toMatchObject({
        ok: true,
        value: {
          reachable: false,
          problem: { stage: 'connect', message: `Nothing listens on ${address(150_001)}:1080: the connection was refused.` },
        },
      });
      const dialled = connect.mock.calls
        .map((args) => (args[0] && typeof args[0] === 'object' ? (Array.isArray(args[0]) ? args[0][0] : args[0]) : {}) as { host?: string })
        .filter((o) => !isLoopbackHost(o.host));
      expect(dialled).toEqual([]);
      expect(egressAttempts()).toEqual([]);
    } finally {
      connect.mockRestore();
    }
  });
});

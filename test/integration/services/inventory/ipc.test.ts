/**
 * The monitoring channels through the real composition root and router, on
 * the built-in demo cluster: snapshot, refresh, health check and the proxy
 * check's refusals arrive as the contract says; deltas flow on the bus.
 * The demo's Test answers in words and dials nothing.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeApp, type ComposedApp } from '../../../../main/app/compose';
import { createLogger } from '../../../../main/log/logger';
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

  it('answers the demo Test in words, without dialling the simulated guest address', async () => {
    expect(await call('inventory.refresh', { clusterId: 'demo' })).toMatchObject({ ok: true });
    const snapshot = (await call('inventory.snapshot', { clusterId: 'demo' })) as { value: { clusters: ClusterInventory[] } };
    const row = snapshot.value.clusters[0]!.vms.find((r: VmRow) => r.status === 'running' && r.address && r.owner === 'marked');
    expect(row?.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // Every TCP/TLS connect in the process passes here; the inventory's own polls of the simulator are on loopback.
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    try {
      const answer = await call('proxies.test', { clusterId: 'demo', vmid: row!.vmid, protocol: 'socks5', port: 1080 });
      expect(answer).toMatchObject({
        ok: true,
        value: {
          reachable: false,
          address: row!.address,
          problem: {
            kind: 'permanent',
            message: 'This is the simulated demo cluster: its proxies are not real machines, so Test does not connect anywhere.',
            hint: 'Connect a real cluster to test a proxy.',
          },
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

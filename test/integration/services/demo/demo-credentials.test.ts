/**
 * Issue 24 on the demo, through the composed app (nothing leaves the
 * machine): a proxy created in the demo with "require a username and
 * password" gets credentials main makes and keeps; its loopback stand-in
 * enforces what its seed says, as the real daemon reads it; Test sends the
 * credentials and passes, with the demo's egress address; a check with none
 * or wrong ones gets the credentials class. The demo's own proxies ask for
 * credentials main made for them at start, kept like real ones.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger } from '../../../../main/log/logger';
import { demoCredentials, startDemoCluster } from '../../../../main/services/demo/demo-cluster';
import { DEMO_EGRESS_ADDRESS, DEMO_VLAN4_EGRESS_ADDRESS } from '../../../../main/services/demo/demo-proxies';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { presets } from '../../../../renderer/src/views/create/presets';
import type { ProxyCheckResult } from '../../../../shared/channels/proxy-check';
import { egressAttempts } from '../../../support/no-egress';

const ctx = { signal: new AbortController().signal, transport: 'test' };
let app: ComposedApp;

async function request<T>(channel: string, input: unknown): Promise<T> {
  const answer = await app.router.dispatch(channel, input, ctx);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value as T;
}

beforeAll(async () => {
  app = composeApp({
    mode: 'browser',
    version: '0.0.0-test',
    runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
    logger: createLogger({ sinks: [] }),
    demo: 'off',
  });
  // The demo as compose.ts starts it (its own proxies given credentials kept like real ones), at a tenth of its pace:
  // at Proxmox's, three creates at once took about a minute, over the wait below on a loaded CI machine.
  const logger = createLogger({ sinks: [] });
  app.profiles.startDemo(async () => {
    const cluster = await startDemoCluster(logger, 0.1);
    await demoCredentials(cluster, app.credentials);
    return cluster;
  });
  // The demo starts in the background: its first listing.
  await vi.waitFor(
    async () => {
      const snap = await request<{ clusters: { clusterId: string; vms: unknown[] }[] }>('inventory.snapshot', {});
      expect(snap.clusters.find((c) => c.clusterId === 'demo')?.vms.length).toBeGreaterThan(0);
    },
    { timeout: 20_000, interval: 100 },
  );
  // The three creates at once.
  for (const preset of presets) {
    const { taskIds } = await request<{ taskIds: string[] }>('tasks.createProxies', {
      clusterId: 'demo',
      // The demo's suitable template (its ubuntu one has a Proxmox cloud-init drive on purpose).
      template: 'debian-13-template',
      machineType: 'small',
      count: 1,
      name: `creds-${preset.id}`,
      cloudInit: preset.render(preset.defaultPort, { credentials: true }),
    });
    created.set(preset.id, taskIds[0]!);
  }
});
const created = new Map<string, string>();
afterAll(async () => {
  await app?.dispose();
});

describe('credentials on the demo', () => {
  for (const preset of presets) {
    it(`${preset.label}: Test passes with the credentials main keeps; none or wrong ones are refused in words`, async () => {
      let vmid = 0;
      await vi.waitFor(
        async () => {
          const task = await request<{ state: string; vmid?: number; message?: string }>('tasks.get', { id: created.get(preset.id) });
          expect(task.state, task.message).toBe('succeeded');
          vmid = task.vmid!;
          const snap = await request<{ clusters: { clusterId: string; vms: { vmid: number; address?: string }[] }[] }>(
            'inventory.snapshot',
            {},
          );
          expect(snap.clusters.find((c) => c.clusterId === 'demo')?.vms.find((v) => v.vmid === vmid)?.address).toBeTruthy();
        },
        { timeout: 60_000, interval: 200 },
      );
      const input = { clusterId: 'demo', vmid, protocol: preset.protocol, port: preset.defaultPort };
      const passed = await request<ProxyCheckResult>('proxies.test', input);
      expect(passed, JSON.stringify(passed.problem)).toMatchObject({ reachable: true, egressAddress: DEMO_EGRESS_ADDRESS });

      // The stand-in itself, checked without the app's credentials and with wrong ones.
      const route = await app.profiles.directory.get('demo').demoProxies!.route(vmid, preset.defaultPort);
      if (route?.kind !== 'listening') throw new Error('no demo stand-in');
      const direct = (credentials?: { username: string; password: string }) =>
        checkProxy({ host: route.host, port: route.port, protocol: preset.protocol, targetUrl: route.targetUrl, timeoutMs: 5000, credentials });
      expect((await direct()).problem?.message).toMatch(/asks for a username and password/);
      expect((await direct({ username: 'egress', password: 'not-the-password' })).problem?.message).toMatch(
        /refused the username and password/,
      );
    }, 90_000);
  }

  it("the demo's own proxies ask for credentials kept like real ones: Test passes with them, the stand-in refuses none", async () => {
    for (const [vmid, protocol, port] of [
      [150_001, 'http', 3128],
      [150_002, 'socks5', 1080],
    ] as const) {
      const creds = await request<{ username: string; password: string }>('proxies.credentials', { clusterId: 'demo', vmid });
      expect(creds.username).toBe('egress');
      const passed = await request<ProxyCheckResult>('proxies.test', { clusterId: 'demo', vmid, protocol, port });
      expect(passed, JSON.stringify(passed.problem)).toMatchObject({ reachable: true, egressAddress: DEMO_VLAN4_EGRESS_ADDRESS });
      const route = await app.profiles.directory.get('demo').demoProxies!.route(vmid, port);
      if (route?.kind !== 'listening') throw new Error('no demo stand-in');
      const bare = await checkProxy({ host: route.host, port: route.port, protocol, targetUrl: route.targetUrl, timeoutMs: 5000 });
      expect(bare.problem?.message).toMatch(/asks for a username and password/);
    }
  });

  it('connected to nothing but loopback', () => {
    expect(egressAttempts()).toEqual([]);
  });
});

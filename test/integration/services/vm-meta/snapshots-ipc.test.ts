/**
 * Issue 25: the drawer's Snapshots channel through the real composition root and router, on the built-in demo
 * cluster (its simulator seeded with snapshots, datasets.ts DEMO_SNAPSHOTS). What a user would notice: the app's
 * own snapshot told from an admin's, the current state's parent, the words when a disk cannot snapshot, a gone VM
 * as not-found, what a token that may see less is told, and a known secret never crossing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger } from '../../../../main/log/logger';
import { forgetSecret, registerSecret } from '../../../../main/log/secrets';
import { startDemoCluster, type DemoCluster } from '../../../../main/services/demo/demo-cluster';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { vmMetaHandlers } from '../../../../main/services/vm-meta/handlers';
import { demoCluster } from '../../../../main/simulator';
import type { VmSnapshots } from '../../../../shared/channels/vm-meta';
import { startSimCluster } from '../../../support/sim-cluster';

let app: ComposedApp;
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
  for (let i = 0; i < 200 && app.profiles.directory.list().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
});
afterAll(async () => {
  await app.dispose();
});

const call = (input: unknown) => app.router.dispatch('vm.snapshots', input, ctx);

describe('vm.snapshots on the demo cluster', () => {
  it("lists an admin's snapshot and the app's own, oldest first, with the current state's parent", async () => {
    const a = await call({ clusterId: 'demo', vmid: 150_001, name: 'proxy-a7k2m9x4q1w8e5r3t6' });
    expect(a.ok).toBe(true);
    const v = (a as { value: VmSnapshots }).value;
    expect(v).toMatchObject({ node: 'pv1-1', vmid: 150_001, supported: true });
    expect(v.why).toBeUndefined();
    expect(v.snapshots.map((s) => [s.name, s.ours])).toEqual([
      ['before-apt-upgrade', false],
      ['egressdesk-20261201-101500-reconfigure', true],
    ]);
    expect(v.snapshots[0]).toMatchObject({ time: '2026-11-28T09:12:00.000Z', description: expect.stringContaining('apt full-upgrade') });
    expect(v.snapshots[1]).toMatchObject({ parent: 'before-apt-upgrade', vmstate: false });
    expect(v.current).toBe('egressdesk-20261201-101500-reconfigure');
  });

  it('says in words which disk cannot snapshot, naming its storage', async () => {
    const a = await call({ clusterId: 'demo', vmid: 150_005, name: 'proxy-d2w6e1r9t4y7u3i8o0' });
    const v = (a as { value: VmSnapshots }).value;
    expect(v.supported).toBe(false);
    expect(v.why).toBe(
      "VM 150005 cannot be snapshotted: scsi0 is a raw volume on NFS storage 'nas-nfs': Proxmox snapshots only qcow2 volumes there.",
    );
    expect(v.snapshots).toEqual([]);
  });

  it('answers not-found for a gone VM, and refuses in words a VMID that now holds another name', async () => {
    const gone = await call({ clusterId: 'demo', vmid: 150_777, name: 'proxy-gone' });
    expect(gone).toMatchObject({ ok: false, error: { kind: 'not-found', message: expect.stringContaining('150777') } });
    const renamed = await call({ clusterId: 'demo', vmid: 150_001, name: 'proxy-renamed' });
    expect(renamed).toMatchObject({
      ok: false,
      error: { kind: 'permanent', message: expect.stringContaining('is named proxy-a7k2m9x4q1w8e5r3t6, not proxy-renamed') },
    });
  });
});

describe('vm.snapshots and a known secret (sentinel)', () => {
  let demo: DemoCluster;
  const SENTINEL = 'sentinel-Proxy-Passw0rd-7f3a9c';
  beforeAll(async () => {
    demo = await startDemoCluster(createLogger({ sinks: [] }), 0.02);
    registerSecret(SENTINEL);
  });
  afterAll(async () => {
    forgetSecret(SENTINEL);
    await demo?.close();
  });

  it("never answers a secret the app knows, even pasted by an admin into another's snapshot description", async () => {
    const vm = demo.sim.state.vm(150_002)!;
    vm.snapshots = { pasted: { config: {}, snaptime: 1_795_000_000, description: `squid password ${SENTINEL} for the lab` } };
    const directory = new MutableClusterDirectory();
    directory.set(demo.cluster);
    const handlers = vmMetaHandlers({ directory, refreshAfterWrite: () => undefined });
    const v = await handlers['vm.snapshots']({ clusterId: demo.cluster.id, vmid: 150_002, name: 'proxy-b3n8v5c2x7z4l9k1j6' }, ctx);
    expect(v.snapshots.map((s) => [s.name, s.ours])).toEqual([['pasted', false]]);
    expect(v.snapshots[0]!.description).toContain('squid password');
    expect(JSON.stringify(v)).not.toContain(SENTINEL);
  });
});

describe('vm.snapshots with a token that may see less', () => {
  const tokens = {
    vmOnly: { tokenId: 'vmonly@pve!v', acl: { '/vms': ['VM.Audit'], '/nodes': ['Sys.Audit'] } },
    blind: { tokenId: 'blind@pve!b', acl: { '/': ['Sys.Audit', 'Datastore.Audit'] } },
  };
  const read = async (tokenName: keyof typeof tokens) => {
    const env = await startSimCluster({ dataset: demoCluster(), tokens, tokenName });
    try {
      const directory = new MutableClusterDirectory();
      directory.set(env.cluster);
      const handlers = vmMetaHandlers({ directory, refreshAfterWrite: () => undefined });
      return await Promise.resolve(handlers['vm.snapshots']({ clusterId: env.cluster.id, vmid: 150_001, name: 'proxy-a7k2m9x4q1w8e5r3t6' }, ctx)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error as { kind: string; message: string; hint?: string } }),
      );
    } finally {
      await env.close();
    }
  };

  it('without Datastore.Audit: lists the snapshots and says it cannot tell whether the disks can snapshot', async () => {
    const a = await read('vmOnly');
    expect(a).toMatchObject({ value: { supported: false, snapshots: [{ ours: false }, { ours: true }] } });
    expect((a as { value: VmSnapshots }).value.why).toContain("scsi0 is on storage 'local-lvm', which this token cannot see");
  });

  it('without VM.Audit: not-found (Proxmox lists no VM the token may not audit), naming VM.Audit as what to grant', async () => {
    const a = await read('blind');
    expect(a).toMatchObject({
      error: { kind: 'not-found', message: 'No VM 150001 is left: it is gone, or the token may no longer see it.' },
    });
    expect((a as { error: { hint: string } }).error.hint).toContain('grant VM.Audit on /vms/150001');
  });
});

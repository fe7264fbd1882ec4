/**
 * Issue 25: the drawer's Snapshots channel through the real composition root and router, on the built-in demo
 * cluster (its simulator seeded with snapshots, datasets.ts DEMO_SNAPSHOTS). What a user would notice: the app's
 * own snapshot told from an admin's, the current state's parent, the words when a disk cannot snapshot, a gone VM
 * as not-found, and that a read sends nothing that changes the VM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger } from '../../../../main/log/logger';
import type { VmSnapshots } from '../../../../shared/channels/vm-meta';

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

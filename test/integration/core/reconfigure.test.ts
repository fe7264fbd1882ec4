/**
 * Issue 16: reconfigure over the simulator: cores and memory wait for the next start (applied by Proxmox's reboot),
 * memory is live with memory hotplug and NUMA, the disk grows at once and never shrinks, and new user-data is a new
 * seed with a new instance-id under the same volume name, swapped through a staged copy; the marks never change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, newInstanceId, type ProgressEvent } from '../../../main/core';
import { proxyVm, SEED_STORAGE } from '../../../main/simulator';
import { storageUsage } from '../../../main/simulator/views';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

let next = 152_000;
function place(power: 'running' | 'stopped' = 'running', extra: Record<string, string> = {}) {
  const vmid = next++;
  const name = `proxy-re-${vmid}`;
  env.sim.state.addVm('pv1-1', proxyVm(vmid, name, `uid-${vmid}`, power));
  Object.assign(env.sim.state.vm(vmid)!.config, extra);
  env.sim.state.putIso('pv1-1', SEED_STORAGE, `${name}-seed.iso`, new Uint8Array(4096));
  return { vmid, name, id: `vms/${vmid}/${name}` };
}
const writesSince = (since: number) => env.sim.requests.records.slice(since).filter((r) => r.method !== 'GET');
const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('latin1');

describe('reconfigure', () => {
  it('cores and memory of a running VM wait for its next start; the reboot applies them', async () => {
    const p = place();
    const r = await env.provider.reconfigure(p.id, { cores: 2, memoryMiB: 2048 });
    expect(r.effects).toEqual([
      { field: 'cores', takesEffect: 'next-boot' },
      { field: 'memory', takesEffect: 'next-boot' },
    ]);
    expect(r.rebooted).toBe(true);
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm).toMatchObject({ power: 'running' });
    expect(vm.config).toMatchObject({ cores: 2, memory: '2048' });
    expect(vm.pending).toBeUndefined();
  });

  it('without the reboot the change stays pending, and the message says so', async () => {
    const p = place();
    const since = env.sim.requests.records.length;
    const r = await env.provider.reconfigure(p.id, { cores: 4 }, { reboot: false });
    expect(r).toMatchObject({ rebooted: false, message: 'reconfigured: cores at next boot' });
    expect(env.sim.state.vm(p.vmid)!.pending).toEqual({ cores: 4 });
    expect(writesSince(since).map((w) => w.route)).not.toContain('/nodes/{node}/qemu/{vmid}/status/reboot');
  });

  it('memory is live with memory hotplug and NUMA: no reboot', async () => {
    const p = place('running', { hotplug: 'network,disk,usb,memory', numa: '1' });
    const r = await env.provider.reconfigure(p.id, { memoryMiB: 4096 });
    expect(r).toMatchObject({ rebooted: false, effects: [{ field: 'memory', takesEffect: 'now' }] });
    expect(env.sim.state.vm(p.vmid)!.config.memory).toBe('4096');
  });

  it('grows the disk, and refuses one not larger than today before any request that changes anything', async () => {
    const p = place('stopped');
    const since = env.sim.requests.records.length;
    const e = await env.provider.reconfigure(p.id, { diskGiB: 4 }).catch((x: unknown) => x);
    expect(isProviderError(e) && { kind: e.kind, code: e.code }).toEqual({ kind: 'permanent', code: 'disk-not-larger' });
    expect(writesSince(since)).toEqual([]);
    await env.provider.reconfigure(p.id, { diskGiB: 6 });
    expect(String(env.sim.state.vm(p.vmid)!.config.scsi0)).toContain('size=6G');
  });

  it('issue 22: refuses a disk larger than its storage has room for, saying how much is asked, free and where, before any write', async () => {
    const p = place('running');
    const pool = env.sim.state.node('pv1-1')!.storages.get('local-lvm')!;
    const free = storageUsage(pool).avail;
    const since = env.sim.requests.records.length;
    const e = await env.provider.reconfigure(p.id, { cores: 2, diskGiB: 65_536 }).catch((x: unknown) => x);
    expect(isProviderError(e) && { kind: e.kind, code: e.code }).toEqual({ kind: 'permanent', code: 'disk-no-room' });
    const words = isProviderError(e) ? `${e.message} ${e.hint}` : '';
    expect(words).toContain('would grow from 4.0 GiB to 65536 GiB, 65532.0 GiB more');
    expect(words).toContain(`storage local-lvm on pv1-1 has ${(free / 2 ** 30).toFixed(1)} GiB free; nothing was sent`);
    // A thin pool: what Egress Desk assumes, and why.
    expect(words).toMatch(/local-lvm is lvmthin, which takes space only as the guest writes.*counts the whole growth/);
    expect(words).toContain(`Choose at most ${Math.floor(free / 2 ** 30) + 4} GiB`);
    expect(writesSince(since)).toEqual([]);
    expect(env.sim.requests.records.slice(since).map((r) => r.route)).toContain('/nodes/{node}/storage/{storage}/status');
    expect(env.sim.state.vm(p.vmid)!.config).toMatchObject({ scsi0: expect.stringContaining('size=4G') });
    expect(env.sim.state.vm(p.vmid)!.config.cores).not.toBe(2);

    // What fits still grows.
    await env.provider.reconfigure(p.id, { diskGiB: Math.floor(free / 2 ** 30) + 4 });
    expect(String(env.sim.state.vm(p.vmid)!.config.scsi0)).toContain(`size=${Math.floor(free / 2 ** 30) + 4}G`);
  });

  it('new user-data: a new seed with a new instance-id under the same name, staged first; marks unchanged; rebooted', async () => {
    const p = place();
    const before = { ...env.sim.state.vm(p.vmid)!.config };
    const instanceId = newInstanceId(p.name, new Date('2026-11-30T12:00:00Z'));
    const events: ProgressEvent[] = [];
    const since = env.sim.requests.records.length;
    const r = await env.provider.reconfigure(
      p.id,
      { userData: { text: '#cloud-config\nruncmd: [echo again]\n', instanceId } },
      { onProgress: (e) => events.push(e) },
    );
    expect(r).toMatchObject({ instanceId: `${p.name}-20261130120000`, rebooted: true });
    const seed = text(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.iso`)?.bytes);
    expect(seed).toContain(`instance-id: "${instanceId}"`);
    expect(seed).toContain('runcmd: [echo again]');
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.next.iso`)).toBeUndefined();
    const vm = env.sim.state.vm(p.vmid)!;
    expect(String(vm.config.ide2)).toBe(`${SEED_STORAGE}:iso/${p.name}-seed.iso,media=cdrom`);
    expect([vm.config.description, vm.config.tags]).toEqual([before.description, before.tags]);
    // The CD-ROM went to the staged copy before the seed's own file was written over.
    const ide2Writes = writesSince(since)
      .filter((w) => w.route === '/nodes/{node}/qemu/{vmid}/config')
      .map((w) => w.form?.ide2);
    expect(ide2Writes).toEqual([
      `${SEED_STORAGE}:iso/${p.name}-seed.next.iso,media=cdrom`,
      `${SEED_STORAGE}:iso/${p.name}-seed.iso,media=cdrom`,
    ]);
    const uploads = writesSince(since).filter((w) => w.route === '/nodes/{node}/storage/{storage}/upload');
    expect(uploads).toHaveLength(2);
    expect(events.filter((e) => e.phase === 'done').map((e) => e.step)).toEqual([
      'lookup',
      'stage-seed',
      'replace-seed',
      'reboot',
      'wait-running',
    ]);
  });

  it('a rerun after a cut-off once the CD-ROM holds the staged copy skips the staging upload', async () => {
    const p = place('stopped');
    env.sim.state.putIso('pv1-1', SEED_STORAGE, `${p.name}-seed.next.iso`, new Uint8Array(2048));
    env.sim.state.vm(p.vmid)!.config.ide2 = `${SEED_STORAGE}:iso/${p.name}-seed.next.iso,media=cdrom`;
    const since = env.sim.requests.records.length;
    await env.provider.reconfigure(p.id, { userData: { text: '#cloud-config\n', instanceId: 'again-1' } });
    expect(writesSince(since).filter((w) => w.route === '/nodes/{node}/storage/{storage}/upload')).toHaveLength(1);
    expect(String(env.sim.state.vm(p.vmid)!.config.ide2)).toContain(`${p.name}-seed.iso`);
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.next.iso`)).toBeUndefined();
  });

  it('refuses a VM that is not the one meant, sending nothing', async () => {
    const p = place();
    const since = env.sim.requests.records.length;
    const e = await env.provider.reconfigure(p.id, { cores: 2 }, { expect: { uid: 'someone-else' } }).catch((x: unknown) => x);
    expect(isProviderError(e) && e.code).toBe('not-the-one');
    expect(writesSince(since)).toEqual([]);
  });
});

describe('reconfigure cut off at each step, then run again', () => {
  async function rerun(run: () => Promise<unknown>): Promise<unknown> {
    for (let i = 0; ; i++) {
      try {
        return await run();
      } catch (e) {
        if (!isProviderError(e, 'transient') || i > 200) throw e;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }
  const cuts: [string, string][] = [
    ['lookup', 'started'],
    ['configure', 'started'],
    ['configure', 'done'],
    ['stage-seed', 'started'],
    ['stage-seed', 'task'],
    ['stage-seed', 'done'],
    ['replace-seed', 'started'],
    ['replace-seed', 'task'],
    ['replace-seed', 'done'],
    ['reboot', 'started'],
    ['reboot', 'task'],
    ['reboot', 'done'],
  ];
  it.each(cuts)('cut at %s/%s: one seed under its own name with the new instance-id, cores applied, marks kept', async (step, phase) => {
    const p = place();
    const before = { ...env.sim.state.vm(p.vmid)!.config };
    const change = { cores: 3, userData: { text: '#cloud-config\n', instanceId: `${p.name}-cut` } };
    const controller = new AbortController();
    const first = await env.provider
      .reconfigure(p.id, change, {
        signal: controller.signal,
        onProgress: (e) => {
          if (e.step === step && e.phase === phase) controller.abort();
        },
      })
      .then(
        () => new Error(`finished before ${step}/${phase}`),
        (e: unknown) => e,
      );
    expect(isProviderError(first, 'transient'), String(first)).toBe(true);
    // The VM always holds a complete seed: its own, or the staged copy.
    expect(String(env.sim.state.vm(p.vmid)!.config.ide2)).toMatch(/-seed(\.next)?\.iso,media=cdrom$/);
    await rerun(() => env.provider.reconfigure(p.id, change));
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm).toMatchObject({ power: 'running', config: expect.objectContaining({ cores: 3 }) });
    expect(String(vm.config.ide2)).toBe(`${SEED_STORAGE}:iso/${p.name}-seed.iso,media=cdrom`);
    expect(text(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.iso`)?.bytes)).toContain(`instance-id: "${p.name}-cut`);
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.next.iso`)).toBeUndefined();
    expect([vm.config.description, vm.config.tags]).toEqual([before.description, before.tags]);
  });
});

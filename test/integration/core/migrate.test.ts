/**
 * Issue 16: migrate over the simulator (demo cluster: pv1-1 and pv1-2 up, pv1-3 down; each node's proxy-seeds is
 * local): a running proxy moves live with its local disk and its seed follows byte for byte; every refusal comes
 * before any request that changes anything; a rerun after a cut-off converges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, type MigrateOptions, type ProgressEvent } from '../../../main/core';
import { proxyVm, SEED_STORAGE } from '../../../main/simulator';
import { simProvider, variantProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0, profile: { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] } });
});
afterAll(async () => env?.close());

const USER_DATA = '#cloud-config\nhostname: moved\n';
let n = 0;
async function created(power: 'running' | 'stopped' = 'running') {
  const name = `proxy-move-${n++}`;
  const uid = `00000000-0000-4000-8000-00000000000${n}`;
  const id = await env.provider.create({
    uid,
    name,
    placement: { zone: 'pv1-1', machineType: 'small', image: 'debian-13' },
    cloudInit: USER_DATA,
  });
  const vmid = Number(id.split('/')[1]);
  if (power === 'stopped') await env.provider.stop(id);
  return { id, name, uid, vmid };
}

const seedOf = (node: string, name: string) => env.sim.state.iso(node, SEED_STORAGE, `${name}-seed.iso`)?.bytes;
/** The changing requests (anything but GET) the simulator saw since `since`. */
const writesSince = (since: number) => env.sim.requests.records.slice(since).filter((r) => r.method !== 'GET');

async function refusal(id: string, target: string, options: MigrateOptions = {}) {
  const since = env.sim.requests.records.length;
  const e = await env.provider.migrate(id, target, options).catch((x: unknown) => x);
  if (!isProviderError(e)) throw new Error(`expected a refusal, got ${JSON.stringify(e)}`);
  return { kind: e.kind, code: e.code, message: e.message, hint: e.hint, writes: writesSince(since).length };
}

describe('migrate', () => {
  it('moves a running proxy live; the same seed is on the target, the source copy is gone', async () => {
    const p = await created();
    const before = seedOf('pv1-1', p.name)!;
    const events: ProgressEvent[] = [];
    const since = env.sim.requests.records.length;
    const r = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA }, onProgress: (e) => events.push(e) });
    // The demo's template lives on the shared NAS, and so does the clone's disk: only the seed is local.
    expect(r).toMatchObject({ from: 'pv1-1', to: 'pv1-2', online: true, withLocalDisks: false, seed: 'moved' });
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm).toMatchObject({ node: 'pv1-2', power: 'running' });
    expect(String(vm.config.ide2)).toBe(`${SEED_STORAGE}:iso/${p.name}-seed.iso,media=cdrom`);
    expect(Buffer.from(seedOf('pv1-2', p.name)!).equals(Buffer.from(before))).toBe(true);
    expect(seedOf('pv1-1', p.name)).toBeUndefined();
    // The marks are untouched.
    expect(String(vm.config.description)).toContain(`proxy-operator-uid=${p.uid}`);
    const migrateCall = writesSince(since).find((w) => w.route === '/nodes/{node}/qemu/{vmid}/migrate')!;
    expect(migrateCall.form).toMatchObject({ target: 'pv1-2', online: '1' });
    expect(migrateCall.form).not.toHaveProperty('with-local-disks');
    // The order the issue asks: copy, detach, migrate, attach, then delete the source copy.
    const done = events.filter((e) => e.phase === 'done').map((e) => e.step);
    expect(done).toEqual(['lookup', 'copy-seed', 'detach-seed', 'migrate', 'attach-seed', 'delete-source-seed']);
    // The qmigrate task ran on the source node.
    expect(events.find((e) => e.step === 'migrate' && e.phase === 'task')?.upid).toMatch(/^UPID:pv1-1:.*:qmigrate:/);
  });

  it('the console link follows the VM to its new node, and is read without any change', async () => {
    const p = await created();
    await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } });
    const since = env.sim.requests.records.length;
    const c = await env.provider.console(p.id);
    expect(c.node).toBe('pv1-2');
    // The demo template has a serial port (serial0 socket), so the UI offers xterm.js too.
    expect(c.links.map((l) => l.viewer)).toEqual(['novnc', 'xtermjs']);
    expect(c.links[0]!.url).toBe(
      `${env.sim.url.replace(/\/$/, '')}/?console=kvm&novnc=1&vmid=${p.vmid}&vmname=${p.name}&node=pv1-2&resize=off&cmd=`,
    );
    expect(writesSince(since)).toEqual([]);
  });

  it('moves a stopped proxy offline (no online flag)', async () => {
    const p = await created('stopped');
    const since = env.sim.requests.records.length;
    const r = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } });
    expect(r).toMatchObject({ online: false, seed: 'moved' });
    expect(env.sim.state.vm(p.vmid)).toMatchObject({ node: 'pv1-2', power: 'stopped' });
    expect(writesSince(since).find((w) => w.route === '/nodes/{node}/qemu/{vmid}/migrate')!.form).not.toHaveProperty('online');
  });

  it('refuses, before any request that changes anything: same node, unknown node, offline node, no user-data, other user-data', async () => {
    const p = await created();
    expect(await refusal(p.id, 'pv1-1')).toMatchObject({ kind: 'permanent', code: 'same-node', writes: 0 });
    expect(await refusal(p.id, 'pv9-9')).toMatchObject({ kind: 'permanent', code: 'unknown-node', writes: 0 });
    expect(await refusal(p.id, 'pv1-3')).toMatchObject({ kind: 'permanent', code: 'node-offline', writes: 0 });
    const unknown = await refusal(p.id, 'pv1-2');
    expect(unknown).toMatchObject({ kind: 'permanent', code: 'seed-unknown', writes: 0 });
    expect(unknown.hint).toMatch(/shared storage/);
    // Only the size can be compared (Proxmox cannot read an ISO back): a user-data some sectors longer is caught.
    expect(await refusal(p.id, 'pv1-2', { seed: { userData: `#cloud-config\nwrite_files: ${'x'.repeat(9000)}\n` } })).toMatchObject({
      code: 'seed-differs',
      writes: 0,
    });
    expect(env.sim.state.vm(p.vmid)!.node).toBe('pv1-1');
  });

  it('refuses a disk storage the target lacks and a running VM the target has no memory for', async () => {
    const vmid = 151_500;
    const name = 'proxy-move-big';
    env.sim.state.addVm('pv1-1', proxyVm(vmid, name, 'u-big', 'running'));
    env.sim.state.vm(vmid)!.config.memory = '51200';
    expect(await refusal(`vms/${vmid}/${name}`, 'pv1-2', { seed: { userData: '' } })).toMatchObject({
      code: 'not-enough-memory',
      writes: 0,
    });
    env.sim.state.vm(vmid)!.config.memory = '1024';
    env.sim.state.vm(vmid)!.config.scsi1 = 'fast-zfs:vm-151500-disk-2,size=1G';
    env.sim.state.node('pv1-1')!.storages.set('fast-zfs', { storage: 'fast-zfs', type: 'lvmthin', content: 'images', totalBytes: 2 ** 40 });
    const missing = await refusal(`vms/${vmid}/${name}`, 'pv1-2', { seed: { userData: '' } });
    expect(missing).toMatchObject({ code: 'storage-missing', writes: 0 });
    expect(missing.message).toContain('pv1-2 has no storage fast-zfs');
  });

  it('sends with-local-disks for a running VM whose disk is on local storage, and the VM keeps running there', async () => {
    const vmid = 151_700;
    const name = 'proxy-move-local';
    env.sim.state.addVm('pv1-1', proxyVm(vmid, name, 'u-local', 'running'));
    env.sim.state.vm(vmid)!.config.ide2 = 'none,media=cdrom';
    const since = env.sim.requests.records.length;
    const r = await env.provider.migrate(`vms/${vmid}/${name}`, 'pv1-2');
    expect(r).toMatchObject({ online: true, withLocalDisks: true, seed: 'none' });
    expect(writesSince(since).find((w) => w.route === '/nodes/{node}/qemu/{vmid}/migrate')!.form).toMatchObject({
      online: '1',
      'with-local-disks': '1',
    });
    expect(env.sim.state.vm(vmid)).toMatchObject({ node: 'pv1-2', power: 'running' });
  });

  it('a rerun after a cut-off between the migrate and the attach converges: nothing copied twice', async () => {
    const p = await created();
    const seedVol = `${SEED_STORAGE}:iso/${p.name}-seed.iso`;
    // What an attempt cut off after the migrate leaves: the seed on both nodes, the VM on pv1-2 with an empty CD-ROM.
    const bytes = seedOf('pv1-1', p.name)!;
    env.sim.state.putIso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`, bytes);
    const vm = env.sim.state.vm(p.vmid)!;
    vm.config.ide2 = 'none,media=cdrom';
    vm.node = 'pv1-2';
    const since = env.sim.requests.records.length;
    const r = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA }, from: 'pv1-1' });
    expect(r).toMatchObject({ from: 'pv1-1', to: 'pv1-2', seed: 'moved' });
    expect(String(env.sim.state.vm(p.vmid)!.config.ide2)).toBe(`${seedVol},media=cdrom`);
    expect(seedOf('pv1-1', p.name)).toBeUndefined();
    const writes = writesSince(since).map((w) => w.route);
    expect(writes).not.toContain('/nodes/{node}/storage/{storage}/upload');
    expect(writes).not.toContain('/nodes/{node}/qemu/{vmid}/migrate');
  });
});

describe('a token without VM.Migrate', () => {
  it('is told plainly what it lacks, where, and the VM stays', async () => {
    const vmid = 151_800;
    const name = 'proxy-move-denied';
    env.sim.state.addVm('pv1-1', proxyVm(vmid, name, 'u-denied', 'stopped'));
    env.sim.state.vm(vmid)!.config.ide2 = 'none,media=cdrom';
    const auditor = env.sim.tokens.auditor!;
    const v = variantProvider(env.sim, {
      token: { kind: 'secret', tokenId: auditor.tokenId, secret: () => auditor.secret },
      profile: { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] },
    });
    try {
      const e = await v.provider.migrate(`vms/${vmid}/${name}`, 'pv1-2').catch((x: unknown) => x);
      if (!isProviderError(e)) throw new Error(`expected a refusal, got ${String(e)}`);
      expect({ kind: e.kind, code: e.code }).toEqual({ kind: 'permanent', code: 'missing-privilege' });
      expect(e.message).toMatch(new RegExp(`^this token cannot do that: it needs VM\\.Migrate on /vms/${vmid}`));
      expect(e.hint).toMatch(/^Grant VM\.Migrate on \/vms\/151800 to the token's user/);
      expect(env.sim.state.vm(vmid)!.node).toBe('pv1-1');
    } finally {
      await v.close();
    }
  });
});

describe('the simulator migrate', () => {
  it('refuses a running VM without online, and aborts a live one with local disks but no with-local-disks', async () => {
    const vmid = 151_600;
    env.sim.state.addVm('pv1-1', proxyVm(vmid, 'proxy-raw-move', 'u-raw', 'running'));
    env.sim.state.vm(vmid)!.config.ide2 = 'none,media=cdrom';
    const plain = await env.client.migrate('pv1-1', vmid, { target: 'pv1-2' }).catch((e: unknown) => e);
    expect(String(plain)).toMatch(/can't migrate running VM without --online/);
    const upid = await env.client.migrate('pv1-1', vmid, { target: 'pv1-2', online: 1 });
    let status = await env.client.taskStatus('pv1-1', upid);
    while (status.status !== 'stopped') {
      await new Promise((r) => setTimeout(r, 5));
      status = await env.client.taskStatus('pv1-1', upid);
    }
    expect(status.exitstatus).toMatch(/migration aborted/);
    const log = (await env.client.taskLog('pv1-1', upid)).lines.map((l) => l.t).join('\n');
    expect(log).toContain("can't live migrate attached local disks without with-local-disks option");
    expect(env.sim.state.vm(vmid)).toMatchObject({ node: 'pv1-1', power: 'running' });
    expect(env.sim.state.vm(vmid)!.lock).toBeUndefined();
  });
});

describe('migrate cut off at each step, then run again', () => {
  /** Reruns while a task of the cut attempt still holds the VM (transient, as Resume would retry). */
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
  const cuts = ['lookup', 'copy-seed', 'detach-seed', 'migrate', 'attach-seed', 'delete-source-seed'].flatMap((step) =>
    ['started', 'task', 'done'].map((phase) => [step, phase] as const),
  );
  // Config writes and the lookup have no task; after the last step's end nothing is left to cut.
  const reachable = cuts.filter(
    ([step, phase]) =>
      !(phase === 'task' && (step === 'detach-seed' || step === 'attach-seed' || step === 'lookup')) &&
      !(step === 'delete-source-seed' && phase === 'done'),
  );
  it.each(reachable)('cut at %s/%s: the VM ends on the target with its seed, moved once, one seed copy', async (step, phase) => {
    const p = await created();
    const since = env.sim.requests.records.length;
    let from: string | undefined;
    const controller = new AbortController();
    const first = await env.provider
      .migrate(p.id, 'pv1-2', {
        seed: { userData: USER_DATA },
        signal: controller.signal,
        onProgress: (e) => {
          if (e.step === 'lookup' && e.phase === 'done') from = e.node;
          if (e.step === step && e.phase === phase) controller.abort();
        },
      })
      .then(
        () => new Error(`finished before ${step}/${phase}`),
        (e: unknown) => e,
      );
    expect(isProviderError(first, 'transient'), String(first)).toBe(true);
    await rerun(() => env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA }, ...(from ? { from } : {}) }));
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm).toMatchObject({ node: 'pv1-2', power: 'running' });
    expect(String(vm.config.ide2)).toBe(`${SEED_STORAGE}:iso/${p.name}-seed.iso,media=cdrom`);
    expect([seedOf('pv1-1', p.name), seedOf('pv1-2', p.name) !== undefined]).toEqual([undefined, true]);
    const migrates = writesSince(since).filter((w) => w.route === '/nodes/{node}/qemu/{vmid}/migrate' && w.status === 200);
    expect(migrates).toHaveLength(1);
  });
});

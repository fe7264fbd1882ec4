import { describe, expect, it } from 'vitest';
import { isProviderError, type ProgressEvent } from '../../../main/core';
import { formatMark } from '../../../main/core/provider/rules/mark';
import { vmidFor } from '../../../main/core/provider/rules/vmid';
import { CLOUD_INIT_SENTINEL, NAME, UID, firstVmid, harness, request } from './provider-harness';

const count = (calls: string[], method: string) => calls.filter((c) => c.startsWith(`${method} `) || c === method).length;

describe('create', () => {
  it('clones onto the UID VMID with the mark, seeds, configures, grows, starts and waits for running', async () => {
    const { fake, provider } = harness();
    const events: ProgressEvent[] = [];
    const id = await provider.create(request(), { onProgress: (e) => events.push(e) });
    const vmid = firstVmid();
    expect(id).toBe(`vms/${vmid}/${NAME}`);
    const vm = fake.vms.get(vmid)!;
    expect(vm.status).toBe('running');
    expect(vm.config).toMatchObject({
      name: NAME,
      cores: '2',
      memory: '2048',
      agent: '1',
      tags: 'proxy_operator',
      ide2: `proxy-seeds:iso/${NAME}-seed.iso,media=cdrom`,
      net0: 'virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=4',
      scsi0: 'local-lvm:base-disk-0,size=8G',
    });
    expect(vm.config.description).toMatch(/^proxy-operator-managed=true\nproxy-operator-uid=3f1c2d7e/);
    expect(fake.isos.has(`pv1-1/proxy-seeds:iso/${NAME}-seed.iso`)).toBe(true);
    const tasks = events.filter((e) => e.phase === 'task');
    // The seed goes up beside the clone (seed-beside-clone.ts): its POST right after the clone's, both before the
    // config that attaches it; which of their tasks is reported first is whichever POST Proxmox answers first.
    expect([...tasks.map((e) => e.step)].sort()).toEqual(['clone', 'resize', 'start', 'upload-seed']);
    const order = ['clone', 'uploadIso', 'setVmConfig', 'resize', 'start'].map((m) => fake.calls.findIndex((c) => c.startsWith(`${m} `)));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), fake.calls.join('\n')).toBe(true);
    expect(tasks.every((e) => e.upid?.startsWith('UPID:pv1-1:') && e.vmid === vmid && e.total === 8)).toBe(true);
  });

  it('a repeat creates nothing and returns the same ID', async () => {
    const { fake, provider } = harness();
    const id = await provider.create(request());
    const again = await provider.create(request());
    expect(again).toBe(id);
    expect(count(fake.calls, 'clone')).toBe(1);
    expect([...fake.vms.values()].filter((v) => !v.template)).toHaveLength(1);
  });

  it('waits for a nameless clone in progress at its VMID and adopts it instead of cloning again', async () => {
    const { fake, provider } = harness();
    fake.taskMs = 300;
    // A previous attempt submitted the clone and crashed.
    await fake.clone('pv1-1', 9001, { newid: firstVmid(), name: NAME, description: formatMark(UID, new Date()), full: 1 });
    const started = Date.now();
    const id = await provider.create(request());
    expect(id).toBe(`vms/${firstVmid()}/${NAME}`);
    expect(count(fake.calls, 'clone')).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('probes past a foreign VM under a lock without waiting for it', async () => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: firstVmid(), lock: 'backup', config: { name: 'someone-else' } });
    fake.vms.get(firstVmid())!.lock = 'backup';
    const started = Date.now();
    const id = await provider.create(request());
    expect(id).toBe(`vms/${vmidFor(UID, { min: 100000, max: 199999 }, 1)}/${NAME}`);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['our name without a mark', { name: NAME, description: 'hand made' }],
    ['our name with another UID', { name: NAME, description: formatMark('other-uid', new Date()) }],
  ])('refuses %s as permanent, naming the VMID', async (_n, config) => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, config });
    const err = await provider.create(request()).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toContain('150000');
    expect(count(fake.calls, 'clone')).toBe(0);
  });

  it.each([
    ['a template with a cloud-init drive', { ide2: 'local-lvm:vm-9001-cloudinit,media=cdrom' }],
    ['a VM that is not a template', { template: '0' }],
    ['no net0 while a VLAN is set', { net0: '' }],
    ['no boot disk while diskGiB is set', { scsi0: '', boot: '' }],
  ])('refuses %s before any clone', async (_n, config) => {
    const { fake, provider } = harness();
    fake.addTemplate(9001, config);
    const template = fake.vms.get(9001)!;
    template.config = Object.fromEntries(Object.entries(template.config).filter(([, v]) => v !== ''));
    const err = await provider.create(request()).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect(count(fake.calls, 'clone')).toBe(0);
  });

  it('two creates of different names racing onto one VMID both end on their own VMIDs', async () => {
    const { fake, provider } = harness({ vmidRange: { min: 100000, max: 100003 } });
    fake.taskMs = 100;
    const range = { min: 100000, max: 100003 };
    const uids = Array.from({ length: 50 }, (_, i) => `uid-${i}`);
    const a = uids[0]!;
    const b = uids.find((u) => u !== a && vmidFor(u, range, 0) === vmidFor(a, range, 0))!;
    const [idA, idB] = await Promise.all([
      provider.create(request({ uid: a, name: 'proxy-a' })),
      provider.create(request({ uid: b, name: 'proxy-b' })),
    ]);
    expect(idA.split('/')[1]).not.toBe(idB.split('/')[1]);
    expect([...fake.vms.values()].filter((v) => !v.template && v.status === 'running')).toHaveLength(2);
  });

  it('returns within a second of a cancel, mid-clone', async () => {
    const { fake, provider } = harness();
    fake.taskMs = 60_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const err = await provider.create(request(), { signal: controller.signal }).catch((e: unknown) => e);
    expect(isProviderError(err, 'transient')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('never puts the cloud-init text in a log line or an error', async () => {
    const { fake, provider, logger } = harness();
    fake.faults.set('uploadIso', [new Error(`upload refused: ${CLOUD_INIT_SENTINEL}`.slice(0, 20))]);
    const err = await provider.create(request()).catch((e: unknown) => e);
    await provider.create(request());
    expect(String((err as Error).message)).not.toContain('SENTINEL');
    expect(logger.lines.join('\n')).not.toContain('SENTINEL');
  });
});

import { describe, expect, it } from 'vitest';
import { isProviderError, type ProgressEvent } from '../../../main/core';
import { formatMark } from '../../../main/core/provider/rules/mark';
import { fixtureError } from './fake-pve';
import { NAME, UID, firstVmid, harness, request } from './provider-harness';

const ID = `vms/150000/${NAME}`;
const ours = (extra: Record<string, string> = {}) => ({
  name: NAME,
  description: formatMark(UID, new Date('2026-09-23T07:00:00Z')),
  ...extra,
});
const kindOf = (e: unknown) => (isProviderError(e) ? e.kind : `not a ProviderError: ${String(e)}`);

describe('get: spec entry 9, first match decides', () => {
  type Setup = Parameters<ReturnType<typeof harness>['fake']['addVm']>[0];
  const rows: [string, Setup | undefined, string][] = [
    ['VMID absent', undefined, 'not-found'],
    ['locked (clone), nameless', { vmid: 150000, lock: 'clone', config: { lock: 'clone' } }, 'transient'],
    ['locked (backup)', { vmid: 150000, lock: 'backup', config: ours() }, 'transient'],
    ['hibernated (lock suspended)', { vmid: 150000, lock: 'suspended', config: ours() }, 'stopped'],
    ['another name: the VMID was reused', { vmid: 150000, config: { name: 'other' } }, 'not-found'],
    ['no mark', { vmid: 150000, config: { name: NAME, description: 'mine really' } }, 'not-found'],
    ['stopped', { vmid: 150000, config: ours() }, 'stopped'],
    ['running with an address', { vmid: 150000, status: 'running', qmpstatus: 'running', config: ours() }, 'running'],
    [
      'running, agent not running yet',
      { vmid: 150000, status: 'running', qmpstatus: 'running', agent: 'not-running', config: ours() },
      'provisioning',
    ],
    [
      'running, agent not configured',
      { vmid: 150000, status: 'running', qmpstatus: 'running', agent: 'unconfigured', config: ours() },
      'stopped',
    ],
    ['running, prelaunch', { vmid: 150000, status: 'running', qmpstatus: 'prelaunch', config: ours() }, 'provisioning'],
    ['running, paused', { vmid: 150000, status: 'running', qmpstatus: 'paused', config: ours() }, 'stopped'],
  ];
  it.each(rows)('%s', async (_name, setup, want) => {
    const { fake, provider } = harness();
    if (setup) fake.addVm(setup);
    const got = await provider.get(ID).then(
      (i) => i.state,
      (e: unknown) => kindOf(e),
    );
    expect(got).toBe(want);
  });

  it('a running VM reports the agent address, UID and created-at', async () => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, status: 'running', qmpstatus: 'running', config: ours() });
    expect(await provider.get(ID)).toMatchObject({
      state: 'running',
      ip: '192.168.0.150',
      uid: UID,
      createdAt: new Date('2026-09-23T07:00:00Z'),
    });
  });

  it('a VM that stopped between the status read and the agent call is transient', async () => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, status: 'running', qmpstatus: 'running', config: ours() });
    fake.faults.set('agentNetworkInterfaces', [fixtureError('err_agent_vm_stopped')]);
    expect(await provider.get(ID).catch(kindOf)).toBe('transient');
  });

  it.each(['vms/0150000/x', 'vms/150000', 'nope'])('malformed ID %s is permanent for get and delete', async (id) => {
    const { provider } = harness();
    expect(await provider.get(id).catch(kindOf)).toBe('permanent');
    expect(await provider.delete(id).catch(kindOf)).toBe('permanent');
  });
});

describe('delete', () => {
  it('stops, deletes the seed, then destroys; get is then not-found; a second delete succeeds', async () => {
    const { fake, provider } = harness();
    const id = await provider.create(request());
    const events: ProgressEvent[] = [];
    await provider.delete(id, { onProgress: (e) => events.push(e) });
    const order = fake.calls.filter((c) => /^(stop|deleteVolume|destroy) /.test(c)).map((c) => c.split(' ')[0]);
    expect(order).toEqual(['stop', 'deleteVolume', 'destroy']);
    expect(events.filter((e) => e.phase === 'task').map((e) => e.step)).toEqual(['stop', 'delete-seed', 'destroy']);
    expect(fake.vms.has(firstVmid())).toBe(false);
    expect(fake.isos.size).toBe(0);
    expect(await provider.get(id).catch(kindOf)).toBe('not-found');
    await provider.delete(id);
  });

  it('a failed seed delete leaves the VM in place for the next delete', async () => {
    const { fake, provider } = harness();
    const id = await provider.create(request());
    fake.faults.set('deleteVolume', [fixtureError('err_forbidden_volume_delete')]);
    expect(await provider.delete(id).catch(kindOf)).toBe('permanent');
    expect(fake.vms.has(firstVmid())).toBe(true);
    await provider.delete(id);
    expect(fake.vms.has(firstVmid())).toBe(false);
    expect(fake.isos.size).toBe(0);
  });

  it('with the VM gone, deletes the seed on every node, skipping a node that fails', async () => {
    const { fake, provider } = harness({ nodes: ['pv1-1', 'pv1-2'] });
    fake.faults.set('deleteVolume', [fixtureError('err_proxy_595')]);
    await provider.delete(ID);
    expect(fake.calls.filter((c) => c.startsWith('deleteVolume')).map((c) => c.split(' ')[1])).toEqual(['pv1-1', 'pv1-2']);
  });

  it('a refused privilege on the every-node path fails the call', async () => {
    const { fake, provider } = harness({ nodes: ['pv1-1', 'pv1-2'] });
    fake.faults.set('deleteVolume', [fixtureError('err_forbidden_volume_delete')]);
    const err = await provider.delete(ID).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('permanent');
    expect((err as { hint: string }).hint).toContain('Datastore.Allocate');
  });

  it.each([
    ['another name', { name: 'other' }],
    ['no mark', { name: NAME }],
  ])('leaves a VM with %s alone', async (_n, config) => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, status: 'running', config });
    await provider.delete(ID);
    expect(fake.vms.has(150000)).toBe(true);
    expect(fake.calls.some((c) => c.startsWith('destroy') || c.startsWith('stop'))).toBe(false);
  });

  it('a locked VM is transient, never gone', async () => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, lock: 'backup', config: ours() });
    expect(await provider.delete(ID).catch(kindOf)).toBe('transient');
  });

  it('get during a delete still sees the VM (stopped) until the destroy ends', async () => {
    const { fake, provider } = harness();
    const id = await provider.create(request());
    fake.taskMs = 200;
    let seen: string | undefined;
    const deleting = provider.delete(id, {
      onProgress: (e) => {
        if (e.step === 'destroy' && e.phase === 'task') void provider.get(id).then((i) => (seen = i.state));
      },
    });
    await deleting;
    expect(seen).toBe('stopped');
  });
});

describe('create and delete resume after a crash at every step', () => {
  for (const step of ['lookup', 'clone', 'upload-seed', 'configure', 'resize', 'start', 'wait-running']) {
    it(`create cut off after ${step}`, async () => {
      const { fake, provider } = harness();
      const controller = new AbortController();
      await provider
        .create(request(), { signal: controller.signal, onProgress: (e) => e.step === step && e.phase === 'done' && controller.abort() })
        .catch(() => undefined);
      const id = await provider.create(request());
      expect(id).toBe(`vms/${firstVmid()}/${NAME}`);
      const vms = [...fake.vms.values()].filter((v) => !v.template);
      expect(vms.map((v) => v.status)).toEqual(['running']);
      expect([...fake.isos.keys()]).toEqual([`pv1-1/proxy-seeds:iso/${NAME}-seed.iso`]);
    });
  }
  for (const step of ['lookup', 'stop', 'delete-seed', 'destroy']) {
    it(`delete cut off after ${step}`, async () => {
      const { fake, provider } = harness();
      const id = await provider.create(request());
      const controller = new AbortController();
      await provider
        .delete(id, { signal: controller.signal, onProgress: (e) => e.step === step && e.phase !== 'started' && controller.abort() })
        .catch(() => undefined);
      await provider.delete(id);
      expect([...fake.vms.values()].filter((v) => !v.template)).toHaveLength(0);
      expect(fake.isos.size).toBe(0);
    });
  }
});

describe('listByTag', () => {
  it('lists marked candidates (an empty UID too), skips unmarked, templates, nameless and unreadable ones', async () => {
    const { fake, provider } = harness();
    fake.addVm({ vmid: 150000, config: ours({ tags: 'proxy_operator' }) });
    fake.addVm({ vmid: 150001, config: { name: 'proxy-x', description: 'proxy-operator-managed=true' } });
    fake.addVm({ vmid: 150002, config: { name: 'proxy-hand-made' } });
    fake.addVm({ vmid: 150003, lock: 'clone', config: { lock: 'clone' } });
    fake.addVm({ vmid: 150004, config: { name: 'web', tags: 'Proxy_Operator', description: formatMark('u4', new Date()) } });
    fake.addVm({ vmid: 150005, config: ours({ name: 'proxy-gone' }) });
    fake.addVm({ vmid: 150006, config: ours({ name: 'not-a-candidate' }) });
    fake.faults.set('vmConfig', []);
    const original = fake.vmConfig.bind(fake);
    fake.vmConfig = async (node, vmid) => {
      if (vmid === 150005) throw fixtureError('err_config_missing');
      return original(node, vmid);
    };
    const listed = await provider.listByTag();
    expect(listed.map((i) => [i.id, i.uid])).toEqual([
      [`vms/150000/${NAME}`, UID],
      ['vms/150001/proxy-x', ''],
      ['vms/150004/web', 'u4'],
    ]);
  });

  it('a failed listing fails the whole call', async () => {
    const { fake, provider } = harness();
    fake.faults.set('clusterResources', [fixtureError('err_proxy_596')]);
    expect(await provider.listByTag().catch(kindOf)).toBe('transient');
  });
});

describe('check', () => {
  it('reports every node in profile order with details, and the reason of each failure', async () => {
    const { fake, provider } = harness({ nodes: ['pv1-1', 'pv1-2', 'pv1-3'], templates: { a: { vmid: 9001 }, b: { vmid: 9002 } } });
    fake.addVm({ vmid: 9002, config: { name: 'not-a-template' } });
    const original = fake.nodeStatus.bind(fake);
    fake.nodeStatus = async (node) => {
      if (node === 'pv1-2') throw fixtureError('err_proxy_595');
      if (node === 'pv1-3') throw fixtureError('err_forbidden');
      return original(node);
    };
    const result = await provider.check();
    expect(result.map((r) => [r.node, r.reason])).toEqual([
      ['pv1-1', 'TemplateNotFound'],
      ['pv1-2', 'Unreachable'],
      ['pv1-3', 'Forbidden'],
    ]);
    expect(result[0]!.details).toMatchObject({
      pveVersion: '9.2.20',
      kernel: '7.0.14-17-pve',
      isoStorage: 'proxy-seeds',
      isoStorageAvailGiB: '10.0',
      templates: '1/2',
      tokenID: 'egress@pve!desk',
    });
  });

  it('a storage the cluster does not know is StorageNotFound', async () => {
    const { fake, provider } = harness();
    fake.faults.set('storageStatus', [fixtureError('storage_status_missing')]);
    expect((await provider.check())[0]!.reason).toBe('StorageNotFound');
  });
});

/**
 * Issue 24 through the task manager: a create's own bridge and VLAN reach net0, and bad network input is refused in
 * words before any write (a VLAN outside 1–4094 before any request at all, a bridge the node lacks after one read).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_STORAGE } from '../../../../main/simulator';
import { cloudInit, madeHere, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const createInput = { clusterId: 'sim', template: 't9001', machineType: 'small', count: 1, cloudInit, node: 'pv1-1' };
const writes = (e: Env) => e.t.sim.requests.records.filter((r) => r.method !== 'GET');

describe('a create with its own network', () => {
  it('puts the chosen bridge and VLAN into net0', async () => {
    env = await startEnv();
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-vlan', network: { bridge: 'vmbr0', vlanTag: 30 } });
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state).toBe('succeeded');
    const vm = [...env.t.sim.state.vms.values()].find((v) => v.config.name === 'proxy-vlan')!;
    expect(String(vm.config.net0)).toMatch(/bridge=vmbr0.*tag=30|tag=30.*bridge=vmbr0/);
  });

  it('refuses a VLAN outside 1–4094 before any request, in words', async () => {
    env = await startEnv();
    const before = env.t.sim.requests.records.length;
    await expect(env.manager.createProxies({ ...createInput, name: 'proxy-bad-vlan', network: { vlanTag: 4095 } })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'network.vlanTag',
      message: expect.stringContaining('outside 1–4094'),
    });
    expect(env.t.sim.requests.records.length).toBe(before);
  });

  it('refuses a bridge the node lacks, naming the bridges it has, with no write', async () => {
    env = await startEnv();
    await expect(
      env.manager.createProxies({ ...createInput, name: 'proxy-bad-bridge', network: { bridge: 'vmbr7' } }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'network.bridge',
      message: expect.stringMatching(/pv1-1 has no bridge vmbr7 .*vmbr0, vmbr1.*Nothing was created/),
    });
    expect(writes(env)).toEqual([]);
  });

  it('refuses a gateway outside the subnet before any request', async () => {
    env = await startEnv();
    const before = env.t.sim.requests.records.length;
    await expect(
      env.manager.createProxies({
        ...createInput,
        name: 'proxy-bad-gw',
        network: { ipv4: { address: '10.1.2.3/24', gateway: '10.1.3.1' } },
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'network.ipv4.gateway' });
    expect(env.t.sim.requests.records.length).toBe(before);
  });
});

describe('a reconfigure of the network', () => {
  it('moves a running proxy to another bridge and VLAN at once, model and MAC kept, with no reboot', async () => {
    env = await startEnv();
    const vmid = await madeHere(env, 'proxy-move', cloudInit);
    const before = String(env.t.sim.state.vm(vmid)!.config.net0);
    const { taskIds } = await env.manager.reconfigure({
      clusterId: 'sim',
      targets: [{ vmid, name: 'proxy-move' }],
      network: { bridge: 'vmbr1', vlanTag: 40 },
    });
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.message).toContain('network applied');
    expect(done.message).not.toContain('rebooted');
    const net0 = String(env.t.sim.state.vm(vmid)!.config.net0);
    expect(net0.split(',')[0]).toBe(before.split(',')[0]);
    expect(net0).toContain('bridge=vmbr1');
    expect(net0).toContain('tag=40');
  });

  it('refuses a bridge the VM’s node lacks before any task', async () => {
    env = await startEnv();
    const vmid = await madeHere(env, 'proxy-stay', cloudInit);
    const writesBefore = writes(env).length;
    await expect(
      env.manager.reconfigure({ clusterId: 'sim', targets: [{ vmid, name: 'proxy-stay' }], network: { bridge: 'vmbr5' } }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'network.bridge', message: expect.stringContaining('Nothing was changed.') });
    expect(writes(env).length).toBe(writesBefore);
  });
});

describe('a static address kept per proxy', () => {
  it('writes the network-config again into the seed a new user-data brings', async () => {
    env = await startEnv();
    const network = { ipv4: { address: '192.168.20.5/24', gateway: '192.168.20.1' } };
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-kept', network });
    const made = await env.manager.wait(taskIds[0]!);
    expect(made.state, made.message).toBe('succeeded');
    const seed = () => Buffer.from(env!.t.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-kept-seed.iso')!.bytes).toString('latin1');
    expect(seed()).toContain('- "192.168.20.5/24"');
    const again = await env.manager.reconfigure({
      clusterId: 'sim',
      targets: [{ vmid: made.vmid!, name: 'proxy-kept' }],
      cloudInit: `${cloudInit}# changed\n`,
      reboot: false,
    });
    const done = await env.manager.wait(again.taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(seed()).toContain('# changed');
    expect(seed()).toContain('- "192.168.20.5/24"');
  });
});

describe('a recreate keeps the network', () => {
  it('makes the new VM on the bridge a reconfigure last moved it to, with the same static address', async () => {
    env = await startEnv();
    const network = { bridge: 'vmbr0', ipv4: { address: '192.168.20.6/24', gateway: '192.168.20.1' } };
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-again', network });
    const made = await env.manager.wait(taskIds[0]!);
    expect(made.state, made.message).toBe('succeeded');
    const moved = await env.manager.reconfigure({
      clusterId: 'sim',
      targets: [{ vmid: made.vmid!, name: 'proxy-again' }],
      network: { bridge: 'vmbr1' },
    });
    expect((await env.manager.wait(moved.taskIds[0]!)).state).toBe('succeeded');
    const again = await env.manager.recreate({ clusterId: 'sim', targets: [{ vmid: made.vmid!, name: 'proxy-again' }] });
    const done = await env.manager.wait(again.taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    const vm = [...env.t.sim.state.vms.values()].find((v) => v.config.name === 'proxy-again')!;
    expect(String(vm.config.net0)).toContain('bridge=vmbr1');
    const seed = Buffer.from(env.t.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-again-seed.iso')!.bytes).toString('latin1');
    expect(seed).toContain('- "192.168.20.6/24"');
  });
});

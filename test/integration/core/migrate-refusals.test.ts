/**
 * Issue 25 item 5, migrate: Proxmox's refusals said in its own words and classified, and a refused migrate leaves the
 * proxy as it was (its seed in the CD-ROM, no copy on the target); on Proxmox VE 7.4, 8.4 and 9.2 (demo cluster:
 * pv1-1 and pv1-2 up; each node's proxy-seeds is local, so the seed is rebuilt on the target).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, TaskFailedError } from '../../../main/core';
import { waitTask } from '../../../main/core/provider/calls/tasks';
import { SEED_STORAGE, type PveVersion } from '../../../main/simulator';
import { defaultTokens } from '../../../main/simulator/auth';
import { fastBudgets, simProvider, variantProvider, type SimProvider } from './sim-provider';

const USER_DATA = '#cloud-config\nhostname: stays\n';
const NODES = { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] };
/** The operator's grants without VM.Migrate: the upload and the detach are allowed, the migrate is not. */
const operatorAcl = defaultTokens(SEED_STORAGE).operator!.acl;
const NO_MIGRATE = {
  tokenId: 'proxy-operator@pve!no-migrate',
  acl: Object.fromEntries(Object.entries(operatorAcl).map(([path, privs]) => [path, privs.filter((p) => p !== 'VM.Migrate')])),
};

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  let n = 0;
  beforeAll(async () => {
    env = await simProvider({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0, version, profile: NODES, tokens: { noMigrate: NO_MIGRATE } });
  });
  afterAll(async () => env?.close());

  async function created() {
    n++;
    const name = `proxy-stay-${version.replace('.', '')}-${n}`;
    const uid = `5a5a5a5a-0000-4000-8000-0000000${version.replace('.', '')}${String(n).padStart(2, '0')}`;
    const id = await env.provider.create({ uid, name, placement: { zone: 'pv1-1', machineType: 'small', image: 'debian-13' }, cloudInit: USER_DATA });
    return { id, name, uid, vmid: Number(id.split('/')[1]) };
  }

  it('a migrate refused inside its task says Proxmox’s reason from the log, permanent, with what to do', async () => {
    const p = await created();
    env.sim.state.vm(p.vmid)!.config.usb0 = 'host=1234:5678';
    const upid = await env.client.migrate('pv1-1', p.vmid, { target: 'pv1-2', online: 1 });
    const e = await waitTask({ api: env.client, log: env.logger, budgets: { youngPollMs: 2, oldPollMs: 10, youngForMs: 200, ...fastBudgets } }, upid, 10_000).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TaskFailedError);
    const failed = e as TaskFailedError;
    expect(failed.exitstatus).toBe('migration aborted');
    expect(failed.reason).toBe("can't migrate VM which uses local devices: usb0");
    expect(failed.failureClass).toBe('permanent');
    expect(failed.message).toContain("can't migrate VM which uses local devices: usb0");
    expect(failed.hint).toMatch(/Remove usb0 from the VM's Hardware/);
    delete env.sim.state.vm(p.vmid)!.config.usb0;
  });
  it('the provider’s migrate of a VM with a passed-through USB device is refused by Proxmox’s precondition before anything is changed', async () => {
    const p = await created();
    env.sim.state.vm(p.vmid)!.config.usb0 = 'host=1234:5678';
    const ide2 = env.sim.state.vm(p.vmid)!.config.ide2;
    const since = env.sim.requests.records.length;
    const e = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } }).catch((x: unknown) => x);
    expect(isProviderError(e, 'permanent'), String(e)).toBe(true);
    expect((e as { code?: string }).code).toBe('local-devices');
    expect((e as Error).message).toMatch(/uses local devices \(usb0\).*nothing was sent/);
    expect((e as { hint: string }).hint).toMatch(/Remove usb0 from the VM's Hardware/);
    expect(env.sim.requests.records.slice(since).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(env.sim.requests.records.slice(since).some((r) => r.route === '/nodes/{node}/qemu/{vmid}/migrate' && r.method === 'GET')).toBe(true);
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm.node).toBe('pv1-1');
    expect(vm.config.ide2).toBe(ide2);
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`)).toBeUndefined();
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.iso`)).toBeDefined();
  });

  it('a token without VM.Migrate is refused by the precondition read, with the privilege named; nothing is changed', async () => {
    const p = await created();
    const ide2 = env.sim.state.vm(p.vmid)!.config.ide2;
    const since = env.sim.requests.records.length;
    const denied = env.sim.tokens.noMigrate!;
    const v = variantProvider(env.sim, { token: { kind: 'secret', tokenId: denied.tokenId, secret: () => denied.secret }, profile: NODES });
    try {
      const e = await v.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } }).catch((x: unknown) => x);
      expect(isProviderError(e, 'permanent'), String(e)).toBe(true);
      expect((e as { code?: string }).code).toBe('missing-privilege');
      expect((e as Error).message).toContain(`it needs VM.Migrate on /vms/${p.vmid}`);
    } finally {
      await v.close();
    }
    expect(env.sim.requests.records.slice(since).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(env.sim.state.vm(p.vmid)!.config.ide2).toBe(ide2);
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`)).toBeUndefined();
  });

  it('a migrate that fails after the seed’s detach puts the seed back and deletes the target’s copy', async () => {
    const p = await created();
    const ide2 = env.sim.state.vm(p.vmid)!.config.ide2;
    env.sim.faults.failTask({ type: 'qmigrate' }, 'task_status_stopped_error');
    const e = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } }).catch((x: unknown) => x);
    env.sim.faults.clear();
    expect(isProviderError(e), String(e)).toBe(true);
    expect((e as Error).message).toMatch(new RegExp(`The VM stays on pv1-1: its seed is back in its CD-ROM on pv1-1, and the copy on pv1-2 is deleted`));
    const vm = env.sim.state.vm(p.vmid)!;
    expect(vm.node).toBe('pv1-1');
    expect(vm.config.ide2).toBe(ide2);
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`)).toBeUndefined();
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.iso`)).toBeDefined();
    // And it migrates once the cause is gone.
    await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } });
    expect(env.sim.state.vm(p.vmid)!.node).toBe('pv1-2');
  });

  it('a rerun refused after an earlier attempt’s detach puts the seed back and removes the target’s copy too', async () => {
    const p = await created();
    const vm = env.sim.state.vm(p.vmid)!;
    const ide2 = vm.config.ide2;
    // What an attempt cut off after its detach left: the seed copied to pv1-2 and the CD-ROM empty.
    env.sim.state.putIso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`, env.sim.state.iso('pv1-1', SEED_STORAGE, `${p.name}-seed.iso`)!.bytes);
    vm.config.ide2 = 'none,media=cdrom';
    vm.config.usb0 = 'host=1234:5678';
    const e = await env.provider.migrate(p.id, 'pv1-2', { seed: { userData: USER_DATA } }).catch((x: unknown) => x);
    expect(isProviderError(e, 'permanent'), String(e)).toBe(true);
    expect((e as { code?: string }).code).toBe('local-devices');
    expect((e as Error).message).toMatch(/uses local devices \(usb0\).*The VM stays on pv1-1: its seed is back in its CD-ROM on pv1-1, and the copy on pv1-2 is deleted\.$/);
    expect((e as Error).message).not.toMatch(/nothing was sent/);
    expect(vm.config.ide2).toBe(ide2);
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${p.name}-seed.iso`)).toBeUndefined();
  });
});

/**
 * Issue 25 item 5, migrate: Proxmox's refusals said in its own words and classified, and a refused migrate leaves the
 * proxy as it was (its seed in the CD-ROM, no copy on the target); on Proxmox VE 7.4, 8.4 and 9.2 (demo cluster:
 * pv1-1 and pv1-2 up; each node's proxy-seeds is local, so the seed is rebuilt on the target).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskFailedError } from '../../../main/core';
import { waitTask } from '../../../main/core/provider/calls/tasks';
import { type PveVersion } from '../../../main/simulator';
import { fastBudgets, simProvider, type SimProvider } from './sim-provider';

const USER_DATA = '#cloud-config\nhostname: stays\n';

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  let n = 0;
  beforeAll(async () => {
    env = await simProvider({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0, version, profile: { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] } });
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
});

/**
 * Spec entry 9, every row, over the simulator and the real client: the
 * cluster is put in the state the row names and Get must answer what the
 * row says. The Proxmox answers come from the simulator (its texts are the
 * fixtures'), never from a hand-made error object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, type Instance } from '../../../main/core';
import { formatMark } from '../../../main/core/provider/rules/mark';
import { plainVm, proxyVm } from '../../../main/simulator';
import { TEMPLATE_VMID, simProvider, type SimProvider } from './sim-provider';

const NAME = 'proxy-row';
const UID = '0b8f2c4e-6a1d-4e3f-9b7c-5d2a1e0f3c4b';
const CONFIG_ROUTE = '/nodes/{node}/qemu/{vmid}/config';
const AGENT_ROUTE = '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const idOf = (vmid: number, name = NAME) => `vms/${vmid}/${name}`;
const ours = (vmid: number, power: Parameters<typeof proxyVm>[3] = 'running') =>
  env.sim.state.addVm('pv1-1', proxyVm(vmid, NAME, UID, power));
const outcome = (p: Promise<Instance>) =>
  p.then(
    (i) => i.state,
    (e: unknown) => (isProviderError(e) ? e.kind : `not a ProviderError: ${String(e)}`),
  );

/** Resolves once the simulator has answered a request on `route` after the first `since` records. */
async function answered(route: string, since: number): Promise<void> {
  const seen = () => env.sim.requests.records.slice(since).some((r) => r.route === route);
  while (!seen()) await new Promise((r) => setTimeout(r, 2));
}

type Row = [row: string, setup: (vmid: number) => void | Promise<void>, want: string];

const rows: Row[] = [
  ['VMID absent from /cluster/resources', () => undefined, 'not-found'],
  [
    'a task lock (backup) in the listing',
    (vmid) => {
      ours(vmid);
      env.sim.faults.holdLock(vmid, 'backup');
    },
    'transient',
  ],
  [
    'a clone in progress: nameless, lock clone, status unknown',
    async (vmid) => {
      env.sim.faults.hangTask({ type: 'qmclone', id: TEMPLATE_VMID }, 1);
      await env.client.clone('pv1-1', TEMPLATE_VMID, { newid: vmid, name: NAME, description: formatMark(UID, new Date()), full: 1 });
    },
    'transient',
  ],
  ['lock suspended (hibernated) and ours', (vmid) => void ours(vmid, 'hibernated'), 'stopped'],
  [
    'lock suspended but another name: ownership still checked',
    (vmid) => void env.sim.state.addVm('pv1-1', { ...plainVm(vmid, 'someone-else'), power: 'hibernated' }),
    'not-found',
  ],
  [
    'config does not exist: deleted between the two calls',
    (vmid) => {
      ours(vmid);
      env.sim.faults.inject({ route: CONFIG_ROUTE, vmid }, { kind: 'error', fixture: 'err_config_missing' }, 1);
    },
    'not-found',
  ],
  ['the VMID was reused under another name', (vmid) => void env.sim.state.addVm('pv1-1', plainVm(vmid, 'someone-else')), 'not-found'],
  ['our name without the mark', (vmid) => void env.sim.state.addVm('pv1-1', plainVm(vmid, NAME, 'running')), 'not-found'],
  ['status stopped', (vmid) => void ours(vmid, 'stopped'), 'stopped'],
  ['running/running, the agent reports an IPv4', (vmid) => void ours(vmid), 'running'],
  ['running/running, the agent is not running yet', (vmid) => void (ours(vmid).agent = 'never'), 'provisioning'],
  ['running/running, the agent answers without an IPv4', (vmid) => void (ours(vmid).agent = 'no-ip'), 'provisioning'],
  ['running/running, no agent configured: replaced', (vmid) => void delete ours(vmid).config.agent, 'stopped'],
  [
    'running/running, the VM stopped before the agent call',
    (vmid) => {
      ours(vmid);
      env.sim.faults.inject({ route: AGENT_ROUTE, vmid }, { kind: 'error', fixture: 'err_agent_vm_stopped' }, 1);
    },
    'transient',
  ],
  [
    'running/running, any other agent failure',
    (vmid) => {
      ours(vmid);
      env.sim.faults.inject({ route: AGENT_ROUTE, vmid }, { kind: 'unreachable', status: 596 }, 1);
    },
    'transient',
  ],
  ['running/prelaunch', (vmid) => void ours(vmid, 'prelaunch'), 'provisioning'],
  ['running/paused: the listing says running, status/current says paused', (vmid) => void ours(vmid, 'paused'), 'stopped'],
];

const vmidOfRow = (label: string) => 150_100 + rows.findIndex(([row]) => row.startsWith(label));

describe('get over the simulator: spec entry 9, first match decides', () => {
  it.each(rows.map((row, i) => [...row, 150_100 + i] as const))('%s', async (_row, setup, want, vmid) => {
    await setup(vmid);
    expect(await outcome(env.provider.get(idOf(vmid)))).toBe(want);
  });

  it('a config lock taken after the listing is transient (config row)', async () => {
    const vmid = 150_090;
    ours(vmid);
    env.sim.faults.inject({ route: CONFIG_ROUTE, vmid }, { kind: 'delay', ms: 150 }, 1);
    const since = env.sim.requests.total;
    const pending = outcome(env.provider.get(idOf(vmid)));
    await answered('/cluster/resources', since);
    env.sim.faults.holdLock(vmid, 'backup');
    expect(await pending).toBe('transient');
  });

  it('status unknown (its node is down) is transient, never not-found', async () => {
    const vmid = 150_091;
    ours(vmid);
    env.sim.faults.nodeDown('pv1-1');
    try {
      const err = await env.provider.get(idOf(vmid)).catch((e: unknown) => e);
      expect(isProviderError(err, 'transient')).toBe(true);
      expect((err as Error).message).toMatch(/status unknown/);
    } finally {
      env.sim.faults.nodeUp('pv1-1');
    }
  });

  it('reads the address, UID and created-at back, and asks nothing more of a hibernated VM', async () => {
    const vmid = vmidOfRow('running/running, the agent reports');
    const running = await env.provider.get(idOf(vmid));
    expect(running).toMatchObject({ state: 'running', uid: UID, node: 'pv1-1', vmid, ip: `192.168.0.${100 + (vmid % 150)}` });
    expect(running.createdAt?.toISOString()).toBe('2026-09-23T07:00:00.000Z');
    const before = env.sim.requests.total;
    expect(await env.provider.get(idOf(vmidOfRow('lock suspended (hibernated)')))).toMatchObject({ state: 'stopped', ip: '' });
    expect(env.sim.requests.records.slice(before).map((r) => r.route)).toEqual(['/cluster/resources', CONFIG_ROUTE]);
  });
});

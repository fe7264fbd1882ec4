/**
 * The core's lifecycle on each Proxmox VE version profile of the simulator
 * (main/simulator/versions.ts): create with a disk grow, get, list, check and
 * delete over the real client; on 7.4 the resize answers null with no task,
 * and a create cut off inside that resize resumes. The agent's own refusal
 * reaches Get as a clear, classified reason on every release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, vmidFor, type ProgressEvent } from '../../../main/core';
import { SEED_STORAGE, type PveVersion } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

const RANGE = { min: 100_000, max: 199_999 };
const RESIZE = '/nodes/{node}/qemu/{vmid}/resize';

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  beforeAll(async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, version });
  });
  afterAll(async () => env?.close());

  it('check, create with a disk grow, get, list, delete: nothing left', async () => {
    const [node] = await env.provider.check();
    expect(node).toMatchObject({ node: 'pv1-1', ready: true, reason: 'Reachable' });
    expect(node!.details.pveVersion).toContain(version === '7.4' ? '7.4-19' : version);
    expect(node!.details.kernel).toBe('7.0.14-17-pve');

    const request = {
      uid: `7e570000-0000-4000-8000-00000000${version.replace('.', '')}00`,
      name: `proxy-v${version.replace('.', '')}`,
      placement: { machineType: 'big', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    };
    const events: ProgressEvent[] = [];
    const id = await env.provider.create(request, { onProgress: (e) => events.push(e) });
    const vmid = vmidFor(request.uid, RANGE, 0);
    expect(id).toBe(`vms/${vmid}/${request.name}`);
    expect(env.sim.state.vm(vmid)!.config.scsi0).toMatch(/size=8G/);

    // The journal sees the resize start and end; a task phase only where Proxmox made one.
    const resize = events.filter((e) => e.step === 'resize').map((e) => e.phase);
    expect(resize).toEqual(version === '7.4' ? ['started', 'done'] : ['started', 'task', 'done']);
    const resizeAnswer = env.sim.requests.records.find((r) => r.route === RESIZE);
    expect(resizeAnswer?.status).toBe(200);
    // Task state comes from the node's task listing (task-watcher.ts), the status call only as a fallback.
    expect(env.sim.requests.count({ route: '/nodes/{node}/tasks' }) + env.sim.requests.count({ route: '/nodes/{node}/tasks/{upid}/status' })).toBeGreaterThan(0);

    const got = await env.provider.get(id);
    expect(got).toMatchObject({ state: 'running', uid: request.uid, vmid, node: 'pv1-1' });
    expect(got.ip).toMatch(/^192\.168\.0\.\d+$/);
    expect((await env.provider.listByTag()).map((i) => i.id)).toContain(id);

    await env.provider.delete(id);
    expect(isProviderError(await env.provider.get(id).catch((e: unknown) => e), 'not-found')).toBe(true);
    expect(env.sim.state.vm(vmid)).toBeUndefined();
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${request.name}-seed.iso`)).toBeUndefined();
  });

  it('a guest agent that refuses network-get-interfaces: get says so, permanent, with the fix', async () => {
    const request = {
      uid: `a9e70000-0000-4000-8000-00000000${version.replace('.', '')}00`,
      name: `proxy-agent-v${version.replace('.', '')}`,
      placement: { machineType: 'small', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    };
    const id = await env.provider.create(request);
    env.sim.state.vm(Number(id.split('/')[1]))!.agent = 'command-disabled';
    const err = await env.provider.get(id).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent'), String(err)).toBe(true);
    expect((err as Error).message).toContain('agent refused: CommandNotFound: The command guest-network-get-interfaces has been disabled');
    expect((err as { hint: string }).hint).toMatch(/allow-rpcs/);
    await env.provider.delete(id);
  });
});

describe('Proxmox VE 7.4: a create cut off inside its synchronous resize, then run again', () => {
  let env: SimProvider;
  beforeAll(async () => {
    // The resize holds its request 100 ms (real), long enough to cut the create off while Proxmox is still growing the disk.
    env = await simProvider({ timeScale: 0.01, agentDelayMs: 0, version: '7.4', taskDurations: { resize: 10_000 } });
  });
  afterAll(async () => env?.close());

  it.each([
    ['as the resize starts (before the request leaves)', 0],
    ['while Proxmox is growing the disk', 30],
  ])('cut %s: one VM, running, same ID, disk grown once, no resize task', async (_, afterMs) => {
    const request = {
      uid: `c0ffee74-0000-4000-8000-0000000000${afterMs === 0 ? '01' : '02'}`,
      name: `proxy-crash74-${afterMs}`,
      placement: { machineType: 'big', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    };
    const vmid = vmidFor(request.uid, RANGE, 0);
    const controller = new AbortController();
    const first = await env.provider
      .create(request, {
        signal: controller.signal,
        onProgress: (e) => {
          if (e.step === 'resize' && e.phase === 'started') {
            if (afterMs === 0) controller.abort();
            else setTimeout(() => controller.abort(), afterMs);
          }
        },
      })
      .then(
        () => new Error('the create finished'),
        (e: unknown) => e,
      );
    expect(isProviderError(first, 'transient'), String(first)).toBe(true);
    // Let a resize still running on the server finish, as pvedaemon finishes a request whose client left.
    await new Promise((r) => setTimeout(r, 150));
    expect(env.sim.requests.count({ route: RESIZE })).toBe(afterMs === 0 ? 0 : 1);
    const events: ProgressEvent[] = [];
    expect(await env.provider.create(request, { onProgress: (e) => events.push(e) })).toBe(`vms/${vmid}/${request.name}`);
    const vm = env.sim.state.vm(vmid)!;
    expect(vm).toMatchObject({ power: 'running', cloning: false });
    expect(vm.config.scsi0).toMatch(/size=8G/);
    // Cut inside: the first request grew the disk, so the rerun skips the step; cut before: the rerun resizes.
    expect(events.filter((e) => e.step === 'resize').map((e) => e.phase)).toEqual(afterMs === 0 ? ['started', 'done'] : ['skipped']);
    expect(env.sim.requests.count({ route: RESIZE })).toBe(1);
    expect([...env.sim.state.vms.values()].filter((v) => v.config.name === request.name)).toHaveLength(1);
    expect((await env.provider.get(`vms/${vmid}/${request.name}`)).state).toBe('running');
    env.sim.requests.clear();
  });
});

/**
 * Spec entry 21's list, the items that apply outside Kubernetes, over the
 * simulator and the real client: repeat create, get after delete, delete
 * twice, malformed IDs, running needs an IP, UID and created-at read back,
 * unmarked VMs excluded, get during delete, locked is transient, cancel
 * returns promptly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, vmidFor, type CallOptions, type CreateRequest, type ProgressEvent } from '../../../main/core';
import { formatMark } from '../../../main/core/provider/rules/mark';
import { plainVm, proxyVm, SEED_STORAGE } from '../../../main/simulator';
import { TEMPLATE_VMID, simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const RANGE = { min: 100_000, max: 199_999 };
const requestFor = (name: string, uid: string): CreateRequest => ({
  uid,
  name,
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
const kindOf = async (p: Promise<unknown>) => {
  const e = await failure(p);
  return isProviderError(e) ? e.kind : `no ProviderError: ${String(e)}`;
};
const count = (route: string, method?: string) =>
  env.sim.requests.records.filter((r) => r.route === route && (!method || r.method === method)).length;

describe('spec entry 21 over the simulator', () => {
  it('a repeat create creates nothing: one clone, one upload, the same ID', async () => {
    const request = requestFor('proxy-repeat', '6a0c1e2f-3b4d-4c5e-8f6a-7b8c9d0e1f2a');
    const id = await env.provider.create(request);
    const vms = env.sim.state.vms.size;
    expect(await env.provider.create(request)).toBe(id);
    expect(env.sim.state.vms.size).toBe(vms);
    expect(count('/nodes/{node}/qemu/{vmid}/clone')).toBe(1);
    expect(count('/nodes/{node}/storage/{storage}/upload')).toBe(1);
    expect(count('/nodes/{node}/qemu/{vmid}/status/start')).toBe(1);
  });

  it('create returns only once the VM runs; get reads the UID and created-at it wrote', async () => {
    const request = requestFor('proxy-readback', '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a');
    const before = Date.now();
    const id = await env.provider.create(request);
    const vmid = Number(id.split('/')[1]);
    expect(env.sim.state.vm(vmid)!.power).toBe('running');
    const got = await env.provider.get(id);
    expect(got.uid).toBe(request.uid);
    expect(got.createdAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(got.createdAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('running needs an IP: a running guest whose agent has no address is provisioning, then running', async () => {
    const request = requestFor('proxy-noip', '7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b');
    const id = await env.provider.create(request);
    const vm = env.sim.state.vm(Number(id.split('/')[1]))!;
    vm.agent = 'no-ip';
    expect(await env.provider.get(id)).toMatchObject({ state: 'provisioning', ip: '' });
    vm.agent = 'reports-ip';
    expect((await env.provider.get(id)).ip).toMatch(/^192\.168\.0\.\d+$/);
  });

  it('get after delete is not-found; a second delete succeeds and touches nothing', async () => {
    const request = requestFor('proxy-deltwice', '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c');
    const id = await env.provider.create(request);
    await env.provider.delete(id);
    expect(await kindOf(env.provider.get(id))).toBe('not-found');
    const destroys = count('/nodes/{node}/qemu/{vmid}', 'DELETE');
    await env.provider.delete(id);
    expect(count('/nodes/{node}/qemu/{vmid}', 'DELETE')).toBe(destroys);
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-deltwice-seed.iso')).toBeUndefined();
  });

  it('two deletes at once: the second waits on the lock, then finds nothing; one destroy', async () => {
    const id = await env.provider.create(requestFor('proxy-delboth', '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d'));
    const destroys = count('/nodes/{node}/qemu/{vmid}', 'DELETE');
    await Promise.all([env.provider.delete(id), env.provider.delete(id)]);
    expect(count('/nodes/{node}/qemu/{vmid}', 'DELETE')).toBe(destroys + 1);
  });

  const malformed = ['', 'vms', 'vms/150000', 'vm/150000/proxy-x', 'vms/abc/proxy-x', 'vms/0150000/proxy-x', 'vms/99/proxy-x'];
  malformed.push('vms/1000000000/proxy-x', 'vms/150000/', 'vms/150000/proxy-x/extra', '/vms/150000/proxy-x');
  it.each(malformed)('malformed ID %j is permanent for get and delete, before any request', async (id) => {
    const before = env.sim.requests.total;
    expect(await kindOf(env.provider.get(id))).toBe('permanent');
    expect(await kindOf(env.provider.delete(id))).toBe('permanent');
    expect(env.sim.requests.total).toBe(before);
  });

  it('listByTag lists marked VMs only: unmarked look-alikes are excluded, an empty UID is still listed', async () => {
    const { state } = env.sim;
    state.addVm('pv1-1', plainVm(150_200, 'proxy-lookalike'));
    state.addVm('pv1-1', {
      ...plainVm(150_201, 'tagged-unmarked'),
      config: { ...plainVm(150_201, 'x').config, name: 'tagged-unmarked', tags: 'proxy_operator' },
    });
    state.addVm('pv1-1', proxyVm(150_202, 'proxy-empty-uid', ''));
    state.addVm('pv1-1', proxyVm(150_203, 'proxy-listed', '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e', 'stopped'));
    const listed = await env.provider.listByTag();
    const ids = listed.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['vms/150202/proxy-empty-uid', 'vms/150203/proxy-listed']));
    expect(ids.some((id) => id.includes('150200') || id.includes('150201'))).toBe(false);
    expect(listed.find((i) => i.vmid === 150_202)?.uid).toBe('');
  });

  it('get during a delete keeps seeing the VM, stopped, until the destroy removes it', async () => {
    const id = await env.provider.create(requestFor('proxy-getdel', '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f'));
    const vmid = Number(id.split('/')[1]);
    const removeHang = env.sim.faults.hangTask({ type: 'qmdestroy', id: vmid }, 1);
    const since = env.sim.requests.total;
    const controller = new AbortController();
    const deleting = failure(
      env.provider.delete(id, {
        signal: controller.signal,
        onProgress: (e) => e.step === 'destroy' && e.phase === 'task' && setTimeout(() => controller.abort(), 20),
      }),
    );
    const destroySent = () =>
      env.sim.requests.records.slice(since).some((r) => r.route === '/nodes/{node}/qemu/{vmid}' && r.method === 'DELETE');
    while (!destroySent()) await new Promise((r) => setTimeout(r, 2));
    expect(await env.provider.get(id)).toMatchObject({ state: 'stopped', vmid });
    expect(isProviderError(await deleting, 'transient')).toBe(true);
    removeHang();
  });

  it('locked is transient, never not-found: a backup lock, and a clone in progress at the ID', async () => {
    env.sim.state.addVm('pv1-1', proxyVm(150_210, 'proxy-locked', '6d7e8f9a-0b1c-4d2e-9f3a-4b5c6d7e8f9a'));
    env.sim.faults.holdLock(150_210, 'backup');
    expect(await kindOf(env.provider.get('vms/150210/proxy-locked'))).toBe('transient');
    expect(await kindOf(env.provider.delete('vms/150210/proxy-locked'))).toBe('transient');
    expect(env.sim.state.vm(150_210)).toBeDefined();

    env.sim.faults.hangTask({ type: 'qmclone', id: TEMPLATE_VMID }, 1);
    const mark = formatMark('7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b', new Date());
    await env.client.clone('pv1-1', TEMPLATE_VMID, { newid: 150_211, name: 'proxy-midclone', description: mark, full: 1 });
    expect(await kindOf(env.provider.get('vms/150211/proxy-midclone'))).toBe('transient');
    expect(await kindOf(env.provider.delete('vms/150211/proxy-midclone'))).toBe('transient');
  });
});

describe('cancel returns promptly over the simulator', () => {
  const PROMPT_MS = 500;
  const hangEverything = () => env.sim.faults.inject({ path: /./ }, { kind: 'hang' });

  /** Cancels `run` 30 ms in and resolves to how long it took to give up and what it threw. */
  async function cancelled(run: (signal: AbortSignal) => Promise<unknown>) {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 30);
    const err = await failure(run(controller.signal));
    return { ms: performance.now() - started, err };
  }

  /** Cancels once `step` has a Proxmox task running, and resolves to how long giving up took after that. */
  async function cancelledAtTask(step: string, run: (options: CallOptions) => Promise<unknown>) {
    const controller = new AbortController();
    let abortedAt = 0;
    const onProgress = (e: ProgressEvent) => {
      if (e.step !== step || e.phase !== 'task') return;
      abortedAt = performance.now();
      controller.abort();
    };
    const err = await failure(run({ signal: controller.signal, onProgress }));
    return { ms: abortedAt === 0 ? Infinity : performance.now() - abortedAt, err };
  }

  it.each([
    ['create', (s: AbortSignal) => env.provider.create(requestFor('proxy-cancel', '8f9a0b1c-2d3e-4f4a-9b5c-6d7e8f9a0b1c'), { signal: s })],
    ['get', (s: AbortSignal) => env.provider.get('vms/150000/proxy-cancel', { signal: s })],
    ['delete', (s: AbortSignal) => env.provider.delete('vms/150000/proxy-cancel', { signal: s })],
    ['listByTag', (s: AbortSignal) => env.provider.listByTag({ signal: s })],
  ] as const)('%s blocked on its first request', async (_op, run) => {
    const remove = hangEverything();
    try {
      const { ms, err } = await cancelled(run);
      expect(ms).toBeLessThan(PROMPT_MS);
      expect(isProviderError(err, 'transient')).toBe(true);
    } finally {
      remove();
    }
  });

  it('check blocked on its first request reports Timeout at once', async () => {
    const remove = hangEverything();
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const started = performance.now();
      const [node] = await env.provider.check({ signal: controller.signal });
      expect(performance.now() - started).toBeLessThan(PROMPT_MS);
      expect(node).toMatchObject({ reason: 'Timeout', ready: false });
    } finally {
      remove();
    }
  });

  it('create blocked mid-clone and delete blocked mid-destroy give up at once; the tasks run on', async () => {
    const request = requestFor('proxy-cancelmid', '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d');
    const vmid = vmidFor(request.uid, RANGE, 0);
    env.sim.faults.hangTask({ type: 'qmclone', id: TEMPLATE_VMID }, 1);
    const created = await cancelledAtTask('clone', (options) => env.provider.create(request, options));
    expect(created.ms).toBeLessThan(PROMPT_MS);
    expect(isProviderError(created.err, 'transient')).toBe(true);
    expect(env.sim.state.vm(vmid)?.lock).toBe('clone');

    env.sim.state.addVm('pv1-1', proxyVm(150_220, 'proxy-cancel-del', 'a0b1c2d3-4e5f-4a6b-9c7d-8e9f0a1b2c3d', 'stopped'));
    env.sim.faults.hangTask({ type: 'qmdestroy', id: 150_220 }, 1);
    const deleted = await cancelledAtTask('destroy', (options) => env.provider.delete('vms/150220/proxy-cancel-del', options));
    expect(deleted.ms).toBeLessThan(PROMPT_MS);
    expect(isProviderError(deleted.err, 'transient')).toBe(true);
    expect(env.sim.state.vm(150_220)).toBeDefined();
  });
});

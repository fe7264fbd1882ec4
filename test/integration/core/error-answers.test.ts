/**
 * Every Proxmox error answer the project holds as a fixture drives the
 * provider through the real client at least once: the simulator answers it,
 * either because the cluster is in the state that makes Proxmox say it
 * (natural) or through a fault that replays the fixture byte for byte
 * (injected). The provider's class and message are asserted, with the
 * text taken from the fixture. The simulator's own `sim_*` texts are its
 * author's inventions and are covered by the simulator's tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, fixtureJson, fixtureMessage, fixtureNames } from '../../../fixtures';
import { isProviderError, vmidFor, type CreateRequest, type Instance, type Provider } from '../../../main/core';
import { plainVm, proxyVm } from '../../../main/simulator';
import { TEMPLATE_VMID, simProvider, variantProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const RANGE = { min: 100_000, max: 199_999 };
const ROUTE = {
  config: '/nodes/{node}/qemu/{vmid}/config',
  agent: '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces',
  upload: '/nodes/{node}/storage/{storage}/upload',
  task: '/nodes/{node}/tasks/{upid}/status',
  /** The task watcher's one listing per node per cycle: where task state comes from. */
  taskList: '/nodes/{node}/tasks',
  clone: '/nodes/{node}/qemu/{vmid}/clone',
};

let counter = 0;
function fresh(): CreateRequest & { vmid: number; id: string } {
  counter++;
  const uid = `e0e0e0e0-0000-4000-8000-${String(counter).padStart(12, '0')}`;
  const name = `proxy-err-${counter}`;
  const vmid = vmidFor(uid, RANGE, 0);
  return {
    uid,
    name,
    vmid,
    id: `vms/${vmid}/${name}`,
    placement: { machineType: 'big', image: 'debian-13' },
    cloudInit: '#cloud-config\n',
  };
}
const ours = (r: ReturnType<typeof fresh>, power: Parameters<typeof proxyVm>[3] = 'running') =>
  env.sim.state.addVm('pv1-1', proxyVm(r.vmid, r.name, r.uid, power));
const injectOnce = (method: string, route: string, name: string, vmid?: number) =>
  env.sim.faults.inject({ method, route, ...(vmid === undefined ? {} : { vmid }) }, { kind: 'error', fixture: name }, 1);

/** A 400 fixture's field errors as the provider's message shows them: `field: text`. */
const fieldErrors = (name: string) =>
  Object.entries(fixtureJson<{ errors?: Record<string, string> }>(name)?.errors ?? {}).map(([k, v]) => `${k}: ${v}`);
/** The exitstatus a task-status fixture records. */
const exitstatusOf = (name: string) => fixtureJson<{ data: { exitstatus: string } }>(name)!.data.exitstatus;

interface Outcome {
  /** A state (get), `ok` (anything else that resolved), or the error's kind. */
  result: string;
  message: string;
  hint: string;
}

async function outcome(p: Promise<unknown>): Promise<Outcome> {
  try {
    const value = await p;
    return { result: (value as Partial<Instance> | undefined)?.state ?? 'ok', message: '', hint: '' };
  } catch (e) {
    if (!isProviderError(e)) return { result: `no ProviderError: ${String(e)}`, message: '', hint: '' };
    return { result: e.kind, message: e.message, hint: e.hint };
  }
}

interface Row {
  fixture: string;
  how: 'natural' | 'injected';
  /** Sets the cluster up and runs one provider call. */
  run: () => Promise<unknown>;
  want: string;
  /** Texts the error message (or, with `inHint`, the hint) must contain. */
  texts?: () => string[];
  inHint?: () => string[];
}

async function withVariant<T>(options: Parameters<typeof variantProvider>[1], use: (p: Provider) => Promise<T>): Promise<T> {
  const v = variantProvider(env.sim, options);
  try {
    return await use(v.provider);
  } finally {
    await v.close();
  }
}

const rows: Row[] = [
  {
    fixture: 'err_agent_not_running',
    how: 'natural',
    run: () => {
      const r = fresh();
      ours(r).agent = 'never';
      return env.provider.get(r.id);
    },
    want: 'provisioning',
  },
  {
    fixture: 'err_agent_unconfigured',
    how: 'natural',
    run: () => {
      const r = fresh();
      delete ours(r).config.agent;
      return env.provider.get(r.id);
    },
    want: 'stopped',
  },
  {
    fixture: 'err_agent_vm_stopped',
    how: 'injected',
    run: () => {
      const r = fresh();
      ours(r);
      injectOnce('GET', ROUTE.agent, 'err_agent_vm_stopped', r.vmid);
      return env.provider.get(r.id);
    },
    want: 'transient',
    texts: () => [fixtureMessage('err_agent_vm_stopped')],
  },
  {
    fixture: 'err_bad_param',
    how: 'injected',
    run: () => {
      const r = fresh();
      injectOnce('PUT', ROUTE.config, 'err_bad_param');
      return env.provider.create(r);
    },
    want: 'permanent',
    texts: () => [fixtureMessage('err_bad_param'), ...fieldErrors('err_bad_param')],
  },
  {
    fixture: 'err_clone_storage_no_images',
    how: 'natural',
    run: () => withVariant({ profile: { storage: 'local' } }, (p) => p.create(fresh())),
    want: 'permanent',
    texts: () => fieldErrors('err_clone_storage_no_images'),
  },
  {
    fixture: 'err_config_locked',
    how: 'injected',
    run: () => {
      injectOnce('PUT', ROUTE.config, 'err_config_locked');
      return env.provider.create(fresh());
    },
    want: 'transient',
    texts: () => [fixtureMessage('err_config_locked')],
  },
  {
    fixture: 'err_config_missing',
    how: 'injected',
    run: () => {
      const r = fresh();
      ours(r);
      injectOnce('GET', ROUTE.config, 'err_config_missing', r.vmid);
      return env.provider.get(r.id);
    },
    want: 'not-found',
    texts: () => [fixtureMessage('err_config_missing')],
  },
  {
    fixture: 'err_config_missing',
    how: 'injected',
    // Inside create a vanished VM is a reason to retry, never "not found" (spec entry 10).
    run: () => {
      const r = fresh();
      injectOnce('PUT', ROUTE.config, 'err_config_missing');
      return env.provider.create(r);
    },
    want: 'transient',
    texts: () => [fixtureMessage('err_config_missing')],
  },
  {
    fixture: 'err_forbidden',
    how: 'natural',
    run: () => withVariant(auditor(), (p) => p.create(fresh())),
    want: 'permanent',
    texts: () => [fixtureMessage('err_forbidden').replace('/nodes/pv1-1, Sys.Syslog', `/vms/${TEMPLATE_VMID}, VM.Clone`)],
    inHint: () => ['VM.Clone', `/vms/${TEMPLATE_VMID}`],
  },
  {
    fixture: 'err_forbidden_volume_delete',
    how: 'natural',
    run: () => {
      const r = fresh();
      ours(r, 'stopped');
      return withVariant(tokenNamed('noSeedAllocate'), (p) => p.delete(r.id));
    },
    want: 'permanent',
    texts: () => [fixtureMessage('err_forbidden_volume_delete').replace('/storage/local', '/storage/proxy-seeds')],
    inHint: () => ['Datastore.Allocate', '/storage/proxy-seeds'],
  },
  {
    fixture: 'err_auth_failed',
    how: 'natural',
    run: () =>
      withVariant({ token: { kind: 'secret', tokenId: env.sim.tokens.operator!.tokenId, secret: () => 'not-the-secret' } }, (p) =>
        p.get(fresh().id),
      ),
    want: 'permanent',
    texts: () => [fixtureMessage('err_auth_failed')],
  },
  {
    fixture: 'err_no_ticket',
    how: 'injected',
    run: () => {
      env.sim.faults.inject({ route: '/cluster/resources' }, { kind: 'error', fixture: 'err_no_ticket' }, 1);
      return env.provider.listByTag();
    },
    want: 'permanent',
    texts: () => [fixtureMessage('err_no_ticket')],
  },
  {
    fixture: 'err_clone_vmid_taken',
    how: 'natural',
    // Someone takes the VMID between the listing and the clone: the clone is refused (F4) and the probe moves on.
    run: async () => {
      const r = fresh();
      // The clone is held back, not the template read (an earlier create's read of the template serves this one, as
      // may its listing, lookup.ts); the seed's upload goes out beside the clone (seed-beside-clone.ts), so its answer
      // means the clone is on the wire, after the listing.
      env.sim.faults.inject({ route: ROUTE.clone, vmid: TEMPLATE_VMID }, { kind: 'delay', ms: 400 }, 1);
      const since = env.sim.requests.total;
      const created = env.provider.create(r);
      while (!env.sim.requests.records.slice(since).some((x) => x.route === ROUTE.upload)) await new Promise((res) => setTimeout(res, 2));
      env.sim.state.addVm('pv1-1', plainVm(r.vmid, 'someone-else'));
      const id = await created;
      expect(id).toBe(`vms/${vmidFor(r.uid, RANGE, 1)}/${r.name}`);
      expect(
        env.sim.requests.records
          .slice(since)
          .filter((x) => x.route === ROUTE.clone)
          .map((x) => x.status),
      ).toEqual([500, 200]);
      return id;
    },
    want: 'ok',
  },
  {
    fixture: 'err_proxy_595',
    how: 'natural',
    run: async () => {
      env.sim.faults.nodeDown('pv1-1');
      try {
        return await env.provider.create(fresh());
      } finally {
        env.sim.faults.nodeUp('pv1-1');
      }
    },
    want: 'transient',
    texts: () => [fixtureMessage('err_proxy_595')],
  },
  {
    fixture: 'err_proxy_596',
    how: 'injected',
    run: () => {
      env.sim.faults.inject({ route: ROUTE.taskList }, { kind: 'error', fixture: 'err_proxy_596' }, 1);
      return env.provider.create(fresh());
    },
    want: 'transient',
    texts: () => [fixtureMessage('err_proxy_596')],
  },
  {
    fixture: 'err_tag_invalid',
    how: 'injected',
    run: () => {
      injectOnce('PUT', ROUTE.config, 'err_tag_invalid');
      return env.provider.create(fresh());
    },
    want: 'permanent',
    texts: () => fieldErrors('err_tag_invalid'),
  },
  {
    fixture: 'err_upload_bad_name',
    how: 'injected',
    run: () => {
      injectOnce('POST', ROUTE.upload, 'err_upload_bad_name');
      return env.provider.create(fresh());
    },
    want: 'permanent',
    texts: () => fieldErrors('err_upload_bad_name'),
  },
  {
    fixture: 'storage_status_missing',
    how: 'natural',
    run: () => withVariant({ profile: { isoStorage: 'no-such-seeds' } }, (p) => p.create(fresh())),
    want: 'permanent',
    texts: () => fieldErrors('storage_status_missing'),
  },
  {
    fixture: 'task_status_stopped_error',
    how: 'injected',
    run: () => {
      env.sim.faults.failTask({ type: 'resize' }, 'task_status_stopped_error', 1);
      return env.provider.create(fresh());
    },
    want: 'transient',
    texts: () => [exitstatusOf('task_status_stopped_error')],
  },
  {
    fixture: 'task_status_warnings',
    how: 'injected',
    // A task that finished with warnings is a finished task: the create goes on and the VM runs.
    run: async () => {
      const r = fresh();
      env.sim.faults.warnTask({ type: 'qmstart', id: r.vmid }, 'task_status_warnings', 1);
      const id = await env.provider.create(r);
      expect(env.sim.tasks.tasks.size).toBeGreaterThan(0);
      expect([...env.sim.tasks.tasks.values()].some((t) => t.exitstatus === exitstatusOf('task_status_warnings'))).toBe(true);
      expect(env.sim.state.vm(r.vmid)?.power).toBe('running');
      return id;
    },
    want: 'ok',
  },
];

function tokenNamed(name: string): Parameters<typeof variantProvider>[1] {
  const token = env.sim.tokens[name]!;
  return { token: { kind: 'secret', tokenId: token.tokenId, secret: () => token.secret } };
}
const auditor = () => tokenNamed('auditor');

describe('every Proxmox error answer drives the provider through the real client', () => {
  it.each(rows.map((r) => [r.fixture, r.how, r] as const))('%s (%s)', async (name, _how, row) => {
    const since = env.sim.requests.total;
    const got = await outcome(row.run());
    expect(got.result, got.message).toBe(row.want);
    for (const text of row.texts?.() ?? []) expect(got.message).toContain(text);
    for (const text of row.inHint?.() ?? []) expect(got.hint).toContain(text);
    const { status } = fixture(name);
    // The answer really went over the wire: the simulator logged a request it answered with the fixture's status.
    if (status >= 400 && status !== 401) expect(env.sim.requests.records.slice(since).map((r) => r.status)).toContain(status);
  });

  it('no error fixture is left without a row', () => {
    const errorFixtures = fixtureNames().filter((name) => {
      if (name.startsWith('sim_')) return false;
      const exit = fixtureJson<{ data?: { exitstatus?: unknown } }>(name)?.data?.exitstatus;
      return fixture(name).status >= 400 || (typeof exit === 'string' && exit !== 'OK');
    });
    expect(new Set(rows.map((r) => r.fixture))).toEqual(new Set(errorFixtures));
  });
});

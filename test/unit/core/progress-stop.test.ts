/**
 * A progress listener that throws stops the operation there: the task
 * manager journals every event before the step's request, so a step it could
 * not record must not be taken. Thrown at every event of create and delete
 * in turn (the every-node seed delete included, which catches a node's
 * failure and goes on), no API call may follow, and the operation fails with
 * the listener's class, message and hint.
 */
import { describe, expect, it } from 'vitest';
import { createProvider, isProviderError, type ProgressEvent } from '../../../main/core';
import type { PveApi } from '../../../main/core/pve/api';
import { createMemoryLogger } from '../../../main/log/logger';
import { AppError } from '../../../main/errors/app-error';
import { baseProfile, firstVmid, request } from './provider-harness';
import { FakePve } from './fake-pve';
import { formatMark } from '../../../main/core/provider/rules/mark';
import type { ClusterResource } from '../../../main/core/pve/schemas';

const budgets = { youngPollMs: 5, oldPollMs: 20, youngForMs: 100, cloneMs: 3000, runningMs: 1000 };

/**
 * FakePve plus the nodes and storages the landing rules read: local-lvm is local to each node, so a template on
 * pv1-2 is cloned there and the stopped clone migrated to pv1-1 (create's migrate step).
 */
class FakePveWithStorages extends FakePve {
  constructor(private readonly nodeNames: string[]) {
    super();
  }
  override async clusterResources(): Promise<ClusterResource[]> {
    const vms = await super.clusterResources();
    return [
      ...vms,
      ...this.nodeNames.flatMap((node): ClusterResource[] => [
        { id: `node/${node}`, type: 'node', node, status: 'online' },
        {
          id: `storage/${node}/local-lvm`,
          type: 'storage',
          node,
          storage: 'local-lvm',
          shared: false,
          content: ['images'],
          status: 'available',
        },
      ]),
    ] as ClusterResource[];
  }
}

/** A provider over FakePve whose every API call (any method) is counted as it is made. */
function world(nodes = ['pv1-1'], templateNode = 'pv1-1') {
  const fake = templateNode === 'pv1-1' ? new FakePve() : new FakePveWithStorages(nodes);
  fake.addTemplate(9001, {}, templateNode);
  const calls: string[] = [];
  const api = new Proxy(fake, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as PveApi;
  const provider = createProvider({ ...baseProfile, nodes }, { api, logger: createMemoryLogger(), budgets });
  return { fake, calls, provider };
}

const refusal = () =>
  new AppError(
    'transient',
    'Egress Desk could not record progress: disk full.',
    'Free space in /data/tasks (the disk it is on is full), then try again.',
  );

type Run = (w: ReturnType<typeof world>, onProgress: (e: ProgressEvent) => void) => Promise<unknown>;

function plantOurs(w: ReturnType<typeof world>) {
  w.fake.addVm({
    vmid: firstVmid(),
    status: 'running',
    config: { name: 'proxy-abc', description: formatMark(request().uid, new Date()), scsi0: 'local-lvm:vm-disk-0,size=8G' },
  });
  w.fake.isos.set('pv1-1/proxy-seeds:iso/proxy-abc-seed.iso', new Uint8Array(1));
}

const runs: {
  name: string;
  nodes?: string[];
  templateNode?: string;
  setup?: (w: ReturnType<typeof world>) => void;
  run: Run;
  /** Steps whose events the clean run must include (so every event of them is thrown at). */
  covers?: string[];
}[] = [
  { name: 'create', run: (w, onProgress) => w.provider.create(request(), { onProgress }) },
  {
    name: 'create that clones on the template’s node and migrates',
    nodes: ['pv1-1', 'pv1-2'],
    templateNode: 'pv1-2',
    run: (w, onProgress) => w.provider.create(request(), { onProgress }),
    covers: ['migrate/started', 'migrate/task', 'migrate/done'],
  },
  { name: 'delete', setup: plantOurs, run: (w, onProgress) => w.provider.delete(`vms/${firstVmid()}/proxy-abc`, { onProgress }) },
  {
    name: 'delete of a VM already gone (the seed on every node)',
    nodes: ['pv1-1', 'pv1-2', 'pv1-3'],
    run: (w, onProgress) => w.provider.delete(`vms/${firstVmid()}/proxy-abc`, { onProgress }),
  },
];

describe('a progress listener that throws', () => {
  for (const r of runs) {
    it(`stops ${r.name} before its next API call, at every event`, async () => {
      const clean = world(r.nodes, r.templateNode);
      r.setup?.(clean);
      const events: ProgressEvent[] = [];
      await r.run(clean, (e) => events.push(e));
      expect(events.length).toBeGreaterThan(3);
      for (const c of r.covers ?? []) expect(events.map((e) => `${e.step}/${e.phase}`)).toContain(c);

      for (let at = 0; at < events.length; at++) {
        const w = world(r.nodes, r.templateNode);
        r.setup?.(w);
        let seen = 0;
        let callsAtThrow = -1;
        const err = await r
          .run(w, () => {
            // Once only: a later event the listener would record again (space freed) must not restart the operation.
            if (seen++ !== at) return;
            callsAtThrow = w.calls.length;
            throw refusal();
          })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        const where = `${events[at]!.step} ${events[at]!.phase}`;
        expect(callsAtThrow, where).toBeGreaterThanOrEqual(0);
        // Give anything still scheduled the chance to send a request.
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(w.calls.slice(callsAtThrow), `API calls after the throw at ${where}`).toEqual([]);
        expect(isProviderError(err, 'transient'), where).toBe(true);
        expect(err).toMatchObject({ message: refusal().message, hint: refusal().hint });
      }
    });
  }

  it('that throws something without a class stops the operation as transient', async () => {
    const w = world();
    const err = await w.provider
      .create(request(), {
        onProgress: (e) => {
          if (e.step === 'clone') throw new Error('boom');
        },
      })
      .catch((e: unknown) => e);
    expect(isProviderError(err, 'transient')).toBe(true);
    expect((err as Error).message).toMatch(/progress could not be recorded: boom/);
    expect(w.calls).not.toContain('clone');
  });
});

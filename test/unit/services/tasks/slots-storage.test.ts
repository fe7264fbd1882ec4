/** Slots: the per-node and global limits, and the per-storage full-clone limit. */
import { describe, expect, it } from 'vitest';
import { cloneStorageKey, defaultLimits, PVE_MAX_WORKERS_DEFAULT, Slots } from '../../../../main/services/tasks/queue/slots';

const signal = () => new AbortController().signal;
const flush = () => new Promise((r) => setImmediate(r));

describe('Slots', () => {
  it('defaults to what a node can bear: 4 per node (Proxmox max_workers default), 2 clones per storage, 12 in all', () => {
    expect(defaultLimits).toEqual({ global: 12, perNode: PVE_MAX_WORKERS_DEFAULT, clonesPerStorage: 2 });
    expect(defaultLimits.perNode).toBeLessThanOrEqual(4);
  });

  it('holds a third clone onto one storage until one of two ends, while another storage goes ahead', async () => {
    const slots = new Slots({ global: 10, perNode: 10, clonesPerStorage: 2 });
    const nas = cloneStorageKey({ clusterId: 'c', node: 'pv1-1', storage: 'nas', shared: true });
    expect(cloneStorageKey({ clusterId: 'c', node: 'pv1-2', storage: 'nas', shared: true })).toBe(nas);
    const local1 = cloneStorageKey({ clusterId: 'c', node: 'pv1-1', storage: 'local-lvm', shared: false });
    expect(cloneStorageKey({ clusterId: 'c', node: 'pv1-2', storage: 'local-lvm', shared: false })).not.toBe(local1);

    const a = await slots.acquire('c/pv1-1', signal(), { storage: nas });
    const b = await slots.acquire('c/pv1-2', signal(), { storage: nas });
    let third: (() => void) | undefined;
    void slots.acquire('c/pv1-3', signal(), { storage: nas }).then((r) => (third = r));
    const other = await slots.acquire('c/pv1-1', signal(), { storage: local1 });
    await flush();
    expect(third).toBeUndefined();
    a();
    await flush();
    expect(third).toBeDefined();
    expect(slots.peakClonesPerStorage()[nas]).toBe(2);
    b();
    third!();
    other();
  });

  it('gives a clone slot alone for the length of a clone step (acquireStorage), without a node slot', async () => {
    const slots = new Slots({ global: 1, perNode: 1, clonesPerStorage: 1 });
    const node = await slots.acquire('c/pv1-1', signal());
    const copy = await slots.acquireStorage('c/*/storage/nas', signal());
    let second: (() => void) | undefined;
    void slots.acquireStorage('c/*/storage/nas', signal()).then((r) => (second = r));
    await flush();
    expect(second).toBeUndefined();
    copy();
    await flush();
    expect(second).toBeDefined();
    second!();
    node();
  });

  it('serves waiters under new limits at once when Settings raise them', async () => {
    const slots = new Slots({ global: 10, perNode: 1, clonesPerStorage: 2 });
    const first = await slots.acquire('c/pv1-1', signal());
    let next: (() => void) | undefined;
    void slots.acquire('c/pv1-1', signal()).then((r) => (next = r));
    await flush();
    expect(next).toBeUndefined();
    slots.setLimits({ perNode: 2 });
    await flush();
    expect(next).toBeDefined();
    expect(slots.current().perNode).toBe(2);
    first();
    next!();
  });

  it('drops a queued waiter whose signal fires', async () => {
    const slots = new Slots({ global: 1, perNode: 1, clonesPerStorage: 1 });
    const held = await slots.acquire('c/pv1-1', signal());
    const c = new AbortController();
    const queued = slots.acquire('c/pv1-1', c.signal, { storage: 's' });
    c.abort();
    await expect(queued).rejects.toThrow('cancelled while queued');
    held();
  });
});

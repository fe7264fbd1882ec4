/**
 * The clone gate over the slots: a storage's key from the cluster's storage
 * listing (shared: one for the cluster; local: one per node), the listing
 * read once for many clones, a migrate holding both ends' slots (one slot when
 * both ends are the same shared storage), and no gate without a storage.
 */
import { describe, expect, it } from 'vitest';
import type { PveApi } from '../../../../main/core/pve/api';
import { createLogger } from '../../../../main/log/logger';
import { createCloneGates } from '../../../../main/services/tasks/queue/clone-gate';
import { Slots } from '../../../../main/services/tasks/queue/slots';

const rows = [
  { type: 'storage', node: 'a', storage: 'local-lvm', shared: 0 },
  { type: 'storage', node: 'b', storage: 'local-lvm', shared: 0 },
  { type: 'storage', node: 'a', storage: 'nas', shared: 1 },
  { type: 'storage', node: 'b', storage: 'nas', shared: 1 },
];

function setup(limits = { clonesPerStorage: 1 }) {
  const slots = new Slots(limits);
  let reads = 0;
  const api = {
    clusterResources: async (type?: string): Promise<unknown[]> => {
      reads++;
      // The whole listing, shared with placement and the create lookups (core/provider/cluster/lookup.ts).
      expect(type).toBeUndefined();
      return rows;
    },
  } as unknown as PveApi;
  const gateFor = createCloneGates({ slots, api: () => api, log: createLogger({ sinks: [] }) });
  return { slots, gate: gateFor('c1'), reads: () => reads };
}

const settled = async <T>(p: Promise<T>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 5));
  return done;
};

describe('the clone gate', () => {
  it('keys a local storage per node and a shared one per cluster, reading the listing once', async () => {
    const { slots, gate, reads } = setup();
    const onA = await gate({ node: 'a', storage: 'local-lvm' });
    // Another node's local-lvm is another disk: not held up.
    const onB = await gate({ node: 'b', storage: 'local-lvm' });
    const nasA = await gate({ node: 'a', storage: 'nas' });
    // The NAS is one disk for every node: the second clone onto it waits.
    const nasB = gate({ node: 'b', storage: 'nas' });
    expect(await settled(nasB)).toBe(false);
    nasA();
    (await nasB)();
    onA();
    onB();
    expect(slots.peakClonesPerStorage()).toEqual({ 'c1/a/storage/local-lvm': 1, 'c1/b/storage/local-lvm': 1, 'c1/*/storage/nas': 1 });
    expect(reads()).toBe(1);
  });

  it('holds both ends of a migrate, so a clone onto either end waits', async () => {
    const { gate } = setup();
    const move = await gate({ node: 'b', storage: 'local-lvm', from: { node: 'a', storage: 'local-lvm' } });
    const cloneA = gate({ node: 'a', storage: 'local-lvm' });
    const cloneB = gate({ node: 'b', storage: 'local-lvm' });
    expect(await settled(cloneA)).toBe(false);
    expect(await settled(cloneB)).toBe(false);
    move();
    (await cloneA)();
    (await cloneB)();
  });

  it('takes one slot when both ends are the same shared storage, and none without a storage', async () => {
    const { slots, gate } = setup();
    const release = await gate({ node: 'b', storage: 'nas', from: { node: 'a', storage: 'nas' } });
    release();
    (await gate({ node: 'a', storage: undefined }))();
    expect(slots.peakClonesPerStorage()).toEqual({ 'c1/*/storage/nas': 1 });
  });

  it('two migrates in opposite directions never each hold what the other waits for', async () => {
    const { gate } = setup();
    // Asked together: taken in one order, the first gets both ends and the second waits for it (no deadlock).
    const ab = gate({ node: 'b', storage: 'local-lvm', from: { node: 'a', storage: 'local-lvm' } });
    const ba = gate({ node: 'a', storage: 'local-lvm', from: { node: 'b', storage: 'local-lvm' } });
    (await ab)();
    (await ba)();
  }, 2000);

  it('gives up waiting when the create is cancelled', async () => {
    const { gate } = setup();
    const held = await gate({ node: 'a', storage: 'local-lvm' });
    const controller = new AbortController();
    const waiting = gate({ node: 'a', storage: 'local-lvm' }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('cancelled while queued');
    held();
  });
});

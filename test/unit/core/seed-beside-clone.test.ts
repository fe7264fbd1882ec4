/**
 * Issue 11: a fresh create uploads its seed beside its clone
 * (main/core/provider/operations/seed-beside-clone.ts). What a user would notice: the
 * seed goes up while the clone waits for a copy slot; a refused upload sends
 * no clone and reports the upload's reason; a failed clone lets the upload
 * end before the create fails, so the step list tells the truth about the
 * seed (what Clean up then offers); a rerun puts everything right.
 */
import { describe, expect, it } from 'vitest';
import { isProviderError, type CloneGate, type ProgressEvent } from '../../../main/core';
import { fixtureError } from './fake-pve';
import { harness, NAME, request } from './provider-harness';

const SEED = `pv1-1/proxy-seeds:iso/${NAME}-seed.iso`;
const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

/** A clone gate whose one slot is held until `open()`. */
function heldGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let released = 0;
  const gate: CloneGate = async (_target, signal) => {
    await Promise.race([
      opened,
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('gate wait cancelled')), { once: true })),
    ]);
    return () => void released++;
  };
  return { gate, open, released: () => released };
}

const calledBefore = (calls: string[], a: string, b: string) => {
  const i = calls.findIndex((c) => c.startsWith(`${a} `));
  const j = calls.findIndex((c) => c.startsWith(`${b} `));
  return i >= 0 && (j < 0 || i < j);
};

describe('the seed beside the clone', () => {
  it('goes up while the clone waits for its copy slot, and the create ends with both', async () => {
    const { fake, provider } = harness();
    const held = heldGate();
    const creating = provider.create(request(), { cloneGate: held.gate });
    await tick();
    expect(fake.calls.some((c) => c.startsWith('uploadIso ')), fake.calls.join('\n')).toBe(true);
    expect(fake.calls.some((c) => c.startsWith('clone '))).toBe(false);
    expect(fake.isos.has(SEED)).toBe(true);
    held.open();
    await creating;
    expect(calledBefore(fake.calls, 'uploadIso', 'clone')).toBe(true);
    expect(fake.calls.filter((c) => c.startsWith('uploadIso '))).toHaveLength(1);
    expect(held.released()).toBe(1);
  });

  it('refused: no clone is sent, and the create fails with the upload’s reason', async () => {
    const { fake, provider } = harness();
    fake.faults.set('uploadIso', [fixtureError('storage_status_missing')]);
    const held = heldGate();
    const creating = provider.create(request(), { cloneGate: held.gate });
    const err = await creating.catch((e: unknown) => e);
    held.open();
    await tick();
    expect(isProviderError(err, 'permanent'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/storage/i);
    expect(fake.calls.some((c) => c.startsWith('clone '))).toBe(false);
    expect([...fake.vms.values()].filter((v) => !v.template)).toHaveLength(0);
  });

  it('a clone refused: the create ends after its upload, its steps say the seed is there, and a rerun finishes', async () => {
    const { fake, provider } = harness();
    fake.faults.set('clone', [fixtureError('err_forbidden')]);
    const events: ProgressEvent[] = [];
    const err = await provider.create(request(), { onProgress: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent'), String(err)).toBe(true);
    const seedDone = events.findIndex((e) => e.step === 'upload-seed' && e.phase === 'done');
    expect(seedDone).toBeGreaterThan(-1);
    expect(fake.isos.has(SEED)).toBe(true);
    // Nothing reports after the create has failed.
    const reported = events.length;
    await tick();
    expect(events).toHaveLength(reported);
    await provider.create(request());
    expect([...fake.vms.values()].filter((v) => !v.template && v.status === 'running')).toHaveLength(1);
  });

  it('a cancel while the clone waits for its slot sends no clone', async () => {
    const { fake, provider } = harness();
    const held = heldGate();
    const controller = new AbortController();
    const creating = provider.create(request(), { cloneGate: held.gate, signal: controller.signal });
    await tick();
    controller.abort();
    const err = await creating.catch((e: unknown) => e);
    expect(isProviderError(err, 'transient'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/cancelled/);
    held.open();
    await tick();
    expect(fake.calls.some((c) => c.startsWith('clone '))).toBe(false);
  });
});

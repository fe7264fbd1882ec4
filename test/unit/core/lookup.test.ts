/**
 * Issue 11: the creates of a bulk share the create lookup's listing
 * (main/core/provider/cluster/lookup.ts), so twenty creates do not queue twenty
 * listings at the node the URL reaches; and a listing never serves a create
 * of a name one of our operations changed after it was asked for.
 */
import { describe, expect, it, vi } from 'vitest';
import { KeyedLock } from '../../../main/core/provider/calls/keyed-lock';
import { LOOKUP_REUSE_MS } from '../../../main/core/provider/cluster/lookup';
import { harness, request } from './provider-harness';

const listings = (calls: string[]) => calls.filter((c) => c.startsWith('clusterResources')).length;
const uid = (i: number) => `3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b${String(i).padStart(2, '0')}`;

describe('the create lookup', () => {
  it('serves the creates of a bulk from one listing', async () => {
    const { fake, provider } = harness();
    await Promise.all([1, 2, 3, 4, 5].map((i) => provider.create(request({ uid: uid(i), name: `proxy-l${i}` }))));
    expect(listings(fake.calls)).toBe(1);
    expect([...fake.vms.values()].filter((v) => !v.template && v.status === 'running')).toHaveLength(5);
  });

  it('reads afresh once the listing is older than LOOKUP_REUSE_MS', async () => {
    let now = 1_000_000;
    const perf = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const { fake, provider } = harness();
      await provider.create(request({ uid: uid(1), name: 'proxy-a' }));
      now += LOOKUP_REUSE_MS - 1;
      await provider.create(request({ uid: uid(2), name: 'proxy-b' }));
      expect(listings(fake.calls)).toBe(1);
      now += 2;
      await provider.create(request({ uid: uid(3), name: 'proxy-c' }));
      expect(listings(fake.calls)).toBe(2);
    } finally {
      perf.mockRestore();
    }
  });

  it('reads afresh for a name one of our operations ended on since the listing was asked for', async () => {
    const { fake, provider } = harness();
    const id = await provider.create(request({ uid: uid(1), name: 'proxy-a' }));
    await provider.delete(id);
    const before = listings(fake.calls);
    // The delete of proxy-a ended after the create's listing was asked for: a new create of proxy-a may not use it.
    await provider.create(request({ uid: uid(2), name: 'proxy-a' }));
    expect(listings(fake.calls)).toBeGreaterThan(before);
    expect([...fake.vms.values()].filter((v) => v.config.name === 'proxy-a')).toHaveLength(1);
  });

  it('a rerun of a create adopts what the first attempt made, not a listing from before it', async () => {
    const { fake, provider } = harness();
    fake.faults.set('start', [new Error('cut off')]);
    await provider.create(request({ uid: uid(1), name: 'proxy-a' })).catch(() => undefined);
    await provider.create(request({ uid: uid(1), name: 'proxy-a' }));
    expect(fake.calls.filter((c) => c.startsWith('clone '))).toHaveLength(1);
    expect([...fake.vms.values()].filter((v) => v.config.name === 'proxy-a' && v.status === 'running')).toHaveLength(1);
  });
});

describe('KeyedLock.releasedSince', () => {
  it('tells whether a key was given back at or after a time, for a while', async () => {
    let now = 0;
    const lock = new KeyedLock(() => now);
    expect(lock.releasedSince('a', 0)).toBe(false);
    now = 10;
    const release = await lock.acquire('a');
    now = 20;
    release();
    expect(lock.releasedSince('a', 15)).toBe(true);
    expect(lock.releasedSince('a', 21)).toBe(false);
    expect(lock.releasedSince('b', 0)).toBe(false);
    // Forgotten after RELEASES_KEPT_MS, at the next release.
    now = 20 + 60_001;
    (await lock.acquire('b'))();
    expect(lock.releasedSince('a', 0)).toBe(false);
  });
});

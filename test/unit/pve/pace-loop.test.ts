/**
 * Issue 22: a read a loop repeats is held to the node's pace always (pace.ts loop lane), busy period or not; a
 * one-off request keeps the under-load rule (a lone create's burst leaves at once).
 */
import { describe, expect, it } from 'vitest';
import { Pace } from '../../../main/core/pve/pace';

const options = { requests: 3, perMs: 60_000, guardMs: 0, engage: 'under-load' as const, settleMs: 0 };

async function leftAtOnce(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('pace: the loop lane', () => {
  it('holds loop reads to the window with no busy period, per node, and leaves one-off requests alone', async () => {
    const pace = new Pace(options);
    expect(pace.engaged()).toBe(false);
    for (let i = 0; i < 3; i++) expect(await leftAtOnce(pace.take('pv1-1', 'read', undefined, true))).toBe(true);
    const fourth = pace.take('pv1-1', 'poll', undefined, true);
    expect(await leftAtOnce(fourth)).toBe(false);
    // Another node has its own lane; one-off requests to this node still leave at once.
    expect(await leftAtOnce(pace.take('pv1-2', 'read', undefined, true))).toBe(true);
    for (let i = 0; i < 5; i++) expect(await leftAtOnce(pace.take('pv1-1', 'read'))).toBe(true);
    expect(pace.stats()['pv1-1']).toMatchObject({ loopWaited: 1, queued: 1 });
  });

  it('lets a held loop read leave when its turn comes, and a caller that gives up leaves the lane', async () => {
    const pace = new Pace({ ...options, perMs: 30 });
    for (let i = 0; i < 3; i++) await pace.take('pv1-1', 'read', undefined, true);
    const giveUp = new AbortController();
    const abandoned = pace.take('pv1-1', 'read', giveUp.signal, true);
    const next = pace.take('pv1-1', 'read', undefined, true);
    giveUp.abort(new Error('gave up'));
    await expect(abandoned).rejects.toThrow('gave up');
    await expect(next).resolves.toBeUndefined();
    expect(pace.stats()['pv1-1']?.queued).toBe(0);
  });
});

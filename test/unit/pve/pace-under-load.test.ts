/**
 * Issue 11: the app's pace engages under load (pace.ts 'under-load'): a
 * lone create's burst leaves at once, overlapping creates are held to the
 * window, and the busy period lasts until the last of them ends.
 */
import { describe, expect, it } from 'vitest';
import { Pace } from '../../../main/core/pve/pace';

/** A busy period ends at once after its last operation here (settleMs 0), except where a test says otherwise. */
const options = { requests: 3, perMs: 60_000, guardMs: 0, engage: 'under-load' as const, settleMs: 0 };
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Whether `take` resolved within a few turns of the event loop (the window here is a minute: waiting means held). */
async function leftAtOnce(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('pace under load', () => {
  it('lets one operation send a burst without waiting', async () => {
    const pace = new Pace(options);
    const end = pace.operation();
    for (let i = 0; i < 6; i++) expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(true);
    expect(pace.stats()['pv1-1']?.waited).toBe(0);
    end();
  });

  it('holds a node to its window while two operations overlap, counting what was sent just before', async () => {
    const pace = new Pace(options);
    const first = pace.operation();
    await pace.take('pv1-1', 'write');
    await pace.take('pv1-1', 'write');
    const second = pace.operation();
    expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(true);
    // Three in the window already (two of them sent while the first create was alone).
    const held = pace.take('pv1-1', 'write');
    expect(await leftAtOnce(held)).toBe(false);
    // Another node has its own window.
    expect(await leftAtOnce(pace.take('pv1-2', 'write'))).toBe(true);
    // The busy period lasts until the last operation ends: the bulk's tail stays paced.
    second();
    expect(await leftAtOnce(pace.take('pv1-1', 'read'))).toBe(false);
    first();
    await nextTurn();
    // Idle again: whatever waited goes.
    expect(await leftAtOnce(held)).toBe(true);
    expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(true);
  });

  it("an operation's end counted twice does not end another's busy period", async () => {
    const pace = new Pace(options);
    const a = pace.operation();
    const b = pace.operation();
    const c = pace.operation();
    a();
    a();
    b();
    // c still runs, and it overlapped: still paced.
    for (let i = 0; i < 3; i++) await pace.take('pv1-1', 'write');
    expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(false);
    c();
  });

  it("a busy period outlasts its last operation by settleMs: the creates' address reads follow their boot", async () => {
    const pace = new Pace({ ...options, settleMs: 60_000 });
    const a = pace.operation();
    const b = pace.operation();
    a();
    b();
    await nextTurn();
    for (let i = 0; i < 3; i++) await pace.take('pv1-1', 'write');
    expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(false);
  });

  it("'always' (the default) paces even one operation", async () => {
    const pace = new Pace({ requests: 3, perMs: 60_000, guardMs: 0 });
    for (let i = 0; i < 3; i++) await pace.take('pv1-1', 'write');
    expect(await leftAtOnce(pace.take('pv1-1', 'write'))).toBe(false);
  });
});

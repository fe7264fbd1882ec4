import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../../main/core/provider/calls/keyed-lock';
import { isProviderError } from '../../../main/core/provider/rules/errors';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('KeyedLock', () => {
  it('lets one holder per key at a time, in arrival order, and other keys through', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const r1 = await lock.acquire('a');
    const second = lock.acquire('a').then((r) => (order.push('second'), r));
    const third = lock.acquire('a').then((r) => (order.push('third'), r));
    const other = await lock.acquire('b');
    order.push('other');
    await tick();
    expect(order).toEqual(['other']);
    r1();
    (await second)();
    (await third)();
    other();
    expect(order).toEqual(['other', 'second', 'third']);
    await tick();
    expect(lock.size).toBe(0);
  });

  it('gives up promptly when the signal fires, keeping the queue intact', async () => {
    const lock = new KeyedLock();
    const holder = await lock.acquire('a');
    const controller = new AbortController();
    const waiting = lock.acquire('a', controller.signal);
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const err = await waiting.catch((e: unknown) => e);
    expect(isProviderError(err, 'transient')).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    // The holder still holds: a newcomer must wait for it.
    let got = false;
    const next = lock.acquire('a').then((r) => ((got = true), r));
    await tick();
    expect(got).toBe(false);
    holder();
    (await next)();
    await tick();
    expect(lock.size).toBe(0);
  });

  it('ignores a second release', async () => {
    const lock = new KeyedLock();
    const r = await lock.acquire('a');
    r();
    r();
    const again = await lock.acquire('a');
    let got = false;
    const waiter = lock.acquire('a').then((x) => ((got = true), x));
    r();
    await tick();
    expect(got).toBe(false);
    again();
    (await waiter)();
  });
});

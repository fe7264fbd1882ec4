/**
 * Issue 11: reads and polls never take the last send of a pace window, so
 * the write that follows a task's end (the next upload, config or start) is
 * never queued behind the looks that saw the task end.
 */
import { describe, expect, it } from 'vitest';
import { Pace } from '../../../main/core/pve/pace';

describe('pace: the last send of a window is kept for writes', () => {
  it('lets two reads go, holds the third, and sends a write at once', async () => {
    const pace = new Pace({ requests: 3, perMs: 100, guardMs: 0 });
    const order: string[] = [];
    await pace.take('pv1-1', 'read');
    await pace.take('pv1-1', 'read');
    const third = pace.take('pv1-1', 'read').then(() => order.push('third read'));
    const write = pace.take('pv1-1', 'write').then(() => order.push('write'));
    await Promise.all([third, write]);
    expect(order).toEqual(['write', 'third read']);
    expect(pace.stats()['pv1-1']?.queued).toBe(0);
  });

  it('still lets reads use every send when the window has room only for reads (one request a window)', async () => {
    const pace = new Pace({ requests: 1, perMs: 50, guardMs: 0 });
    await pace.take('pv1-1', 'poll');
    await pace.take('pv1-1', 'poll');
    expect(pace.stats()['pv1-1']?.waited).toBe(1);
  });

  it('sends a waiting clone before the writes queued ahead of it', async () => {
    const pace = new Pace({ requests: 1, perMs: 40, guardMs: 0 });
    const order: string[] = [];
    await pace.take('pv1-1', 'write');
    const config = pace.take('pv1-1', 'write').then(() => order.push('config'));
    const start = pace.take('pv1-1', 'write').then(() => order.push('start'));
    const clone = pace.take('pv1-1', 'copy').then(() => order.push('clone'));
    await Promise.all([config, start, clone]);
    expect(order).toEqual(['clone', 'config', 'start']);
  });
});

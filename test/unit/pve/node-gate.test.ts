import { describe, expect, it } from 'vitest';
import { NodeGate } from '../../../main/core/pve/node-gate';

const never = new AbortController().signal;

describe('NodeGate', () => {
  it('lets at most the limit in per node, in arrival order, and never holds up another node', async () => {
    const gate = new NodeGate(2);
    const a1 = await gate.enter('pv1-1', never);
    const a2 = await gate.enter('pv1-1', never);
    const order: string[] = [];
    const a3 = gate.enter('pv1-1', never).then((leave) => (order.push('a3'), leave));
    const a4 = gate.enter('pv1-1', never).then((leave) => (order.push('a4'), leave));
    const b1 = await gate.enter('pv1-2', never); // another node: not queued behind pv1-1
    await Promise.resolve();
    expect(order).toEqual([]);
    a1();
    (await a3)();
    a2();
    (await a4)();
    b1();
    expect(order).toEqual(['a3', 'a4']);
    expect(gate.peaks()).toEqual({ 'pv1-1': 2, 'pv1-2': 1 });
  });

  it('a caller that gives up while waiting leaves the queue at once, and does not take a slot', async () => {
    const gate = new NodeGate(1);
    const held = await gate.enter('pv1-1', never);
    const quit = new AbortController();
    const waiting = gate.enter('pv1-1', quit.signal);
    quit.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    const next = await gate.enter('pv1-1', never);
    next();
    next(); // releasing twice is harmless
    expect(gate.peaks()['pv1-1']).toBe(1);
  });
});

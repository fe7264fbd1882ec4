/** A bulk request's parent: its state from its children, and a summary that says why the failed ones failed, grouped. */
import { describe, expect, it } from 'vitest';
import { parentOutcome } from '../../../../main/services/tasks/records/outcomes';
import { retryHelps } from '../../../../main/services/tasks/records/offers';
import type { TaskRecord } from '../../../../main/services/tasks/records/task-record';

let n = 0;
function child(target: string, vmid: number, state: TaskRecord['state'], message?: string): TaskRecord {
  return {
    id: `c${n++}`,
    kind: 'start-proxy',
    clusterId: 'c',
    target,
    vmid,
    state,
    progress: state === 'succeeded' ? 1 : 0,
    steps: [],
    upids: [],
    createdAt: '2026-01-01T00:00:00Z',
    attempts: 1,
    input: { kind: 'start-proxy', clusterId: 'c', vmid, name: target, uid: 'u' },
    ...(message ? { error: { kind: 'transient' as const, message, hint: 'Try again.' } } : {}),
  };
}

describe('a bulk parent', () => {
  it('counts its children and groups the reasons of the failed ones, a reason that differs only by the VM being one', () => {
    const outcome = parentOutcome([
      child('proxy-a', 101, 'succeeded'),
      child('proxy-b', 102, 'failed', 'VM 102 (proxy-b) is locked (backup).'),
      child('proxy-c', 103, 'failed', 'VM 103 (proxy-c) is locked (backup).'),
      child('proxy-d', 104, 'failed', 'The node pv1-2 did not answer.'),
    ]);
    expect(outcome.state).toBe('failed');
    expect(outcome.message).toBe(
      '1 succeeded, 3 failed: proxy-b, proxy-c: VM 102 (proxy-b) is locked (backup); proxy-d: The node pv1-2 did not answer.',
    );
  });

  it('says only the counts while children run, or when all succeeded', () => {
    expect(parentOutcome([child('a', 1, 'succeeded'), child('b', 2, 'running')]).message).toBe('1 of 2 done');
    expect(parentOutcome([child('a', 1, 'succeeded'), child('b', 2, 'succeeded')]).message).toBe('2 succeeded');
  });
});

describe('Retry of a recreate', () => {
  const recreate = (destroy: 'done' | 'failed', kind: 'permanent' | 'transient'): Parameters<typeof retryHelps>[0] => ({
    kind: 'recreate-proxy',
    state: 'failed',
    steps: [{ name: 'destroy', state: destroy }],
    error: { kind, message: 'm', hint: 'h' },
  });
  it('is offered after any failure once the old VM is deleted (no new request can name it), and only then', () => {
    expect(retryHelps(recreate('done', 'permanent'))).toBe(true);
    expect(retryHelps(recreate('failed', 'permanent'))).toBe(false);
    expect(retryHelps(recreate('failed', 'transient'))).toBe(true);
  });
});

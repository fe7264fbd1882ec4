/** What a task that did not finish offers: settled steps, what was left, Retry per failure class, where to fix. */
import { describe, expect, it } from 'vitest';
import { fixAtOf, leftBehindOf, retryHelps, settleSteps } from '../../../../main/services/tasks/records/offers';
import type { TaskRecord } from '../../../../main/services/tasks/records/task-record';

function create(patch: Partial<TaskRecord>, states: Record<string, TaskRecord['steps'][number]['state']>): TaskRecord {
  const names = ['lookup', 'clone', 'migrate', 'upload-seed', 'configure', 'resize', 'start', 'wait-running'];
  return {
    id: 't',
    kind: 'create-proxy',
    clusterId: 'c',
    target: 'proxy-a',
    state: 'failed',
    progress: 0,
    steps: names.map((name) => ({ name, state: states[name] ?? 'not-run' })),
    upids: [],
    createdAt: '2026-01-01T00:00:00Z',
    attempts: 1,
    input: { kind: 'create-proxy', uid: 'u', name: 'proxy-a', node: 'n', template: 't', machineType: 'm' },
    ...patch,
  };
}

describe('offers', () => {
  it('settles steps: the running one failed or cancelled, the pending ones not run', () => {
    const steps = [
      { name: 'a', state: 'done' as const },
      { name: 'b', state: 'running' as const },
      { name: 'c', state: 'pending' as const },
    ];
    expect(settleSteps(steps, 'failed').map((s) => s.state)).toEqual(['done', 'failed', 'not-run']);
    expect(settleSteps(steps, 'cancelled').map((s) => s.state)).toEqual(['done', 'cancelled', 'not-run']);
  });

  it('says what a create left', () => {
    expect(leftBehindOf(create({}, { lookup: 'failed' }))).toBeUndefined();
    expect(leftBehindOf(create({ vmid: 150123 }, { lookup: 'done', clone: 'done', 'upload-seed': 'done', start: 'failed' }))).toBe(
      'VM 150123 and its seed',
    );
    expect(leftBehindOf(create({ vmid: 150123 }, { lookup: 'done', clone: 'done', migrate: 'skipped', 'upload-seed': 'failed' }))).toBe(
      'possibly VM 150123 and its seed',
    );
    expect(leftBehindOf(create({ vmid: 150123, state: 'cancelled' }, { lookup: 'done', clone: 'cancelled' }))).toBe('possibly VM 150123');
    expect(leftBehindOf(create({ vmid: 150123, closedBy: 'x' }, { clone: 'done' }))).toBeUndefined();
    expect(leftBehindOf(create({ vmid: 150123, state: 'succeeded' }, { clone: 'done' }))).toBeUndefined();
  });

  it('offers Retry only after a transient failure or a cancel', () => {
    expect(retryHelps({ state: 'failed', error: { kind: 'transient', message: 'm', hint: 'h' } })).toBe(true);
    expect(retryHelps({ state: 'failed', error: { kind: 'permanent', message: 'm', hint: 'h' } })).toBe(false);
    expect(retryHelps({ state: 'failed', error: { kind: 'not-found', message: 'm', hint: 'h' } })).toBe(false);
    expect(retryHelps({ state: 'cancelled', error: undefined })).toBe(true);
  });

  it('derives where to fix a permanent failure', () => {
    const p = (message: string, hint = '') => fixAtOf({ kind: 'permanent', message, hint });
    expect(p('placement.image "t9001": VM 9001 is not a template')).toBe('templates');
    expect(p('VM 150123 has no boot disk to grow to 8G')).toBe('templates');
    expect(p('The token secret of cluster "lab" is not available: it was kept for a session only.')).toBe('settings');
    expect(p('403 Forbidden: Permission check failed (/vms/150123, VM.Allocate)')).toBe('settings');
    expect(p('storage proxy-seeds is not active on node pv1-1')).toBe('settings');
    expect(p('VM 150123 named web belongs to proxy uid x, not y', 'Remove that VM, or give this proxy another name.')).toBeUndefined();
    expect(fixAtOf({ kind: 'transient', message: 'template lock timeout', hint: '' })).toBeUndefined();
  });
});

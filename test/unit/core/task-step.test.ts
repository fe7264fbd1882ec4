/**
 * The task step (core/provider/calls/task-step.ts): started, a copy slot, submit,
 * the UPID reported, the wait, done; and the options the operations need.
 * What a user would notice: the step list a task shows, the request that is
 * or is not sent, the error a cancelled step ends with.
 */
import { describe, expect, it } from 'vitest';
import type { PveApi } from '../../../main/core/pve/api';
import { formatUpid } from '../../../main/core/pve/upid';
import { createMemoryLogger } from '../../../main/log/logger';
import { stepReporter, type ProgressEvent } from '../../../main/core/provider/calls/progress';
import { runTaskStep } from '../../../main/core/provider/calls/task-step';
import { fixtureError } from './fake-pve';

const upid = formatUpid({ node: 'pv1-1', pid: 1, pstart: 1, starttime: 1, type: 'qmstop', id: '100', user: 'egress@pve!desk' });

function world() {
  const log: string[] = [];
  // No task listing: the watcher asks each task's status, which says it ended OK.
  const api = {
    taskStatus: async () => {
      log.push('status');
      return { status: 'stopped' as const, exitstatus: 'OK', type: 'qmstop', node: 'pv1-1', upid, starttime: 1 };
    },
  } as Partial<PveApi> as PveApi;
  const events: string[] = [];
  const report = stepReporter('delete', ['stop'] as const, (e: ProgressEvent<'stop'>) => {
    events.push(`${e.phase}${e.upid ? ` ${e.upid === upid ? 'upid' : e.upid}` : ''}`);
    log.push(`event ${e.phase}`);
  });
  const tasks = { api, log: createMemoryLogger(), budgets: { youngPollMs: 5, youngForMs: 100, oldPollMs: 20 } };
  return { tasks, report, events, log };
}

describe('the task step', () => {
  it('reports started, the UPID, then done, around the submit and the wait', async () => {
    const w = world();
    const submit = async () => (w.log.push('submit'), upid);
    await expect(runTaskStep(w.tasks, w.report, { step: 'stop', at: { node: 'pv1-1', vmid: 100 }, submit, budgetMs: 1000 })).resolves.toBe(
      'ok',
    );
    expect(w.log).toEqual(['event started', 'submit', 'event task', 'status', 'event done']);
  });

  it('counts a refused submit as done when the step says so (delete: the VM is gone), and nothing else', async () => {
    const w = world();
    const gone = fixtureError('err_config_missing');
    const submit = () => Promise.reject(gone);
    const step = { step: 'stop' as const, at: { vmid: 100 }, submit, budgetMs: 1000, doneAlready: (e: unknown) => e === gone };
    await expect(runTaskStep(w.tasks, w.report, step)).resolves.toBe('done already');
    expect(w.events).toEqual(['started', 'done']);
    const other = world();
    await expect(runTaskStep(other.tasks, other.report, { ...step, doneAlready: () => false })).rejects.toBe(gone);
    expect(other.events).toEqual(['started']);
  });

  it('is done without a wait when Proxmox answers no task (7.4 grows a disk inside the request)', async () => {
    const w = world();
    await expect(runTaskStep(w.tasks, w.report, { step: 'stop', at: {}, submit: async () => null, budgetMs: 1000 })).resolves.toBe(
      'no task',
    );
    expect(w.log).toEqual(['event started', 'event done']);
  });

  it('sends nothing when cancelled while it waited for its copy slot, and gives the slot back', async () => {
    const w = world();
    const controller = new AbortController();
    let released = 0;
    const take = async () => {
      controller.abort(); // the cancel comes while the step waits for its turn
      return () => released++;
    };
    const submit = async () => (w.log.push('submit'), upid);
    const step = {
      step: 'stop' as const,
      at: {},
      submit,
      budgetMs: 1000,
      signal: controller.signal,
      slot: { take, what: 'a clone slot on local-lvm' },
    };
    await expect(runTaskStep(w.tasks, w.report, step)).rejects.toThrow('cancelled while waiting for a clone slot on local-lvm');
    expect(w.log).toEqual(['event started']);
    expect(released).toBe(1);
  });

  it('holds its copy slot from the submit until the task ended', async () => {
    const w = world();
    const take = async () => (w.log.push('slot taken'), () => w.log.push('slot released'));
    const submit = async () => (w.log.push('submit'), upid);
    await runTaskStep(w.tasks, w.report, { step: 'stop', at: {}, submit, budgetMs: 1000, slot: { take, what: 'a slot' } });
    expect(w.log).toEqual(['event started', 'slot taken', 'submit', 'event task', 'status', 'slot released', 'event done']);
  });
});

import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { logKey, useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { TasksView } from '../../../renderer/src/views/tasks/TasksView';
import { firstGap } from '../../../renderer/src/views/tasks/TaskLog';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { task } from '../proxies/data';

const upid = 'UPID:pve1:0001:0002:00000003:qmclone:120:root@pam:';

describe('tasks store and view', () => {
  let stub: StubApi;
  let detach: () => void;
  beforeEach(() => {
    stub = createStubApi();
    useTasks.setState({ tasks: {}, logs: {}, loaded: false, error: undefined, actionErrors: {}, notes: {}, selectedId: undefined });
    useUi.setState({ view: 'tasks' });
  });
  afterEach(() => {
    detach?.();
    cleanup();
  });

  function attach(tasks = [task('a')]) {
    stub.answer('tasks.list', () => ({ ok: true, value: { tasks } }));
    stub.answer('tasks.log', (input) => {
      const { start } = input as { start: number };
      return { ok: true, value: { lines: start === 0 ? [{ n: 1, t: 'create full clone of drive scsi0' }] : [], total: 1, running: true } };
    });
    detach = useTasks.getState().attach(stub.api);
  }

  it('loads the list, then applies pushed updates; the status bar counts running tasks from any view', async () => {
    attach([task('a'), task('b', { state: 'succeeded', progress: 1, actions: [] })]);
    useUi.setState({ view: 'overview' });
    render(<App />);
    const count = screen.getByRole('status', { name: 'Running tasks' });
    await expect.poll(() => count.textContent).toBe('1 task running');
    act(() => stub.push('tasks.update', task('c', { state: 'queued' })));
    expect(count.textContent).toBe('2 tasks running');
    act(() => stub.push('tasks.update', task('a', { state: 'succeeded', progress: 1 })));
    act(() => stub.push('tasks.update', task('c', { state: 'cancelled', progress: 0 })));
    expect(count.textContent).toBe('No task running');
  });

  it('shows progress, the current step, the step list and the live Proxmox log with line numbers', async () => {
    attach();
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-a' });
    expect(within(details).getByRole('progressbar', { name: 'Details progress of proxy-a' }).getAttribute('aria-valuenow')).toBe('40');
    expect(within(details).getAllByText('Clone the template').length).toBeGreaterThan(0);
    expect(
      within(details)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Upload the seed'),
      expect.stringContaining('Clone the template'),
      expect.stringContaining('Start the VM'),
    ]);
    const log = within(details).getByRole('log', { name: `Proxmox task log ${upid}` });
    expect(await within(log).findByText('create full clone of drive scsi0')).toBeTruthy();
    act(() => stub.push('tasks.log', { id: 'a', upid, lines: [{ n: 2, t: 'transferred 1.0 GiB of 2.0 GiB (50.00%)' }] }));
    expect(log.textContent).toBe('1create full clone of drive scsi02transferred 1.0 GiB of 2.0 GiB (50.00%)');
    expect(within(details).getByText('2 lines, following')).toBeTruthy();
  });

  it('keeps a task log after leaving the view and coming back', async () => {
    attach();
    const { unmount } = render(<TasksView />);
    await screen.findByText('create full clone of drive scsi0');
    unmount();
    act(() => stub.push('tasks.log', { id: 'a', upid, lines: [{ n: 2, t: 'TASK OK' }] }));
    const reads = stub.calls.filter(([c]) => c === 'tasks.log').length;
    render(<TasksView />);
    expect(screen.getByText('TASK OK')).toBeTruthy();
    expect(screen.getByText('create full clone of drive scsi0')).toBeTruthy();
    expect(stub.calls.filter(([c]) => c === 'tasks.log').length).toBe(reads);
    expect(useTasks.getState().logs[logKey('a', upid)]?.lines).toHaveLength(2);
  });

  it('offers a page of missing lines when the log has a gap', () => {
    expect(
      firstGap(
        [
          { n: 1, t: '' },
          { n: 2, t: '' },
        ],
        2,
      ),
    ).toBeUndefined();
    expect(firstGap([{ n: 600, t: '' }], 600)).toEqual({ start: 0, count: 599 });
    expect(firstGap([{ n: 1, t: '' }], 900)).toEqual({ start: 1, count: 899 });
  });

  it('cancel says what keeps running on Proxmox; resume and clean-up are offered for an interrupted task', async () => {
    stub.answer('tasks.cancel', () => ({ ok: true, value: { message: 'The clone on pve1 keeps running until Proxmox finishes it.' } }));
    stub.answer('tasks.resume', () => ({ ok: true, value: task('i', { state: 'running', attempts: 2, actions: ['cancel'] }) }));
    attach([
      task('a'),
      task('i', {
        state: 'interrupted',
        actions: ['resume', 'clean-up'],
        createdAt: '2025-01-01T00:00:00.000Z',
        message: 'Egress Desk stopped while this ran.',
      }),
    ]);
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-a' });
    await act(async () => fireEvent.click(within(details).getByRole('button', { name: 'Cancel' })));
    expect(within(details).getByText('The clone on pve1 keeps running until Proxmox finishes it.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create proxy-i' }));
    const interrupted = screen.getByRole('article', { name: 'Task Create proxy-i' });
    expect(within(interrupted).getByText('Egress Desk stopped while this ran.')).toBeTruthy();
    expect(within(interrupted).getByRole('button', { name: 'Clean up' })).toBeTruthy();
    await act(async () => fireEvent.click(within(interrupted).getByRole('button', { name: 'Resume' })));
    expect(stub.calls.find(([c]) => c === 'tasks.resume')?.[1]).toEqual({ id: 'i' });
    expect(useTasks.getState().tasks.i?.state).toBe('running');
  });

  it('shows why a task failed, and a refused action, each with class and hint', async () => {
    stub.answer('tasks.retry', () => ({
      ok: false,
      error: { kind: 'transient', message: 'The node is busy.', hint: 'Try again in a minute.' },
    }));
    attach([
      task('f', {
        state: 'failed',
        actions: ['retry', 'clean-up'],
        error: {
          kind: 'permanent',
          message: 'The template has a cloud-init drive (ide2).',
          hint: 'Remove the cloud-init drive from the template.',
        },
      }),
    ]);
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-f' });
    expect(within(details).getByText('The template has a cloud-init drive (ide2).')).toBeTruthy();
    expect(within(details).getByText('What to do: Remove the cloud-init drive from the template.')).toBeTruthy();
    await act(async () => fireEvent.click(within(details).getByRole('button', { name: 'Retry' })));
    const alert = within(details).getByRole('alert');
    expect(alert.textContent).toContain('Transient');
    expect(alert.textContent).toContain('Try again in a minute.');
  });

  it('lists the children of a bulk create under their parent', async () => {
    attach([
      task('p', { kind: 'create-proxies', target: '5 proxies', childIds: ['c1', 'c2'], steps: [], upids: [], actions: [] }),
      task('c1', { parentId: 'p', target: 'edge-1' }),
      task('c2', { parentId: 'p', target: 'edge-2', state: 'succeeded' }),
    ]);
    render(<TasksView />);
    const table = await screen.findByRole('table', { name: 'Tasks' });
    // One row per task: the parent, then its proxies under it (not again on their own).
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Create 5 proxies',
      '↳ Create edge-1',
      '↳ Create edge-2',
    ]);
    expect(rows.map((r) => r.className)).toEqual(['', 'dt-child', 'dt-child']);
    const details = screen.getByRole('article', { name: 'Task Create 5 proxies' });
    fireEvent.click(within(details).getByRole('button', { name: 'edge-2' }));
    expect(screen.getByRole('article', { name: 'Task Create edge-2' })).toBeTruthy();
  });
});

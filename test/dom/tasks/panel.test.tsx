/**
 * Issue 13 in the Tasks view and the shell: the dense task table with its
 * filters (state, cluster, kind), absolute start times and durations, a
 * task of a removed cluster said in words, and the task panel the status
 * bar opens from any view, one click from a task's log.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { formatDateTime } from '../../../renderer/src/format';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTaskPanel } from '../../../renderer/src/stores/task-panel';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { TasksView } from '../../../renderer/src/views/tasks/TasksView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { task } from '../proxies/data';
import { profile, profilesList } from '../settings/reports';

const tasks = [
  task('run', { target: 'edge-run', startedAt: '2026-03-04T10:00:00.000Z', createdAt: '2026-03-04T10:00:00.000Z' }),
  task('ok', {
    state: 'succeeded',
    progress: 1,
    actions: [],
    createdAt: '2026-03-04T09:00:00.000Z',
    startedAt: '2026-03-04T09:00:00.000Z',
    endedAt: '2026-03-04T09:01:05.000Z',
  }),
  task('del', {
    kind: 'delete-proxy',
    target: 'edge-old',
    state: 'failed',
    actions: ['retry'],
    clusterId: 'gone',
    createdAt: '2026-03-03T08:00:00.000Z',
    startedAt: '2026-03-03T08:00:00.000Z',
    endedAt: '2026-03-03T08:00:12.000Z',
  }),
];

let stub: StubApi;
let detach: (() => void) | undefined;
beforeEach(() => {
  stub = createStubApi();
  useTasks.setState({
    tasks: {},
    logs: {},
    loaded: false,
    error: undefined,
    actionErrors: {},
    notes: {},
    selectedId: undefined,
    toasts: [],
  });
  useProfiles.setState({ list: profilesList([profile({ id: 'demo', name: 'Demo cluster (simulated)', demo: true })]), error: undefined });
  useTaskPanel.setState({ open: false });
  stub.answer('tasks.list', () => ({ ok: true, value: { tasks } }));
  stub.answer('tasks.log', () => ({ ok: true, value: { lines: [{ n: 1, t: 'TASK OK' }], total: 1, running: false } }));
  detach = useTasks.getState().attach(stub.api);
});
afterEach(() => {
  detach?.();
  detach = undefined;
  cleanup();
});

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('row', { name: new RegExp(name) });

describe('the Tasks table', () => {
  it('one row per task with state, cluster (or "cluster removed"), absolute start and duration', async () => {
    useUi.setState({ view: 'tasks' });
    render(<TasksView />);
    const table = await screen.findByRole('table', { name: 'Tasks' });
    expect(bodyRows(table)).toHaveLength(3);
    const ok = rowOf(table, 'Create proxy-ok');
    expect(ok.textContent).toContain('Demo cluster (simulated)');
    expect(ok.textContent).toContain(formatDateTime('2026-03-04T09:00:00.000Z'));
    expect(within(ok).getByText('1 min 5 s')).toBeTruthy();
    const removed = rowOf(table, 'Delete edge-old');
    expect(removed.textContent).toContain('cluster removed');
    expect(removed.textContent).not.toMatch(/no cluster with id/i);
    // Choosing a row shows it in full, and says its cluster is gone.
    fireEvent.click(within(removed).getAllByRole('cell')[0]!);
    const details = screen.getByRole('article', { name: 'Task Delete edge-old' });
    expect(details.textContent).toContain('cluster removed');
    expect(removed.getAttribute('aria-current')).toBe('true');
  });

  it('filters by state, cluster and kind, and says how many it shows', async () => {
    render(<TasksView />);
    await screen.findByRole('table', { name: 'Tasks' });
    const filters = screen.getByRole('toolbar', { name: 'Task filters' });
    const shown = () => screen.getByRole('status', { name: 'Tasks shown' }).textContent;
    const heads = () => bodyRows(screen.getByRole('table', { name: 'Tasks' })).map((r) => within(r).getByRole('rowheader').textContent);
    expect(shown()).toBe('3 of 3 tasks');

    fireEvent.change(within(filters).getByRole('combobox', { name: 'State' }), { target: { value: 'live' } });
    expect(heads()).toEqual(['Create edge-run']);
    fireEvent.change(within(filters).getByRole('combobox', { name: 'State' }), { target: { value: 'all' } });

    const clusterBox = within(filters).getByRole('combobox', { name: 'Cluster' });
    expect(
      within(clusterBox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All clusters', 'Demo cluster (simulated)', 'gone (cluster removed)']);
    fireEvent.change(clusterBox, { target: { value: 'gone' } });
    expect(heads()).toEqual(['Delete edge-old']);
    fireEvent.change(clusterBox, { target: { value: '' } });

    fireEvent.change(within(filters).getByRole('combobox', { name: 'Kind' }), { target: { value: 'Create' } });
    expect(heads()).toEqual(['Create edge-run', 'Create proxy-ok']);
    expect(shown()).toBe('2 of 3 tasks');

    fireEvent.change(within(filters).getByRole('combobox', { name: 'State' }), { target: { value: 'interrupted' } });
    expect(screen.queryByRole('table', { name: 'Tasks' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show every task' }));
    expect(bodyRows(screen.getByRole('table', { name: 'Tasks' }))).toHaveLength(3);
  });

  it('Enter on a row shows that task', async () => {
    render(<TasksView />);
    const table = await screen.findByRole('table', { name: 'Tasks' });
    const row = rowOf(table, 'Create proxy-ok');
    fireEvent.keyDown(row, { key: 'Enter' });
    expect(screen.getByRole('article', { name: 'Task Create proxy-ok' })).toBeTruthy();
  });
});

describe('the task panel', () => {
  it('"No task running" is words, not a button; while tasks run the count opens the panel, and a task is one click from its log', async () => {
    stub.answer('tasks.list', () => ({ ok: true, value: { tasks: tasks.slice(1) } }));
    detach?.();
    useTasks.setState({ tasks: {}, loaded: false });
    detach = useTasks.getState().attach(stub.api);
    useUi.setState({ view: 'overview' });
    render(<App />);
    const status = screen.getByRole('status', { name: 'Running tasks' });
    await expect.poll(() => Object.keys(useTasks.getState().tasks).length).toBe(2);
    expect(status.textContent).toBe('No task running');
    expect(within(status).queryByRole('button')).toBeNull();

    act(() => stub.push('tasks.update', tasks[0]!));
    const toggle = within(status).getByRole('button', { name: '1 task running' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Running and recent tasks' });
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id);
    const table = within(panel).getByRole('table', { name: 'Running and recent tasks' });
    // Running first, then the newest; each with its state, cluster, start time and duration.
    expect(bodyRows(table).map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Create edge-run',
      'Create proxy-ok',
      'Delete edge-old',
    ]);
    const ok = rowOf(table, 'Create proxy-ok');
    expect(ok.textContent).toContain('succeeded');
    expect(ok.textContent).toContain(formatDateTime('2026-03-04T09:00:00.000Z'));
    expect(ok.textContent).toContain('1 min 5 s');
    expect(rowOf(table, 'Delete edge-old').textContent).toContain('cluster removed');

    fireEvent.click(within(panel).getByRole('button', { name: 'Show the log of Create proxy-ok' }));
    expect(useUi.getState().view).toBe('tasks');
    expect(screen.queryByRole('region', { name: 'Running and recent tasks' })).toBeNull();
    const details = screen.getByRole('article', { name: 'Task Create proxy-ok' });
    expect(await within(details).findByText('TASK OK')).toBeTruthy();

    // Escape closes the panel; so does toggling again.
    fireEvent.click(toggle);
    fireEvent.keyDown(within(screen.getByRole('region', { name: 'Running and recent tasks' })).getByRole('table'), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Running and recent tasks' })).toBeNull();
    fireEvent.click(toggle);
    fireEvent.click(toggle);
    expect(screen.queryByRole('region', { name: 'Running and recent tasks' })).toBeNull();
  });
});

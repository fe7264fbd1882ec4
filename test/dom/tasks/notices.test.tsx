/** The tasks snapshot's `notices` (journal lines kept aside, a full or read-only data folder) show in the Tasks view as one warning. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { TasksView } from '../../../renderer/src/views/tasks/TasksView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { task } from '../proxies/data';

const FULL =
  'Egress Desk could not record progress: disk full. Tasks are refused, and running ones stop before their next request, until then: Free space in /data/tasks (the disk it is on is full), then try again.';
const KEPT = '2 unreadable lines of the task journal were skipped and kept in /data/tasks/tasks.jsonl.corrupt.';

describe('tasks view: the snapshot’s notices', () => {
  let stub: StubApi;
  let detach: (() => void) | undefined;
  beforeEach(() => {
    stub = createStubApi();
    useTasks.setState({
      tasks: {},
      logs: {},
      loaded: false,
      error: undefined,
      notices: [],
      actionErrors: {},
      notes: {},
      selectedId: undefined,
    });
    useUi.setState({ view: 'tasks' });
  });
  afterEach(() => {
    detach?.();
    detach = undefined;
    cleanup();
    useTasks.setState({ notices: [] });
  });

  it('shows every notice in one warning block, beside the tasks', async () => {
    stub.answer('tasks.list', () => ({ ok: true, value: { tasks: [task('a')], notices: [KEPT, FULL] } }));
    detach = useTasks.getState().attach(stub.api);
    render(<TasksView />);
    const block = await screen.findByRole('status', { name: 'Data folder notices' });
    expect(within(block).getByText('The data folder needs attention')).toBeTruthy();
    expect(
      within(block)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([KEPT, FULL]);
    expect(await screen.findByRole('article', { name: 'Task Create proxy-a' })).toBeTruthy();
  });

  it('shows no warning when the snapshot has none, and drops it once a reload has none', async () => {
    let notices: string[] | undefined = [FULL];
    stub.answer('tasks.list', () => ({ ok: true, value: { tasks: [], ...(notices ? { notices } : {}) } }));
    detach = useTasks.getState().attach(stub.api);
    render(<TasksView />);
    expect(await screen.findByRole('status', { name: 'Data folder notices' })).toBeTruthy();
    notices = undefined;
    await useTasks.getState().reload();
    await expect.poll(() => screen.queryByRole('status', { name: 'Data folder notices' })).toBeNull();
  });
});

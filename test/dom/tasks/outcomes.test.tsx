/**
 * Issue 12 in the Tasks view: a create's two parts and its address (Copy,
 * Open in Proxies, Test), the actions a failed task offers per failure
 * class, a cancel's words, the browser-mode toasts, and the one banner a
 * missing token secret gets in every view.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../shared/channels/tasks';
import { App } from '../../../renderer/src/App';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useProxyCheck } from '../../../renderer/src/stores/proxy-check';
import { useProxyFocus } from '../../../renderer/src/stores/proxy-focus';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi, views } from '../../../renderer/src/stores/ui';
import { TasksView } from '../../../renderer/src/views/tasks/TasksView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { cluster, task, vm } from '../proxies/data';
import { profile, profilesList } from '../settings/reports';

const steps = (...states: TaskView['steps'][number]['state'][]): TaskView['steps'] =>
  ['lookup', 'clone', 'upload-seed', 'start', 'waiting for an address'].map((name, i) => ({ name, state: states[i] ?? 'done' }));

let stub: StubApi;
let detach: (() => void) | undefined;
beforeEach(() => {
  stub = createStubApi();
  useTasks.setState({ tasks: {}, logs: {}, loaded: false, error: undefined, actionErrors: {}, notes: {}, selectedId: undefined, toasts: [] });
  useInventory.setState({ clusters: [cluster([vm(150123, { address: '10.0.5.23' })])], loaded: true, error: undefined });
  useProfiles.setState({ list: profilesList([profile({ id: 'demo', name: 'Demo cluster (simulated)', demo: true })]), error: undefined });
  useProxyFocus.setState({ key: undefined });
  useUi.setState({ view: 'tasks' });
});
afterEach(() => {
  detach?.();
  detach = undefined;
  cleanup();
});

function show(t: TaskView) {
  stub.answer('tasks.list', () => ({ ok: true, value: { tasks: [t] } }));
  stub.answer('tasks.log', () => ({ ok: true, value: { lines: [], total: 0, running: false } }));
  detach = useTasks.getState().attach(stub.api);
}

describe('a create’s address', () => {
  it('while waiting: says which part is done and what it waits for; no address actions yet', async () => {
    show(
      task('w', {
        state: 'succeeded',
        progress: 1,
        actions: [],
        vmid: 150123,
        steps: steps('done', 'done', 'done', 'done', 'running'),
        address: { state: 'waiting', since: new Date().toISOString() },
      }),
    );
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-w' });
    expect(within(details).getByLabelText('Parts of the create').textContent).toBe('Proxmox: done · address: waiting');
    expect(within(details).getByText(/Waiting for the guest agent to report an address/)).toBeTruthy();
    expect(within(details).queryByRole('button', { name: 'Open in Proxies' })).toBeNull();
  });

  it('when ready: the address with Copy, Open in Proxies (selects it and opens its drawer) and Test', async () => {
    show(
      task('r', {
        state: 'succeeded',
        progress: 1,
        actions: [],
        vmid: 150123,
        steps: steps(),
        address: { state: 'ready', value: '10.0.5.23', since: '2026-01-01T00:00:00.000Z', at: '2026-01-01T00:01:15.000Z' },
      }),
    );
    useProxyCheck.getState().attach(stub.api);
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-r' });
    expect(within(details).getByLabelText('Parts of the create').textContent).toBe('Proxmox: done · address: ready');
    expect(within(details).getByLabelText('Address').textContent).toBe('10.0.5.23');
    expect(within(details).getByRole('button', { name: 'Copy address' })).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Test' }));
    expect(within(details).getByRole('region', { name: 'Proxy test' })).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Open in Proxies' }));
    expect(useUi.getState().view).toBe('proxies');
    expect(useProxyFocus.getState().key).toBe('demo/150123');
  });

  it('when it gave up: the reason and what to check', async () => {
    show(
      task('g', {
        state: 'succeeded',
        progress: 1,
        actions: [],
        vmid: 150123,
        steps: steps('done', 'done', 'done', 'done', 'failed'),
        address: {
          state: 'gave-up',
          since: '2026-01-01T00:00:00.000Z',
          reason: 'proxy-g runs, but its guest agent reported no address within 10 minutes.',
          hint: 'Check that qemu-guest-agent is installed and running in the template.',
        },
      }),
    );
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-g' });
    expect(within(details).getByLabelText('Parts of the create').textContent).toBe('Proxmox: done · address: gave up');
    expect(within(details).getByText(/reported no address within 10 minutes/)).toBeTruthy();
    expect(within(details).getByText(/qemu-guest-agent is installed/)).toBeTruthy();
  });
});

describe('a failed task offers only what can help', () => {
  it('permanent: no Retry; the fix in words and a button to the place to fix it', async () => {
    show(
      task('p', {
        state: 'failed',
        progress: 0.2,
        actions: [],
        steps: steps('failed', 'not-run', 'not-run', 'not-run', 'not-run'),
        error: { kind: 'permanent', message: 'placement.image "t9001": VM 9001 is not a template', hint: 'Convert VM 9001 to a template.' },
        fixAt: 'templates',
      }),
    );
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-p' });
    expect(within(details).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(within(details).queryByRole('button', { name: 'Clean up' })).toBeNull();
    const fix = within(details).getByRole('group', { name: 'How to fix it' });
    expect(fix.textContent).toContain('Convert VM 9001 to a template.');
    expect(within(details).getAllByText('not run').length).toBe(4);
    fireEvent.click(within(fix).getByRole('button', { name: 'Open Templates' }));
    expect(useUi.getState().view).toBe('templates');
  });

  it('transient with leftovers: Retry, and Clean up saying what it deletes', async () => {
    show(
      task('t', {
        state: 'failed',
        progress: 0.6,
        vmid: 150123,
        actions: ['retry', 'clean-up'],
        leftBehind: 'VM 150123 and its seed',
        steps: steps('done', 'done', 'done', 'failed', 'not-run'),
        error: { kind: 'transient', message: 'the start task failed', hint: 'Try again in a moment.' },
      }),
    );
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-t' });
    const actions = within(details).getByRole('group', { name: 'Task actions' });
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Retry', 'Clean up']);
    expect(within(details).getByText('VM 150123 and its seed')).toBeTruthy();
    expect(within(details).queryByRole('group', { name: 'How to fix it' })).toBeNull();
  });

  it('cancel: shows what main says it stopped and what is left; steps end cancelled / not run', async () => {
    show(task('c'));
    const message =
      'Cancelled. Stopped the Proxmox task qmclone on node pve1: it ended with “received interrupt”. Nothing of this proxy is left in Proxmox.';
    stub.answer('tasks.cancel', () => ({ ok: true, value: { message } }));
    render(<TasksView />);
    const details = await screen.findByRole('article', { name: 'Task Create proxy-c' });
    fireEvent.click(within(details).getByRole('button', { name: 'Cancel' }));
    expect(await within(details).findByText(message)).toBeTruthy();
    act(() =>
      stub.push(
        'tasks.update',
        task('c', {
          state: 'cancelled',
          actions: ['retry'],
          steps: [
            { name: 'Upload the seed', state: 'done' },
            { name: 'Clone the template', state: 'cancelled' },
            { name: 'Start the VM', state: 'not-run' },
          ],
        }),
      ),
    );
    expect(within(details).getByText('cancelled', { selector: '.step .state-badge' })).toBeTruthy();
    expect(within(details).getByText('not run')).toBeTruthy();
    expect(within(details).queryByText('pending')).toBeNull();
  });
});

describe('notices and the missing secret', () => {
  it('shows a toast for a notice from main, with a way to the task', async () => {
    show(task('n', { state: 'succeeded', progress: 1, actions: [] }));
    useUi.setState({ view: 'overview' });
    render(<App />);
    act(() => stub.push('tasks.notice', { taskId: 'n', tone: 'ok', title: 'proxy-n is ready', body: 'Address 10.0.5.23 · VM 150123 on pve1' }));
    const toasts = screen.getByRole('list', { name: 'Notifications' });
    expect(within(toasts).getByText('proxy-n is ready')).toBeTruthy();
    fireEvent.click(within(toasts).getByRole('button', { name: 'Show task' }));
    expect(useUi.getState().view).toBe('tasks');
    expect(useTasks.getState().selectedId).toBe('n');
    expect(screen.queryByRole('list', { name: 'Notifications' })).toBeNull();
  });

  it('one banner with Enter secret in every view; nothing calls the cluster degraded or empty', async () => {
    const home = profile({ secretAvailable: false });
    useProfiles.setState({ list: profilesList([home]), error: undefined });
    useInventory.setState({
      clusters: [
        cluster([], {
          clusterId: 'home',
          name: 'homelab',
          status: { state: 'secret-missing', reason: 'The token secret of cluster "homelab" is not available.', failures: 0, intervalMs: 5000 },
        }),
      ],
    });
    show(task('s', { state: 'succeeded', progress: 1, actions: [] }));
    render(<App />);
    for (const v of views) {
      act(() => useUi.setState({ view: v.id }));
      const banners = screen.getAllByRole('region', { name: 'Token secret needed' });
      expect(banners, v.id).toHaveLength(1);
      expect(within(banners[0]!).getByRole('button', { name: 'Enter secret' })).toBeTruthy();
      const text = document.body.textContent ?? '';
      expect(text, v.id).not.toMatch(/Degraded|No proxies yet|Template missing/);
    }
    act(() => useUi.setState({ view: 'overview' }));
    expect(screen.getByRole('status', { name: 'Health of homelab' }).textContent).toBe('Not checked: the token secret is needed');
    fireEvent.click(screen.getByRole('button', { name: 'Enter secret' }));
    expect(screen.getByRole('dialog', { name: 'Token secret for homelab' })).toBeTruthy();
  });
});

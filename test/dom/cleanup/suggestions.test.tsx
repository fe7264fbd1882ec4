/** Issue 16: the Cleanup view's suggestions for a half-built proxy are real actions on the task channels. */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CleanupReport } from '../../../shared/channels/cleanup';
import { useCleanup } from '../../../renderer/src/stores/cleanup';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { CleanupView } from '../../../renderer/src/views/cleanup/CleanupView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { cluster, task, vm } from '../proxies/data';

const report: CleanupReport = {
  clusterId: 'demo',
  scannedAt: new Date().toISOString(),
  graceMinutes: 15,
  orphans: [],
  kept: [],
  halfBuilt: [{ node: 'pve2', vmid: 131, name: 'proxy-half', reason: 'Marked as ours, made 3 h ago and stopped.' }],
  missingSeed: [],
  foreign: [],
  problems: [],
};

describe('Cleanup suggestions', () => {
  let stub: StubApi;
  beforeEach(() => {
    stub = createStubApi();
    stub.answer('cleanup.scan', () => ({ ok: true, value: report }));
    stub.answer('tasks.power', () => ({ ok: true, value: { taskIds: ['s1'] } }));
    stub.answer('tasks.deleteProxies', () => ({ ok: true, value: { taskIds: ['d1'] } }));
    useInventory.setState({ clusters: [cluster([])], loaded: true });
    useTasks.setState({ api: stub.api, tasks: { c1: task('c1', { target: 'proxy-half', state: 'interrupted', actions: ['resume'] }) } });
    useCleanup.setState({
      clusterId: undefined,
      report: undefined,
      selected: new Set(),
      lastRun: undefined,
      error: undefined,
      scanning: false,
    });
    useCleanup.getState().attach(stub.api);
  });
  afterEach(cleanup);

  async function row() {
    render(<CleanupView />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan' })));
    return within(within(screen.getByRole('table', { name: 'Half-built proxies' })).getAllByRole('row')[1]!);
  }

  it('Start it starts the proxy through tasks.power', async () => {
    const r = await row();
    await act(async () => fireEvent.click(r.getByRole('button', { name: 'Start it: proxy-half' })));
    expect(stub.calls.find(([c]) => c === 'tasks.power')?.[1]).toEqual({
      clusterId: 'demo',
      targets: [{ vmid: 131, name: 'proxy-half' }],
      action: 'start',
    });
    expect(r.getByText('Starting proxy-half.')).toBeTruthy();
  });

  it('Delete it asks first, naming the VM, then deletes it through tasks.deleteProxies', async () => {
    const r = await row();
    fireEvent.click(r.getByRole('button', { name: 'Delete it: proxy-half' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete proxy-half?' });
    expect(within(dialog).getByText(/VM 131 on pve2/)).toBeTruthy();
    expect(stub.calls.some(([c]) => c === 'tasks.deleteProxies')).toBe(false);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete proxy-half' })));
    expect(stub.calls.find(([c]) => c === 'tasks.deleteProxies')?.[1]).toEqual({ clusterId: 'demo', ids: ['vms/131/proxy-half'] });
  });

  it('an operator-made one: Start asks for the acknowledgement first, and sends it', async () => {
    useInventory.setState({
      clusters: [cluster([vm(131, { name: 'proxy-half', node: 'pve2', ours: false, state: 'stopped', status: 'stopped' })])],
    });
    const r = await row();
    fireEvent.click(r.getByRole('button', { name: 'Start it: proxy-half' }));
    const dialog = screen.getByRole('dialog', { name: 'Start proxy-half?' });
    const go = within(dialog).getByRole('button', { name: 'Start proxy-half' }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    expect(stub.calls.some(([c]) => c === 'tasks.power')).toBe(false);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /operator may undo this change/ }));
    await act(async () => fireEvent.click(go));
    expect(stub.calls.find(([c]) => c === 'tasks.power')?.[1]).toEqual({
      clusterId: 'demo',
      targets: [{ vmid: 131, name: 'proxy-half' }],
      action: 'start',
      acknowledgeOperatorWarning: true,
    });
  });

  it('Open its task shows its unfinished create in Tasks (where Resume is)', async () => {
    const r = await row();
    fireEvent.click(r.getByRole('button', { name: 'Open its task: proxy-half' }));
    expect(useTasks.getState().selectedId).toBe('c1');
    expect(useUi.getState().view).toBe('tasks');
  });
});

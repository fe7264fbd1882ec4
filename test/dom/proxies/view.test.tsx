import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { giveElementsHeight, snapshot, task, vm } from './data';

const many = Array.from({ length: 5000 }, (_, i) =>
  vm(100 + i, i % 7 === 0 ? { state: 'stopped', status: 'stopped', address: undefined } : {}),
);

function dataRows() {
  return within(screen.getByRole('grid', { name: 'Proxies' }))
    .getAllByRole('row')
    .slice(1);
}

describe('Proxies view', () => {
  let stub: StubApi;
  beforeAll(() => giveElementsHeight(600));
  beforeEach(() => {
    stub = createStubApi();
    useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
    useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
  });
  afterEach(cleanup);

  it('draws only the rows in view out of 5,000, and counts them all', () => {
    act(() => useInventory.getState().applySnapshot(snapshot(many)));
    render(<ProxiesView />);
    expect(screen.getByRole('grid', { name: 'Proxies' }).getAttribute('aria-rowcount')).toBe('5001');
    expect(screen.getByLabelText('Rows shown').textContent).toBe('5000 VMs');
    const drawn = dataRows().length;
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(60);
  });

  it('finds a proxy by its address, and filters by state', () => {
    act(() => useInventory.getState().applySnapshot(snapshot(many)));
    render(<ProxiesView />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search proxies' }), { target: { value: '10.0.19.249' } });
    expect(screen.getByLabelText('Rows shown').textContent).toBe('1 of 5000 VMs');
    expect(within(dataRows()[0]!).getByRole('button', { name: 'Details of proxy-4999' })).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search proxies' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'stopped' } });
    expect(screen.getByLabelText('Rows shown').textContent).toBe(`${many.filter((r) => r.state === 'stopped').length} of 5000 VMs`);
    for (const row of dataRows()) expect(within(row).getByText('stopped')).toBeTruthy();
  });

  it('sorts by VMID, then the other way on a second click', () => {
    act(() => useInventory.getState().applySnapshot(snapshot([vm(300), vm(100), vm(200)])));
    render(<ProxiesView />);
    fireEvent.click(screen.getByRole('button', { name: 'VMID' }));
    expect(dataRows().map((r) => r.textContent)).toEqual([
      expect.stringContaining('proxy-100'),
      expect.stringContaining('proxy-200'),
      expect.stringContaining('proxy-300'),
    ]);
    fireEvent.click(screen.getByRole('button', { name: /VMID/ }));
    expect(dataRows()[0]!.textContent).toContain('proxy-300');
    expect(screen.getByRole('columnheader', { name: /VMID/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('shows foreign and operator-made VMs as such, and foreign ones cannot be selected', () => {
    act(() =>
      useInventory
        .getState()
        .applySnapshot(snapshot([vm(101), vm(102, { owner: 'foreign', uid: undefined, ours: undefined }), vm(103, { ours: false })])),
    );
    render(<ProxiesView />);
    const [, foreign, operator] = dataRows();
    expect(within(foreign!).getByText('foreign')).toBeTruthy();
    expect((within(foreign!).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect(within(operator!).getByText('operator-made')).toBeTruthy();
  });

  it('deletes the selection with the Delete key after a confirmation that names each proxy', async () => {
    stub.answer('tasks.deleteProxies', (input) => ({
      ok: true,
      value: { taskIds: (input as { ids: string[] }).ids.map((_, i) => `t${i}`) },
    }));
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101), vm(102), vm(103)])));
    render(<ProxiesView />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select proxy-101' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select proxy-103' }));
    fireEvent.keyDown(window, { key: 'Delete' });
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 proxies?' });
    expect(within(dialog).getByText('proxy-101')).toBeTruthy();
    expect(within(dialog).getByText('proxy-103')).toBeTruthy();
    expect(within(dialog).queryByText('proxy-102')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 proxies' })));
    expect(stub.calls.find(([c]) => c === 'tasks.deleteProxies')?.[1]).toEqual({
      clusterId: 'demo',
      ids: ['vms/101/proxy-101', 'vms/103/proxy-103'],
    });
    expect(screen.getByText(/Started 2 delete tasks/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a refused delete with its class, message and hint', async () => {
    stub.answer('tasks.deleteProxies', () => ({
      ok: false,
      error: { kind: 'permanent', message: 'The token may not delete VMs.', hint: 'Grant VM.Allocate.' },
    }));
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101)])));
    render(<ProxiesView />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select proxy-101' }));
    fireEvent.click(screen.getByRole('button', { name: /Delete selected/ }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete 1 proxy' })));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Permanent');
    expect(alert.textContent).toContain('The token may not delete VMs.');
    expect(alert.textContent).toContain('Grant VM.Allocate.');
  });

  it('opens the details drawer: configuration, the mark, the tasks that touched it, the address to copy', async () => {
    useTasks.setState({ tasks: { a: task('a', { vmid: 101, target: 'proxy-101', state: 'succeeded', actions: [] }) } });
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101)])));
    render(<ProxiesView />);
    fireEvent.click(screen.getByRole('button', { name: 'Details of proxy-101' }));
    const drawer = screen.getByRole('complementary', { name: 'Details of proxy-101' });
    expect(within(drawer).getByText('uid-101')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /Create proxy-101/ })).toBeTruthy();
    expect(await within(drawer).findByText('http://10.0.0.101:3128')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: 'Copy proxy address' })).toBeTruthy();
    fireEvent.keyDown(drawer, { key: 'Escape' });
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  it('says when the inventory failed to load, with the class and the hint', () => {
    useInventory.setState({ error: { kind: 'transient', message: 'The cluster did not answer.', hint: 'Wait and retry.' } });
    render(<ProxiesView />);
    expect(screen.getByRole('alert').textContent).toMatch(/Transient.*The cluster did not answer\..*Wait and retry\./);
  });
});

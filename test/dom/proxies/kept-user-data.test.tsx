/**
 * Issue 23 item 4: Migrate and Recreate do not ask for the user-data of a
 * proxy the app made (VmRow.userDataKept: main keeps what it put into the
 * seed, sealed); for a proxy it has no record of they ask, with the presets
 * there, and the words for an empty text point at presets only where the
 * dialog has them.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NodeRow, VmRow } from '../../../shared/channels/inventory';
import { userDataProblem } from '../../../shared/domain/user-data';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { presets } from '../../../renderer/src/views/create/presets';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList } from '../settings/reports';
import { cluster, giveElementsHeight, vm } from './data';

let stub: StubApi;
const GIB = 1024 ** 3;
const node = (name: string): NodeRow => ({
  node: name,
  status: 'online',
  memBytes: 2 * GIB,
  maxmemBytes: 16 * GIB,
  storages: [{ storage: 'proxy-seeds', content: ['iso'], shared: false, status: 'available' }],
});
function openAction(vms: VmRow[], name: string, action: string): HTMLElement {
  act(() => useInventory.getState().applySnapshot({ revision: 1, clusters: [cluster(vms, { nodes: [node('pve1'), node('pve2')] })] }));
  render(<ProxiesView />);
  fireEvent.click(screen.getByRole('button', { name: `Details of ${name}` }));
  fireEvent.click(within(screen.getByRole('group', { name: 'Actions' })).getByRole('button', { name: action }));
  return screen.getByRole('dialog');
}
const sent = (channel: string) => stub.calls.filter(([c]) => c === channel).map(([, i]) => i);
const started = { ok: true as const, value: { parentId: 'p', taskIds: ['t1'] } };
const made = (vmid: number, patch: Partial<VmRow> = {}) =>
  vm(vmid, { ours: true, template: 'debian-12', machineType: 'small', userDataKept: true, ...patch });

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  stub = createStubApi();
  for (const c of ['tasks.migrate', 'tasks.recreate'] as const) stub.answer(c, () => started);
  useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  useProfiles.setState({ list: profilesList([profile({ id: 'demo', nodes: ['pve1', 'pve2'] })]) });
  useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
});
afterEach(cleanup);

describe('the user-data the app keeps', () => {
  it('Migrate of a proxy the app made, seed on local storage: no editor, the user-data is main’s', async () => {
    const dialog = openAction([made(101)], 'proxy-101', 'Migrate…');
    expect(dialog.querySelector('.cloud-init-editor')).toBeNull();
    expect(within(dialog).getByText(/It uses the user-data it put into that seed itself/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Migrate to pve2' })));
    expect(sent('tasks.migrate')).toEqual([{ clusterId: 'demo', to: 'pve2', targets: [{ vmid: 101, name: 'proxy-101' }] }]);
  });

  it('Migrate of a proxy it has no record of asks, offers the presets, and its empty-text words point at them', async () => {
    const dialog = openAction([vm(102, { owner: 'marked', ours: false })], 'proxy-102', 'Migrate…');
    expect(within(dialog).getByText(/has no record of the user-data of proxy-102/)).toBeTruthy();
    const picker = within(dialog).getByRole('combobox', { name: 'Start from a preset' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toHaveLength(presets.length + 1);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /^Migrate to pve/ })));
    expect(within(dialog).getByText(userDataProblem('', { presetsAbove: true })!)).toBeTruthy();
    fireEvent.change(picker, { target: { value: 'tinyproxy' } });
    const ack = within(dialog).queryAllByRole('checkbox')[0];
    if (ack) fireEvent.click(ack); // an operator-made VM: the warning acknowledged
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /^Migrate to pve/ })));
    expect(sent('tasks.migrate')).toMatchObject([{ targets: [{ vmid: 102, cloudInit: presets[1]!.render(8888, { credentials: true }) }] }]);
  });

  it('Recreate of a proxy the app made uses its kept user-data unless the user gives new', async () => {
    const dialog = openAction([made(103)], 'proxy-103', 'Recreate…');
    expect(dialog.querySelector('.cloud-init-editor')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Recreate proxy-103' })));
    expect(sent('tasks.recreate')).toEqual([{ clusterId: 'demo', targets: [{ vmid: 103, name: 'proxy-103' }] }]);
  });

  it('words without presets never point at "a preset above"', () => {
    expect(userDataProblem('')).not.toMatch(/preset/);
    expect(userDataProblem('', { presetsAbove: true })).toMatch(/a preset above/);
  });
});

describe('issue 23 item 9: Reconfigure says exactly what will change before it runs', () => {
  it('to a machine type: cores and memory before → after, the disk stays (empty keeps it), and no disk is sent', async () => {
    stub.answer('tasks.reconfigure', () => started);
    const machineTypes = { small: { cores: 1, memoryMiB: 1024 }, medium: { cores: 2, memoryMiB: 2048, diskGiB: 8 } };
    useProfiles.setState({ list: profilesList([profile({ id: 'demo', nodes: ['pve1', 'pve2'], machineTypes })]) });
    const dialog = openAction([made(104, { diskBytes: 3 * GIB })], 'proxy-104', 'Reconfigure…');
    const select = within(dialog).getByRole('combobox', { name: 'Machine type' });
    const medium = within(select)
      .getAllByRole('option')
      .find((o) => o.textContent?.startsWith('medium'))!;
    expect(medium.textContent).not.toMatch(/disk/);
    fireEvent.change(select, { target: { value: 'medium' } });
    const changes = within(dialog).getByRole('region', { name: 'What will change' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['CPU: 1 vCPU → 2 vCPU', 'Memory: 1 GiB → 2 GiB', 'Boot disk: 3 GiB (stays)', 'User-data: stays']);
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Boot disk (GiB)' }), { target: { value: '10' } });
    expect(within(changes).getByText('Boot disk: 3 GiB → 10 GiB')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Boot disk (GiB)' }), { target: { value: '' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-104' })));
    expect(sent('tasks.reconfigure')).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 104, name: 'proxy-104' }], machineType: 'medium', reboot: true },
    ]);
  });
});

describe('issue 23 item 13: the operator warning says who made them', () => {
  it('a bulk Stop of operator-made proxies says the operator made them, and counts them', () => {
    act(() =>
      useInventory.getState().applySnapshot({
        revision: 1,
        clusters: [cluster([vm(101, { ours: false }), vm(102, { ours: false }), made(103)], { nodes: [node('pve1'), node('pve2')] })],
      }),
    );
    render(<ProxiesView />);
    for (const n of [101, 102, 103]) fireEvent.click(screen.getByRole('checkbox', { name: `Select proxy-${n}` }));
    const group = screen.getByRole('group', { name: 'Actions on the selection' });
    fireEvent.click(within(group).getByRole('button', { name: /^Stop/ }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toMatch(/not made by this app/);
    expect(
      within(dialog).getByText(
        /^2 of these 3 proxies were made by the proxy operator \(the mark is the operator's\), not by this app: the operator reconciles them/,
      ),
    ).toBeTruthy();
  });
});

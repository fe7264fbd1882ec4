/**
 * Issue 16: the Migrate, Reconfigure, Recreate and Console dialogs: what they offer, what they refuse before
 * anything is sent (a target that is the VM's own node, a disk not larger than today's, user-data cloud-init
 * would ignore), and the request they send.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeRow, VmRow } from '../../../shared/channels/inventory';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { userDataProblem } from '../../../shared/domain/user-data';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList } from '../settings/reports';
import { cluster, giveElementsHeight, vm } from './data';

let stub: StubApi;
const GIB = 1024 ** 3;
const seeds = (shared: boolean) => ({ storage: 'proxy-seeds', content: ['iso'], shared, status: 'available' });
const node = (name: string, patch: Partial<NodeRow> = {}): NodeRow => ({
  node: name,
  status: 'online',
  memBytes: 2 * GIB,
  maxmemBytes: 16 * GIB,
  storages: [seeds(false)],
  ...patch,
});

function show(vms: VmRow[], nodes: NodeRow[] = [node('pve1'), node('pve2')]) {
  act(() => useInventory.getState().applySnapshot({ revision: 1, clusters: [cluster(vms, { nodes })] }));
  render(<ProxiesView />);
}
function openAction(name: string, action: string): HTMLElement {
  fireEvent.click(screen.getByRole('button', { name: `Details of ${name}` }));
  fireEvent.click(within(screen.getByRole('group', { name: 'Actions' })).getByRole('button', { name: action }));
  return screen.getByRole('dialog');
}
function typeUserData(text: string) {
  const content = document.querySelector('.cloud-init-editor')?.shadowRoot?.querySelector('.cm-content');
  const view = EditorView.findFromDOM(content as HTMLElement)!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input' }));
}
const sent = (channel: string) => stub.calls.filter(([c]) => c === channel).map(([, i]) => i);
const started = { ok: true as const, value: { parentId: 'p', taskIds: ['t1'] } };

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  stub = createStubApi();
  for (const c of ['tasks.migrate', 'tasks.reconfigure', 'tasks.recreate'] as const) stub.answer(c, () => started);
  useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  useProfiles.setState({ list: profilesList([profile({ id: 'demo', nodes: ['pve1', 'pve2', 'pve3', 'pve4'] })]) });
  useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
});
afterEach(cleanup);

describe('Migrate', () => {
  it('offers only suitable nodes, never the VM’s own, and says why the others are not offered', () => {
    show([vm(101)], [node('pve1'), node('pve2'), node('pve3', { storages: [] }), node('pve4', { status: 'offline' })]);
    const dialog = openAction('proxy-101', 'Migrate…');
    const options = within(within(dialog).getByRole('combobox', { name: 'Move to node' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['pve2']);
    expect(within(dialog).getByRole('list', { name: 'Nodes not offered' }).textContent).toBe(
      'pve3: It has no ISO storage proxy-seeds for the seed.pve4: It is offline.',
    );
    expect(within(dialog).getByText(/Online: it runs/)).toBeTruthy();
  });

  it('a node without the memory a running VM needs is not offered', () => {
    show([vm(101, { memoryMiB: 4096 })], [node('pve1'), node('pve2', { memBytes: 14 * GIB })]);
    const dialog = openAction('proxy-101', 'Migrate…');
    expect(within(dialog).getByRole('list', { name: 'Nodes not offered' }).textContent).toMatch(/pve2: It has 2\.0 GiB of memory free/);
    expect((within(dialog).getByRole('button', { name: /^Migrate to/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a seed on local storage: the user-data is needed to rebuild the same seed on the target; then one request', async () => {
    show([vm(102, { state: 'stopped', status: 'stopped', address: undefined })]);
    const dialog = openAction('proxy-102', 'Migrate…');
    expect(within(dialog).getByText(/Offline: it is stopped/)).toBeTruthy();
    expect(within(dialog).getByText(/builds the same seed \(same name, same bytes\) on the target/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Migrate to pve1' })));
    expect(within(dialog).getByText(/The user-data is empty/)).toBeTruthy();
    expect(sent('tasks.migrate')).toEqual([]);
    typeUserData('#cloud-config\npackages: [squid]\n');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Migrate to pve1' })));
    expect(sent('tasks.migrate')).toEqual([
      { clusterId: 'demo', to: 'pve1', targets: [{ vmid: 102, name: 'proxy-102', cloudInit: '#cloud-config\npackages: [squid]\n' }] },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(/Started the migrate task of proxy-102/)).toBeTruthy();
  });

  it('a seed on shared storage stays; no user-data is asked', async () => {
    show([vm(101)], [node('pve1', { storages: [seeds(true)] }), node('pve2', { storages: [seeds(true)] })]);
    const dialog = openAction('proxy-101', 'Migrate…');
    expect(within(dialog).getByText(/on shared storage \(proxy-seeds\): it stays where it is/)).toBeTruthy();
    expect(dialog.querySelector('.cloud-init-editor')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Migrate to pve2' })));
    expect(sent('tasks.migrate')).toEqual([{ clusterId: 'demo', to: 'pve2', targets: [{ vmid: 101, name: 'proxy-101' }] }]);
  });

  it('Migrate is off when no other node is online, with why', () => {
    show([vm(101)], [node('pve1'), node('pve2', { status: 'offline' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Details of proxy-101' }));
    const button = within(screen.getByRole('group', { name: 'Actions' })).getByRole('button', { name: 'Migrate…' });
    expect(button.title).toBe('No other node of this cluster profile is online to move it to.');
  });
});

describe('Reconfigure', () => {
  it('refuses a disk not larger than today’s before sending anything; a larger one is sent', async () => {
    show([vm(101, { diskBytes: 8 * GIB })]);
    const dialog = openAction('proxy-101', 'Reconfigure…');
    const disk = within(dialog).getByRole('spinbutton', { name: 'Boot disk (GiB)' });
    fireEvent.change(disk, { target: { value: '8' } });
    expect(within(dialog).getByText("A disk only grows: give more than today's 8 GiB.")).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(sent('tasks.reconfigure')).toEqual([]);
    fireEvent.change(disk, { target: { value: '12' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(sent('tasks.reconfigure')).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 101, name: 'proxy-101' }], diskGiB: 12, reboot: true },
    ]);
  });

  it('asks for at least one change; new user-data goes with a reboot unless unticked', async () => {
    show([vm(101)]);
    const dialog = openAction('proxy-101', 'Reconfigure…');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(within(dialog).getByText(/Change at least one thing/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Replace the cloud-init user-data/ }));
    typeUserData('#cloud-config\nhostname: new\n');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Reboot it/ }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(sent('tasks.reconfigure')).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 101, name: 'proxy-101' }], cloudInit: '#cloud-config\nhostname: new\n', reboot: false },
    ]);
  });

  it('issue 24: moves the proxy to a bridge its node has and a VLAN, refusing a tag outside 1–4094 first', async () => {
    stub.answer('network.bridges', (input) => ({
      ok: true,
      value: {
        node: (input as { node: string }).node,
        bridges: [{ name: 'vmbr1', kind: 'bridge', vlanAware: true, active: true }],
        notes: [],
      },
    }));
    show([vm(101)]);
    const dialog = openAction('proxy-101', 'Reconfigure…');
    await act(async () => fireEvent.click(within(dialog).getByRole('checkbox', { name: /Move to another bridge or VLAN/ })));
    const vlan = within(dialog).getByRole('textbox', { name: 'VLAN tag' });
    fireEvent.change(vlan, { target: { value: '0' } });
    expect(within(dialog).getByText(/outside 1–4094/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(sent('tasks.reconfigure')).toEqual([]);
    fireEvent.change(vlan, { target: { value: '40' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Bridge' }), { target: { value: 'vmbr1' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(sent('tasks.reconfigure')).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 101, name: 'proxy-101' }], network: { bridge: 'vmbr1', vlanTag: 40 }, reboot: true },
    ]);
  });

  it('issue 22: refuses user-data by the one rule main applies too (shared/domain/user-data): no header, broken YAML; nothing sent', async () => {
    show([vm(101)]);
    const dialog = openAction('proxy-101', 'Reconfigure…');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Replace the cloud-init user-data/ }));
    for (const text of ['hello', '#cloud-config\npackages: [squid\n']) {
      typeUserData(text);
      await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
      expect(within(dialog).getByText(userDataProblem(text)!)).toBeTruthy();
    }
    expect(sent('tasks.reconfigure')).toEqual([]);
  });

  it('shows main’s refusal in the dialog, with its class and hint', async () => {
    stub.answer('tasks.reconfigure', () => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'Its disk is 20 GiB today.', hint: 'Pick more.' },
    }));
    show([vm(101)]);
    const dialog = openAction('proxy-101', 'Reconfigure…');
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Boot disk (GiB)' }), { target: { value: '10' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reconfigure proxy-101' })));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Its disk is 20 GiB today\..*Pick more\./);
  });
});

describe('Recreate', () => {
  it('confirms naming the VM, says what it keeps, refuses empty user-data, then sends it', async () => {
    show([vm(101, { template: 'debian-12-proxy', machineType: 'small' })]);
    const dialog = openAction('proxy-101', 'Recreate…');
    expect(dialog.getAttribute('aria-labelledby') && screen.getByRole('dialog', { name: 'Recreate proxy-101?' })).toBeTruthy();
    expect(within(dialog).getByText(/keeps its name, template, machine type and the user-data below; it gets\s+a new UID/)).toBeTruthy();
    expect(within(dialog).getByText('debian-12-proxy')).toBeTruthy();
    typeUserData('');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Recreate proxy-101' })));
    expect(within(dialog).getByText(/The user-data is empty/)).toBeTruthy();
    expect(sent('tasks.recreate')).toEqual([]);
    typeUserData('#cloud-config\n');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Recreate proxy-101' })));
    expect(sent('tasks.recreate')).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 101, name: 'proxy-101', cloudInit: '#cloud-config\n' }] },
    ]);
  });

  it('an operator-made proxy: the template and machine type are picked, and the acknowledgement is sent', async () => {
    show([vm(101, { ours: false })]);
    const dialog = openAction('proxy-101', 'Recreate…');
    typeUserData('#cloud-config\n');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Template' }), { target: { value: 'debian-12-proxy' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Machine type' }), { target: { value: 'small' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Recreate proxy-101' })));
    expect(sent('tasks.recreate')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /operator may undo this change/ }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Recreate proxy-101' })));
    expect(sent('tasks.recreate')).toEqual([
      {
        clusterId: 'demo',
        targets: [{ vmid: 101, name: 'proxy-101', cloudInit: '#cloud-config\n' }],
        template: 'debian-12-proxy',
        machineType: 'small',
        acknowledgeOperatorWarning: true,
      },
    ]);
  });
});

describe('Console', () => {
  it('shows the exact URL main built, copyable, and opens it in the browser', async () => {
    const url = 'https://pve.home.lab:8006/?console=kvm&novnc=1&vmid=101&vmname=proxy-101&node=pve1&resize=off&cmd=';
    stub.answer('console.links', () => ({
      ok: true,
      value: { node: 'pve1', vmid: 101, links: [{ viewer: 'novnc', url, needs: 'VM.Console' }] },
    }));
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    show([vm(101)]);
    const dialog = openAction('proxy-101', 'Console');
    await act(async () => undefined);
    expect(sent('console.links')).toEqual([{ clusterId: 'demo', vmid: 101, name: 'proxy-101' }]);
    expect(within(dialog).getByText(url)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy the noVNC URL' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open noVNC in the browser' }));
    expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });
});

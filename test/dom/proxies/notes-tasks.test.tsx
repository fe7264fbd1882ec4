/**
 * Issue 23 in the Proxies view: tags shown and filtered by, and the drawer's
 * Notes and tags (read, edited below the marks, refused as typed when
 * Proxmox would refuse) and the cluster's own task history with its logs.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VmNotes, VmTaskHistory } from '../../../shared/channels/vm-meta';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { giveElementsHeight, snapshot, vm } from './data';

let stub: StubApi;
const settle = () => act(async () => undefined);
const dataRows = () => within(screen.getByRole('grid', { name: 'Proxies' })).getAllByRole('row').slice(1);
const calls = (channel: string) => stub.calls.filter(([c]) => c === channel).map(([, i]) => i as Record<string, unknown>);

const notes = (over: Partial<VmNotes> = {}): VmNotes => ({
  node: 'pve1',
  vmid: 101,
  notes: 'Exit for the lab.',
  tags: ['lab'],
  proxyTag: true,
  marked: true,
  digest: 'a'.repeat(40),
  ...over,
});
const history: VmTaskHistory = {
  vmid: 101,
  tasks: [
    { upid: 'UPID:pve2:0000A1B2:00000001:67000100:qmstart:101:root@pam:', node: 'pve2', type: 'qmstart', user: 'root@pam', starttime: 1_760_000_100, endtime: 1_760_000_102, status: 'OK' },
    { upid: 'UPID:pve1:0000A1B3:00000001:67000000:qmigrate:101:ops@pve!egress:', node: 'pve1', type: 'qmigrate', user: 'ops@pve!egress', starttime: 1_760_000_000, endtime: 1_760_000_050, status: 'migration aborted' },
  ],
  unread: [{ node: 'pve3', reason: 'the node is offline' }],
  truncated: false,
};

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  stub = createStubApi();
  stub.answer('vm.notes', () => ({ ok: true, value: notes() }));
  stub.answer('vm.setNotes', (input) => {
    const i = input as { notes?: string; tags?: string[] };
    return { ok: true, value: notes({ notes: i.notes ?? '', tags: i.tags ?? [] }) };
  });
  stub.answer('vm.taskHistory', () => ({ ok: true, value: history }));
  stub.answer('vm.taskLog', () => ({ ok: true, value: { lines: [{ n: 1, t: 'starting migration of VM 101 to node pve2' }, { n: 2, t: 'migration aborted' }], total: 2 } }));
  useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
  act(() =>
    useInventory.getState().applySnapshot(snapshot([vm(101, { tags: ['lab', 'proxy_operator'] }), vm(102, { tags: ['eu-west'] }), vm(103, { tags: [] })])),
  );
});
afterEach(cleanup);

async function openDrawer() {
  render(<ProxiesView />);
  fireEvent.click(screen.getByRole('button', { name: 'Details of proxy-101' }));
  await settle();
  return screen.getByRole('complementary', { name: 'Details of proxy-101' });
}

describe('tags in the Proxies table', () => {
  it('filters by tag, offering the tags the rows have, and finds a tag by search too', () => {
    render(<ProxiesView />);
    const tag = screen.getByRole('combobox', { name: 'Tag' });
    expect(within(tag).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'eu-west', 'lab', 'proxy_operator']);
    fireEvent.change(tag, { target: { value: 'lab' } });
    expect(screen.getByLabelText('Rows shown').textContent).toBe('1 of 3 VMs');
    expect(dataRows()[0]!.textContent).toContain('proxy-101');
    fireEvent.change(tag, { target: { value: '' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search proxies' }), { target: { value: 'eu-west' } });
    expect(screen.getByLabelText('Rows shown').textContent).toBe('1 of 3 VMs');
  });
});

describe('the drawer: Notes and tags', () => {
  it('shows the notes and tags Proxmox keeps, read now', async () => {
    const drawer = await openDrawer();
    const section = within(drawer).getByRole('region', { name: 'Notes and tags' });
    expect(section.textContent).toContain('Exit for the lab.');
    expect(within(section).getByRole('list', { name: 'Tags' }).textContent).toContain('lab');
    expect(section.textContent).toContain('proxy_operator');
    expect(calls('vm.notes')[0]).toEqual({ clusterId: 'demo', vmid: 101, name: 'proxy-101' });
  });

  it('edits notes and tags: a tag Proxmox refuses is said as typed and Save waits; a save sends the digest it read', async () => {
    const drawer = await openDrawer();
    const section = within(drawer).getByRole('region', { name: 'Notes and tags' });
    fireEvent.click(within(section).getByRole('button', { name: 'Edit notes and tags' }));
    fireEvent.change(within(section).getByLabelText('Notes'), { target: { value: 'Exit for the lab.\nAsk Kim.' } });
    const tags = within(section).getByLabelText('Tags');
    fireEvent.change(tags, { target: { value: 'lab, bad tag!' } });
    expect(tags.getAttribute('aria-invalid')).toBe('true');
    expect(section.textContent).toContain('"tag!" is not a Proxmox tag');
    expect(within(section).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(tags, { target: { value: 'lab, eu-west' } });
    await act(async () => fireEvent.click(within(section).getByRole('button', { name: 'Save' })));
    expect(calls('vm.setNotes')[0]).toEqual({
      clusterId: 'demo',
      vmid: 101,
      name: 'proxy-101',
      notes: 'Exit for the lab.\nAsk Kim.',
      tags: ['lab', 'eu-west'],
      digest: 'a'.repeat(40),
    });
    expect(section.textContent).toContain('Ask Kim.');
    expect(within(section).queryByLabelText('Notes')).toBeNull();
  });

  it('says a line that reads as a mark cannot be in the notes', async () => {
    const drawer = await openDrawer();
    const section = within(drawer).getByRole('region', { name: 'Notes and tags' });
    fireEvent.click(within(section).getByRole('button', { name: 'Edit notes and tags' }));
    fireEvent.change(within(section).getByLabelText('Notes'), { target: { value: 'proxy-operator-uid=x' } });
    expect(within(section).getByLabelText('Notes').getAttribute('aria-invalid')).toBe('true');
    expect(within(section).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });
});

describe("the drawer: the cluster's task history", () => {
  it('lists every Proxmox task of the VM, whoever started it, and says which nodes were not read', async () => {
    const drawer = await openDrawer();
    const section = within(drawer).getByRole('region', { name: 'Proxmox task history' });
    const rows = within(within(section).getByRole('list', { name: 'Proxmox tasks' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/qmstart.*OK.*pve2.*root@pam/),
      expect.stringMatching(/qmigrate.*migration aborted.*pve1.*ops@pve!egress/),
    ]);
    expect(section.textContent).toContain('pve3 was not read: the node is offline');
    expect(calls('vm.taskHistory')[0]).toMatchObject({ clusterId: 'demo', vmid: 101, name: 'proxy-101' });
  });

  it("opens a task's log", async () => {
    const drawer = await openDrawer();
    const section = within(drawer).getByRole('region', { name: 'Proxmox task history' });
    await act(async () => fireEvent.click(within(section).getAllByRole('button', { name: /Show the log/ })[1]!));
    expect(within(section).getByLabelText(/Log of qmigrate/).textContent).toContain('starting migration of VM 101 to node pve2');
    expect(calls('vm.taskLog')[0]).toMatchObject({ clusterId: 'demo', vmid: 101, upid: history.tasks[1]!.upid });
  });
});

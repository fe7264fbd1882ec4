/**
 * Issue 25 in the drawer: the Snapshots section as a user sees it — the app's own told from an admin's by a badge,
 * the current state's parent marked, the words when a disk cannot snapshot, "No snapshots", a classified error,
 * an admin's description shown as text, and a read only when shown and on Refresh (never polled).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VmSnapshots } from '../../../shared/channels/vm-meta';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { giveElementsHeight, snapshot, vm } from './data';

let stub: StubApi;
const settle = () => act(async () => undefined);
const calls = (channel: string) => stub.calls.filter(([c]) => c === channel).map(([, i]) => i as Record<string, unknown>);

const listing = (over: Partial<VmSnapshots> = {}): VmSnapshots => ({
  node: 'pve1',
  vmid: 101,
  supported: true,
  snapshots: [
    { name: 'before-apt-upgrade', time: '2026-11-28T09:12:00.000Z', description: '<b>by hand</b>', ours: false, vmstate: true },
    {
      name: 'egressdesk-20261201-101500-reconfigure',
      time: '2026-12-01T10:15:00.000Z',
      description: 'Taken by Egress Desk before a reconfigure',
      ours: true,
      parent: 'before-apt-upgrade',
      vmstate: false,
    },
  ],
  current: 'egressdesk-20261201-101500-reconfigure',
  ...over,
});
let answer: () => unknown;

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  stub = createStubApi();
  answer = () => ({ ok: true, value: listing() });
  stub.answer('vm.snapshots', () => answer() as never);
  useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
  act(() => useInventory.getState().applySnapshot(snapshot([vm(101)])));
});
afterEach(cleanup);

async function openSection() {
  render(<ProxiesView />);
  expect(calls('vm.snapshots')).toEqual([]);
  fireEvent.click(screen.getByRole('button', { name: 'Details of proxy-101' }));
  await settle();
  const drawer = screen.getByRole('complementary', { name: 'Details of proxy-101' });
  return within(drawer).getByRole('region', { name: 'Snapshots' });
}

describe('the drawer: Snapshots', () => {
  it("lists the app's and others' snapshots, the app's with its badge, the current one marked, descriptions as text", async () => {
    const section = await openSection();
    expect(calls('vm.snapshots')).toEqual([{ clusterId: 'demo', vmid: 101, name: 'proxy-101' }]);
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'before-apt-upgrade with RAM',
      'egressdesk-20261201-101500-reconfigure' + 'Egress Desk’s' + 'current',
    ]);
    expect(rows[0]!.textContent).not.toContain('Egress Desk’s');
    expect(rows[1]!.getAttribute('aria-current')).toBe('true');
    expect(rows[0]!.getAttribute('aria-current')).toBeNull();
    // An admin's text is never markup.
    expect(rows[0]!.textContent).toContain('<b>by hand</b>');
    expect(section.querySelector('b')).toBeNull();
    expect(section.textContent).not.toContain('cannot be snapshotted');
  });

  it('says which disk cannot snapshot, and "No snapshots" when there are none', async () => {
    answer = () => ({
      ok: true,
      value: listing({
        supported: false,
        why: "VM 101 cannot be snapshotted: scsi0 is a raw volume on directory storage 'vmdir': Proxmox snapshots only qcow2 volumes there.",
        snapshots: [],
        current: undefined,
      }),
    });
    const section = await openSection();
    expect(within(section).getByRole('note').textContent).toContain("scsi0 is a raw volume on directory storage 'vmdir'");
    expect(section.textContent).toContain('No snapshots.');
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('shows a classified error with what to do, and reads again on Refresh only', async () => {
    answer = () => ({
      ok: false,
      error: {
        kind: 'permanent',
        message: 'this token cannot do that: it needs VM.Audit on /vms/101',
        hint: 'Grant VM.Audit on /vms/101.',
      },
    });
    const section = await openSection();
    expect(section.textContent).toContain('The snapshots could not be read');
    expect(section.textContent).toContain('VM.Audit');
    answer = () => ({ ok: true, value: listing() });
    await act(async () => fireEvent.click(within(section).getByRole('button', { name: 'Refresh the snapshots' })));
    expect(calls('vm.snapshots')).toHaveLength(2);
    expect(section.textContent).not.toContain('could not be read');
    expect(within(section).getAllByRole('row')).toHaveLength(3);
  });

  it('says it is reading while the first answer is on its way', async () => {
    let release: (v: unknown) => void = () => undefined;
    answer = () => new Promise((r) => (release = r));
    const section = await openSection();
    expect(section.textContent).toContain('Reading the snapshots from Proxmox…');
    expect(within(section).getByRole('button', { name: 'Refresh the snapshots' }).hasAttribute('disabled')).toBe(true);
    await act(async () => release({ ok: true, value: listing({ snapshots: [], current: undefined }) }));
    expect(section.textContent).toContain('No snapshots.');
    expect(section.textContent).not.toContain('Reading');
  });
});

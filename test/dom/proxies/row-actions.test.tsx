/**
 * Issue 16: the row actions as a user meets them: the drawer's action bar, the toolbar on the selection, the
 * shortcuts, the confirmations naming the VMs, the operator acknowledgement, and what is sent.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../shared/channels/inventory';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList } from '../settings/reports';
import { cluster, giveElementsHeight, vm } from './data';

let stub: StubApi;

function show(vms: VmRow[]) {
  act(() => useInventory.getState().applySnapshot({ revision: 1, clusters: [cluster(vms)] }));
  render(<ProxiesView />);
}
const openDrawer = (name: string) => {
  fireEvent.click(screen.getByRole('button', { name: `Details of ${name}` }));
  return within(screen.getByRole('group', { name: 'Actions' }));
};
const select = (...names: string[]) => names.forEach((n) => fireEvent.click(screen.getByRole('checkbox', { name: `Select ${n}` })));
const toolbar = () => within(screen.getByRole('group', { name: 'Actions on the selection' }));
const powerCalls = () => stub.calls.filter(([c]) => c === 'tasks.power').map(([, i]) => i);
/** A disabled action's reason, as a screen reader hears it (aria-describedby) and a mouse sees it (title). */
function why(button: HTMLElement): string | undefined {
  const id = button.getAttribute('aria-describedby');
  const described = id ? document.getElementById(id)?.textContent : undefined;
  expect(button.title).toBe(described);
  return described ?? undefined;
}

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  stub = createStubApi();
  stub.answer('tasks.power', (input) => ({
    ok: true,
    value: { taskIds: (input as { targets: unknown[] }).targets.map((_, i) => `t${i}`) },
  }));
  useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  useProfiles.setState({ list: profilesList([profile({ id: 'demo', nodes: ['pve1', 'pve2'] })]) });
  useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
});
afterEach(cleanup);

describe('the drawer’s action bar', () => {
  it('offers every action; one that does not apply says why, to the mouse and to a screen reader', () => {
    show([vm(101)]);
    const bar = openDrawer('proxy-101');
    const names = bar.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['Start', 'Shut down', 'Stop', 'Reboot', 'Console', 'Migrate…', 'Reconfigure…', 'Recreate…', 'Delete…']);
    const start = bar.getByRole('button', { name: 'Start' });
    expect(start.getAttribute('aria-disabled')).toBe('true');
    expect(why(start)).toBe('It is already running.');
    expect(bar.getByRole('button', { name: 'Reboot' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('a stopped proxy: Start runs at once, with no question, and says which task started', async () => {
    show([vm(102, { state: 'stopped', status: 'stopped', address: undefined })]);
    const bar = openDrawer('proxy-102');
    expect(why(bar.getByRole('button', { name: 'Reboot' }))).toBe('It is not running: start it instead.');
    await act(async () => fireEvent.click(bar.getByRole('button', { name: 'Start' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(powerCalls()).toEqual([{ clusterId: 'demo', targets: [{ vmid: 102, name: 'proxy-102' }], action: 'start' }]);
    expect(screen.getByText('Started the start task of proxy-102.')).toBeTruthy();
  });

  it('a foreign VM gets the console only (read-only), and says so', () => {
    show([vm(103, { owner: 'foreign', uid: undefined, ours: undefined })]);
    const bar = openDrawer('proxy-103');
    expect(bar.getAllByRole('button').map((b) => b.textContent)).toEqual(['Console']);
    expect(screen.getByText(/only opens its console \(read-only\)/)).toBeTruthy();
  });

  it('a locked VM: every changing action says which lock holds it', () => {
    show([vm(104, { state: 'locked', lock: 'backup' })]);
    const bar = openDrawer('proxy-104');
    for (const name of ['Shut down', 'Stop', 'Migrate…', 'Delete…'])
      expect(why(bar.getByRole('button', { name }))).toMatch(/locked \(backup\)/);
  });

  it('Stop confirms naming the VM; an operator-made one needs the acknowledgement ticked before it can go', async () => {
    show([vm(105, { ours: false })]);
    fireEvent.click(openDrawer('proxy-105').getByRole('button', { name: 'Stop' }));
    const dialog = screen.getByRole('dialog', { name: 'Stop proxy-105?' });
    expect(within(dialog).getByText(/VM 105 on pve1/)).toBeTruthy();
    const go = within(dialog).getByRole('button', { name: 'Stop proxy-105' }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /operator may undo this change/ }));
    expect(go.disabled).toBe(false);
    await act(async () => fireEvent.click(go));
    expect(powerCalls()).toEqual([
      { clusterId: 'demo', targets: [{ vmid: 105, name: 'proxy-105' }], action: 'stop', acknowledgeOperatorWarning: true },
    ]);
  });

  it('Shut down of our own proxy asks nothing; Reboot asks first', async () => {
    show([vm(106)]);
    const bar = openDrawer('proxy-106');
    await act(async () => fireEvent.click(bar.getByRole('button', { name: 'Shut down' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(powerCalls()).toHaveLength(1);
    fireEvent.click(bar.getByRole('button', { name: 'Reboot' }));
    expect(screen.getByRole('dialog', { name: 'Reboot proxy-106?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(powerCalls()).toHaveLength(1);
  });
});

describe('the toolbar on the selection', () => {
  it('with nothing selected, every action is off and says to select first', () => {
    show([vm(101)]);
    const start = toolbar().getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(start.title).toBe('Select one or more proxies first.');
  });

  it('Reboot in bulk: the confirmation names the VMs it reboots and the one it leaves out, with why; one request for all', async () => {
    show([vm(101), vm(102), vm(103, { state: 'stopped', status: 'stopped', address: undefined })]);
    select('proxy-101', 'proxy-102', 'proxy-103');
    fireEvent.click(toolbar().getByRole('button', { name: 'Reboot' }));
    const dialog = screen.getByRole('dialog', { name: 'Reboot 2 proxies?' });
    expect(
      within(within(dialog).getByRole('list', { name: 'The proxies it acts on' }))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual([expect.stringContaining('proxy-101'), expect.stringContaining('proxy-102')]);
    expect(within(dialog).getByRole('list', { name: 'Left out' }).textContent).toBe('proxy-103: It is not running: start it instead.');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reboot 2 proxies' })));
    expect(powerCalls()).toEqual([
      {
        clusterId: 'demo',
        targets: [
          { vmid: 101, name: 'proxy-101' },
          { vmid: 102, name: 'proxy-102' },
        ],
        action: 'reboot',
      },
    ]);
    expect(screen.getByText(/Started 2 reboot tasks/)).toBeTruthy();
  });

  it('an action that applies to none of the selection is off, with the reason they share', () => {
    show([vm(101), vm(102)]);
    select('proxy-101', 'proxy-102');
    const start = toolbar().getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(start.title).toBe('It is already running.');
    expect((toolbar().getByRole('button', { name: 'Console' }) as HTMLButtonElement).title).toMatch(/one VM at a time/);
  });
});

describe('keyboard shortcuts', () => {
  it('Shift+R asks to reboot the selection; Shift+S starts the row with focus; Delete still deletes', async () => {
    show([vm(101), vm(102, { state: 'stopped', status: 'stopped', address: undefined })]);
    select('proxy-101');
    fireEvent.keyDown(window, { key: 'R', shiftKey: true });
    expect(screen.getByRole('dialog', { name: 'Reboot proxy-101?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    select('proxy-101');
    const row = screen.getByRole('button', { name: 'Details of proxy-102' }).closest('[role="row"]') as HTMLElement;
    row.focus();
    await act(async () => fireEvent.keyDown(row, { key: 'S', shiftKey: true }));
    expect(powerCalls()).toEqual([{ clusterId: 'demo', targets: [{ vmid: 102, name: 'proxy-102' }], action: 'start' }]);
    select('proxy-101');
    fireEvent.keyDown(window, { key: 'Delete' });
    expect(screen.getByRole('dialog', { name: 'Delete 1 proxy?' })).toBeTruthy();
  });

  it('a shortcut typed in the search box is text, not an action', () => {
    show([vm(101)]);
    select('proxy-101');
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search proxies' }), { key: 'R', shiftKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a row’s Actions menu', () => {
  const openMenu = (name: string) => {
    fireEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
    return screen.getByRole('menu', { name: `Actions for ${name}` });
  };

  it('lists every action; a disabled one stays focusable and shows its reason as text', () => {
    show([vm(101)]);
    const m = openMenu('proxy-101');
    const items = within(m).getAllByRole('menuitem');
    expect(items.map((i) => i.querySelector('.action-menu-label')?.textContent)).toEqual([
      'Start',
      'Shut down',
      'Stop',
      'Reboot',
      'Console',
      'Migrate…',
      'Reconfigure…',
      'Recreate…',
      'Delete…',
    ]);
    expect(document.activeElement).toBe(items[0]);
    // Its reason is visible, in its name as read out, and its tooltip.
    expect(items[0]!.getAttribute('aria-disabled')).toBe('true');
    expect(within(m).getByRole('menuitem', { name: 'Start It is already running.' })).toBe(items[0]);
    expect(items[0]!.title).toBe('It is already running.');
    expect(within(m).getByRole('menuitem', { name: 'Stop' }).getAttribute('aria-disabled')).toBeNull();
    // Opening it does not open the drawer (the row's own click).
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  it('arrows move, Enter on a disabled item does nothing, Escape closes and gives focus back to the button', () => {
    show([vm(101)]);
    const button = screen.getByRole('button', { name: 'Actions for proxy-101' });
    const m = openMenu('proxy-101');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(m, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Delete…');
    fireEvent.keyDown(m, { key: 'Home' });
    fireEvent.click(document.activeElement!);
    expect(screen.getByRole('menu')).toBeTruthy();
    expect(powerCalls()).toEqual([]);
    fireEvent.keyDown(m, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('an item opens its dialog for that row: Delete… names it', () => {
    show([vm(101), vm(102)]);
    const m = openMenu('proxy-102');
    fireEvent.click(within(m).getByRole('menuitem', { name: 'Delete…' }));
    expect(screen.queryByRole('menu')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 proxy?' });
    expect(within(dialog).getByText('proxy-102')).toBeTruthy();
    expect(within(dialog).queryByText('proxy-101')).toBeNull();
  });

  it('a foreign VM’s menu offers the console only; the rest say why', () => {
    show([vm(103, { owner: 'foreign', uid: undefined, ours: undefined })]);
    const m = openMenu('proxy-103');
    const enabled = within(m)
      .getAllByRole('menuitem')
      .filter((i) => i.getAttribute('aria-disabled') !== 'true')
      .map((i) => i.textContent);
    expect(enabled).toEqual(['Console']);
    expect(
      within(m)
        .getByRole('menuitem', { name: /^Stop This VM carries no proxy mark/ })
        .getAttribute('aria-disabled'),
    ).toBe('true');
  });
});

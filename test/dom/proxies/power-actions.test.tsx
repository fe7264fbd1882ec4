/** Issue 16: the drawer's power actions: enabled by the VM's state, why not in the title, confirms naming the VM, none for a foreign VM. */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../shared/channels/inventory';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { vm } from './data';

const rowOf = (v: VmRow): ProxyRow => ({ ...v, key: `${v.clusterId}/${v.vmid}`, clusterName: 'Demo cluster', haystack: '' });

function bar() {
  return screen.getByRole('group', { name: 'Power actions' });
}
function button(name: string) {
  return within(bar()).getByRole('button', { name }) as HTMLButtonElement;
}
const states = () =>
  Object.fromEntries(['Start', 'Shut down', 'Stop', 'Reboot'].map((n) => [n, button(n).disabled ? `off: ${button(n).title}` : 'on']));

describe('the drawer’s power actions', () => {
  let stub: StubApi;
  beforeEach(() => {
    stub = createStubApi();
    useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
  });
  afterEach(cleanup);

  it('a running proxy: Start is off (already running), the others on', () => {
    render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />);
    expect(states()).toEqual({ Start: 'off: It is already running.', 'Shut down': 'on', Stop: 'on', Reboot: 'on' });
    expect(screen.queryByText(/operator may undo/)).toBeNull();
  });

  it('a stopped proxy: only Start is on; Reboot says to start it instead', () => {
    render(<ProxyDrawer row={rowOf(vm(102, { state: 'stopped', status: 'stopped', address: undefined }))} onClose={() => undefined} />);
    expect(states()).toEqual({
      Start: 'on',
      'Shut down': 'off: It is already stopped.',
      Stop: 'off: It is already stopped.',
      Reboot: 'off: It is not running: start it instead.',
    });
  });

  it('a running proxy still waiting for its address (provisioning) can be stopped; a locked one cannot be touched', () => {
    const { unmount } = render(
      <ProxyDrawer row={rowOf(vm(103, { state: 'provisioning', address: undefined }))} onClose={() => undefined} />,
    );
    expect(button('Stop').disabled).toBe(false);
    unmount();
    render(<ProxyDrawer row={rowOf(vm(104, { state: 'locked', lock: 'backup' }))} onClose={() => undefined} />);
    for (const n of ['Start', 'Shut down', 'Stop', 'Reboot']) {
      expect(button(n).disabled).toBe(true);
      expect(button(n).title).toMatch(/locked \(backup\)/);
    }
  });

  it('a foreign VM gets no power actions', () => {
    render(<ProxyDrawer row={rowOf(vm(105, { owner: 'foreign', uid: undefined, ours: undefined }))} onClose={() => undefined} />);
    expect(screen.queryByRole('group', { name: 'Power actions' })).toBeNull();
  });

  it('Start asks nothing and starts one task', async () => {
    stub.answer('tasks.power', () => ({ ok: true, value: { taskIds: ['t1'] } }));
    render(<ProxyDrawer row={rowOf(vm(106, { state: 'stopped', status: 'stopped' }))} onClose={() => undefined} />);
    await act(async () => fireEvent.click(button('Start')));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stub.calls.find(([c]) => c === 'tasks.power')?.[1]).toEqual({
      clusterId: 'demo',
      targets: [{ vmid: 106, name: 'proxy-106' }],
      action: 'start',
    });
    expect(screen.getByText(/Start of proxy-106 started as a task/)).toBeTruthy();
  });

  it('Stop confirms naming the VM, and warns that an operator may undo the change on an operator-made VM', async () => {
    stub.answer('tasks.power', () => ({ ok: true, value: { taskIds: ['t1'] } }));
    render(<ProxyDrawer row={rowOf(vm(107, { ours: false }))} onClose={() => undefined} />);
    expect(screen.getByText(/operator may undo the change/)).toBeTruthy();
    fireEvent.click(button('Stop'));
    const dialog = screen.getByRole('dialog', { name: 'Stop proxy-107?' });
    expect(within(dialog).getByText('proxy-107')).toBeTruthy();
    expect(within(dialog).getByText(/operator may undo the change/)).toBeTruthy();
    expect(stub.calls.some(([c]) => c === 'tasks.power')).toBe(false);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Stop proxy-107' })));
    expect(stub.calls.find(([c]) => c === 'tasks.power')?.[1]).toMatchObject({
      action: 'stop',
      targets: [{ vmid: 107, name: 'proxy-107' }],
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Reboot confirms too; Cancel sends nothing', () => {
    render(<ProxyDrawer row={rowOf(vm(108))} onClose={() => undefined} />);
    fireEvent.click(button('Reboot'));
    const dialog = screen.getByRole('dialog', { name: 'Reboot proxy-108?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stub.calls.some(([c]) => c === 'tasks.power')).toBe(false);
  });

  it('shows main’s refusal with its message', async () => {
    stub.answer('tasks.power', () => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'VM 109 is named other, not proxy-109. Nothing was shut down.', hint: 'Refresh.' },
    }));
    render(<ProxyDrawer row={rowOf(vm(109))} onClose={() => undefined} />);
    await act(async () => fireEvent.click(button('Shut down')));
    expect(screen.getByText(/Nothing was shut down/)).toBeTruthy();
  });
});

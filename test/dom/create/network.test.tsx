/**
 * Issue 24 in the Create dialog: the bridge list is what main read of the node (vnets and the profile's default
 * included), a bad VLAN or gateway gets the shared rule's words at its field and nothing is sent, and a good choice
 * goes out as the request's network.
 */
import { act, cleanup, fireEvent, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateProxiesInput } from '../../../shared/channels/tasks';
import { field, openDialog, sent, setUp, stub } from './fixtures';

const bridges = (node: string) => ({
  ok: true as const,
  value: {
    node,
    bridges: [
      { name: 'egress2', kind: 'vnet' as const, vlanAware: false, active: true, comment: 'VPN uplink' },
      { name: 'vmbr0', kind: 'bridge' as const, vlanAware: true, active: true },
      ...(node === 'pve1' ? [{ name: 'vmbr9', kind: 'bridge' as const, vlanAware: false, active: true }] : []),
    ],
    profileBridge: 'vmbr0',
    notes: [],
  },
});

beforeEach(() => {
  setUp();
  stub.answer('network.bridges', (input) => bridges((input as { node: string }).node));
});
afterEach(cleanup);

const input = (dialog: HTMLElement, name: string) => within(dialog).getByRole('textbox', { name }) as HTMLInputElement;

describe('Create proxy: the network', () => {
  it('offers the bridges every node Automatic may pick has, then those of the chosen node', async () => {
    const dialog = await openDialog();
    const options = () => [...(field(dialog, 'Bridge') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options()).toEqual(['Profile default (vmbr0)', 'egress2 (SDN vnet, VPN uplink)', 'vmbr0 (VLAN-aware)']);
    await act(async () => fireEvent.change(field(dialog, 'Node'), { target: { value: 'pve1' } }));
    expect(options()).toContain('vmbr9');
  });

  it('says what is wrong with a VLAN or a gateway at the field, and sends nothing', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['t-new'] } }));
    const dialog = await openDialog();
    await act(async () => fireEvent.change(input(dialog, 'VLAN tag'), { target: { value: '5000' } }));
    expect(within(dialog).getByText(/outside 1–4094/)).toBeTruthy();
    expect(input(dialog, 'VLAN tag').getAttribute('aria-invalid')).toBe('true');
    await act(async () => fireEvent.change(input(dialog, 'VLAN tag'), { target: { value: '20' } }));
    await act(async () => fireEvent.change(field(dialog, 'Addresses'), { target: { value: 'static' } }));
    await act(async () => fireEvent.change(input(dialog, 'IPv4 address'), { target: { value: '10.1.2.3/24' } }));
    await act(async () => fireEvent.change(input(dialog, 'IPv4 gateway'), { target: { value: '10.9.9.1' } }));
    expect(within(dialog).getByText(/outside the subnet of 10.1.2.3\/24/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toEqual([]);
  });

  it('sends the chosen bridge, VLAN and static address as the request’s network', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['t-new'] } }));
    const dialog = await openDialog();
    await act(async () => fireEvent.change(field(dialog, 'Bridge'), { target: { value: 'egress2' } }));
    await act(async () => fireEvent.change(input(dialog, 'VLAN tag'), { target: { value: '20' } }));
    await act(async () => fireEvent.change(field(dialog, 'Addresses'), { target: { value: 'static' } }));
    await act(async () => fireEvent.change(input(dialog, 'IPv4 address'), { target: { value: '10.1.2.3/24' } }));
    await act(async () => fireEvent.change(input(dialog, 'IPv4 gateway'), { target: { value: '10.1.2.1' } }));
    await act(async () => fireEvent.change(input(dialog, 'Name servers'), { target: { value: '10.1.2.1, 9.9.9.9' } }));
    expect(within(dialog).getByText(/egress2, VLAN 20, 10.1.2.3\/24/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(CreateProxiesInput.parse(sent()[0]).network).toEqual({
      bridge: 'egress2',
      vlanTag: 20,
      ipv4: { address: '10.1.2.3/24', gateway: '10.1.2.1' },
      dns: ['10.1.2.1', '9.9.9.9'],
    });
  });
});

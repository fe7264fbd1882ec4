import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClusterInventory } from '../../../shared/channels/inventory';
import { useHealth } from '../../../renderer/src/stores/health';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { NodesView } from '../../../renderer/src/views/nodes/NodesView';

const cluster: ClusterInventory = {
  clusterId: 'home',
  name: 'homelab',
  status: { state: 'ok', failures: 0, intervalMs: 5000 },
  nodes: [
    {
      node: 'pv1-1',
      status: 'online',
      cpu: 0.5,
      maxcpu: 8,
      memBytes: 15 * 2 ** 30,
      maxmemBytes: 16 * 2 ** 30,
      uptimeSeconds: 90_000,
      storages: [
        { storage: 'proxy-seeds', status: 'available', content: ['iso'], shared: false, usedBytes: 2 ** 30, totalBytes: 4 * 2 ** 30 },
      ],
    },
    { node: 'pv1-2', status: 'offline', storages: [] },
  ],
  vms: [
    {
      clusterId: 'home',
      vmid: 150001,
      node: 'pv1-1',
      name: 'proxy-a',
      state: 'running',
      status: 'running',
      address: '192.168.0.101',
      owner: 'marked',
      tags: [],
    },
    {
      clusterId: 'home',
      vmid: 150009,
      node: 'pv1-1',
      name: 'proxy-lookalike',
      state: 'stopped',
      status: 'stopped',
      owner: 'foreign',
      tags: [],
    },
    { clusterId: 'home', vmid: 150002, node: 'pv1-2', name: 'proxy-b', state: 'unknown', status: 'unknown', owner: 'marked', tags: [] },
  ],
};

beforeEach(() => {
  useInventory.setState({ clusters: [cluster], loaded: true, error: undefined });
  useHealth.setState({ clusters: {}, error: undefined });
});
afterEach(cleanup);

describe('Nodes', () => {
  it('lists each node with status, load, memory, uptime, storages and proxy count', () => {
    render(<NodesView />);
    const row = screen.getByRole('row', { name: /pv1-1/ });
    expect(row.textContent).toContain('online');
    expect(row.textContent).toContain('1 d 1 h');
    expect(row.textContent).toContain('proxy-seeds');
    expect(within(row).getByRole('meter', { name: 'Memory of pv1-1' }).className).toContain('health-bad');
    expect(within(row).getByRole('meter', { name: 'CPU of pv1-1' }).getAttribute('aria-valuenow')).toBe('50');
    expect(within(row).getAllByRole('cell').at(-1)?.textContent).toBe('1');
    expect(screen.getByRole('row', { name: /pv1-2/ }).textContent).toContain('offline');
  });

  it("drills into a node: its proxies (foreign ones marked as such) and its storages' usage", () => {
    render(<NodesView />);
    fireEvent.click(screen.getByRole('button', { name: 'pv1-1' }));
    const proxies = screen.getByRole('table', { name: 'Proxies on pv1-1' });
    expect(within(proxies).getByRole('row', { name: /proxy-a/ }).textContent).toContain('192.168.0.101');
    expect(within(proxies).getByRole('row', { name: /proxy-lookalike/ }).textContent).toContain('Not ours');
    expect(within(proxies).queryByText('proxy-b')).toBeNull();
    expect(screen.getByRole('meter', { name: 'Space used on proxy-seeds' }).getAttribute('aria-valuenow')).toBe('25');
    fireEvent.click(screen.getByRole('button', { name: '← All nodes' }));
    expect(screen.getByRole('table', { name: 'Nodes' })).toBeTruthy();
  });

  it('shows a failed listing with its class and a retry', () => {
    useInventory.setState({ loaded: false, error: { kind: 'permanent', message: 'token refused', hint: 'Check the token.' } });
    render(<NodesView />);
    expect(screen.getByRole('alert').textContent).toContain('Permanent');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

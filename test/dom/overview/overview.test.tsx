import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeHealth } from '../../../shared/channels/health';
import type { ClusterInventory, VmRow } from '../../../shared/channels/inventory';
import { useHealth } from '../../../renderer/src/stores/health';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useUi } from '../../../renderer/src/stores/ui';
import { OverviewView } from '../../../renderer/src/views/overview/OverviewView';
import { profile, profilesList } from '../settings/reports';

const now = () => new Date().toISOString();

function health(node: string, ready: boolean): NodeHealth {
  return {
    node,
    ready,
    reason: ready ? 'Reachable' : 'Unreachable',
    message: ready ? '' : `GET /nodes/${node}/status failed`,
    hint: ready ? 'Nothing to do.' : 'Check that the node is powered on.',
    latencyMs: 20,
    details: { pveVersion: '9.2.20', kernel: '7.0.14-pve', isoStorage: 'proxy-seeds', isoStorageAvailGiB: '20.0', templates: '2/3' },
    checkedAt: now(),
    nextCheckAt: now(),
    cpu: 0.1,
    maxcpu: 16,
    memBytes: 4 * 2 ** 30,
    maxmemBytes: 16 * 2 ** 30,
  };
}

const point = (h: NodeHealth) => ({ at: h.checkedAt, ready: h.ready, reason: h.reason, latencyMs: h.latencyMs });

function vm(vmid: number, state: VmRow['state'], owner: VmRow['owner'] = 'marked'): VmRow {
  return { clusterId: 'home', vmid, node: 'pv1-1', state, status: state, owner, tags: [] };
}

const inventory: ClusterInventory = {
  clusterId: 'home',
  name: 'homelab',
  status: { state: 'ok', failures: 0, intervalMs: 5000 },
  nodes: [],
  vms: [vm(1, 'running'), vm(2, 'running'), vm(3, 'stopped'), vm(4, 'running', 'foreign')],
};

beforeEach(() => {
  useProfiles.setState({ list: profilesList([profile()]), error: undefined });
  useHealth.setState({ clusters: {}, loaded: false, error: undefined });
  useInventory.setState({ clusters: [inventory], loaded: true, error: undefined });
  useUi.setState({ view: 'overview', proxiesFilter: undefined, nodeRequest: undefined });
  useSettings.setState({ connectWizardRequested: false });
});
afterEach(cleanup);

describe('Overview', () => {
  it('makes a degraded cluster obvious: red banner and card, the reason in words, the fix', () => {
    const down = health('pv1-2', false);
    useHealth.getState().applySnapshot({
      clusters: [
        {
          clusterId: 'home',
          nodes: [
            { node: 'pv1-1', latest: health('pv1-1', true), history: [] },
            { node: 'pv1-2', latest: down, history: [point(down)] },
          ],
        },
      ],
    });
    render(<OverviewView />);
    expect(screen.getByRole('status', { name: 'Health of homelab' }).textContent).toBe('Degraded: 1 of 2 nodes need attention');
    const bad = screen.getByRole('article', { name: 'Node pv1-2' });
    expect(bad.className).toContain('level-bad');
    expect(bad.textContent).toContain('Unreachable');
    expect(bad.textContent).toContain('GET /nodes/pv1-2/status failed');
    expect(bad.textContent).toContain('What to do: Check that the node is powered on.');
    const good = screen.getByRole('article', { name: 'Node pv1-1' });
    expect(good.className).toContain('level-ok');
    expect(good.textContent).not.toContain('What to do');
    expect(good.textContent).toContain('PVE 9.2.20');
    expect(good.textContent).toContain('proxy-seeds, 20.0 GiB free');
    expect(good.textContent).toContain('2 of 3 configured');
    expect(within(good).getByRole('meter', { name: 'CPU of pv1-1' }).getAttribute('aria-valuenow')).toBe('10');
    expect(within(good).getByRole('meter', { name: 'Memory of pv1-1' }).getAttribute('aria-valuenow')).toBe('25');
  });

  it('turns the card green again when the node recovers, and counts the reason change', () => {
    const down = health('pv1-2', false);
    useHealth
      .getState()
      .applySnapshot({ clusters: [{ clusterId: 'home', nodes: [{ node: 'pv1-2', latest: down, history: [point(down)] }] }] });
    render(<OverviewView />);
    const up = health('pv1-2', true);
    act(() => useHealth.getState().applyUpdate({ clusterId: 'home', node: 'pv1-2', latest: up, point: point(up) }));
    const card = screen.getByRole('article', { name: 'Node pv1-2' });
    expect(card.className).toContain('level-ok');
    expect(card.textContent).toContain('Reason changes, last hour: 1');
    expect(screen.getByRole('status', { name: 'Health of homelab' }).textContent).toContain('Healthy');
  });

  it("counts the cluster's proxies by state, leaving foreign look-alikes out", () => {
    render(<OverviewView />);
    const counts = screen.getByRole('list', { name: 'Proxies of homelab by state' });
    expect(counts.textContent).toContain('2 running');
    expect(counts.textContent).toContain('1 stopped');
  });

  it('labels the demo and leads to the connect wizard', () => {
    useProfiles.setState({ list: profilesList([profile({ id: 'demo', name: 'Demo cluster (simulated)', demo: true })]) });
    render(<OverviewView />);
    expect(screen.getByRole('note', { name: 'Demo mode' }).textContent).toContain('simulated demo cluster');
    fireEvent.click(screen.getByRole('button', { name: 'Connect a real cluster' }));
    expect(useUi.getState().view).toBe('settings');
    expect(useSettings.getState().connectWizardRequested).toBe(true);
  });

  it('shows a failed health load with its class and hint', () => {
    useHealth.setState({ error: { kind: 'transient', message: 'main is busy', hint: 'Try again shortly.' } });
    render(<OverviewView />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Transient');
    expect(alert.textContent).toContain('main is busy');
    expect(alert.textContent).toContain('Try again shortly.');
  });

  it('links each non-zero count to the Proxies view filtered by cluster and state, and the total to the cluster', () => {
    render(<OverviewView />);
    const counts = screen.getByRole('list', { name: 'Proxies of homelab by state' });
    expect(within(counts).queryByRole('button', { name: /0 locked/ })).toBeNull();
    fireEvent.click(within(counts).getByRole('button', { name: '2 running in homelab' }));
    expect(useUi.getState()).toMatchObject({ view: 'proxies', proxiesFilter: { clusterId: 'home', state: 'running' } });
    useUi.setState({ view: 'overview' });
    fireEvent.click(within(counts).getByRole('button', { name: 'All 3 proxies of homelab' }));
    expect(useUi.getState()).toMatchObject({ view: 'proxies', proxiesFilter: { clusterId: 'home' } });
  });

  it("links each node to the node's page in Nodes", () => {
    useHealth
      .getState()
      .applySnapshot({ clusters: [{ clusterId: 'home', nodes: [{ node: 'pv1-1', latest: health('pv1-1', true), history: [] }] }] });
    render(<OverviewView />);
    fireEvent.click(within(screen.getByRole('article', { name: 'Node pv1-1' })).getByRole('button', { name: 'pv1-1' }));
    expect(useUi.getState()).toMatchObject({ view: 'nodes', nodeRequest: { clusterId: 'home', node: 'pv1-1' } });
  });

  it('puts real clusters first and the demo last, so a newly connected cluster is not below the fold', () => {
    useProfiles.setState({
      list: profilesList([
        profile({ id: 'demo', name: 'Demo cluster (simulated)', demo: true }),
        profile({ id: 'zeta', name: 'zeta' }),
        profile({ id: 'home', name: 'homelab' }),
      ]),
    });
    render(<OverviewView />);
    const names = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(names.slice(0, 3)).toEqual(['homelab', 'zeta', 'Demo cluster (simulated)Simulated']);
    // Not only the demo: no demo banner.
    expect(screen.queryByRole('note', { name: 'Demo mode' })).toBeNull();
  });

  it('shows CPU, memory and latency sparklines of the last hour per node', () => {
    const h = health('pv1-1', true);
    const points = [0, 30, 60].map((ago, i) => ({
      ...point(h),
      at: new Date(Date.now() - ago * 60_000).toISOString(),
      cpu: 0.1 * (i + 1),
      memBytes: 2 ** 30 * (i + 1),
      maxmemBytes: 16 * 2 ** 30,
    }));
    useHealth
      .getState()
      .applySnapshot({ clusters: [{ clusterId: 'home', nodes: [{ node: 'pv1-1', latest: h, history: points.reverse() }] }] });
    render(<OverviewView />);
    const row = screen.getByRole('article', { name: 'Node pv1-1' });
    expect(within(row).getByRole('img', { name: 'CPU of pv1-1, last hour: latest 10%, highest 30%' })).toBeTruthy();
    expect(within(row).getByRole('img', { name: /^Memory of pv1-1, last hour: latest 6%, highest 19%$/ })).toBeTruthy();
    expect(within(row).getByRole('img', { name: 'API latency of pv1-1, last hour: latest 20 ms, highest 20 ms' })).toBeTruthy();
  });
});

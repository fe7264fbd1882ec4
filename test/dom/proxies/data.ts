/** Rows and tasks shaped like main's, for the renderer tests of the proxies, tasks and cleanup views. */
import type { ClusterInventory, InventorySnapshot, VmRow } from '../../../shared/channels/inventory';
import type { TaskView } from '../../../shared/channels/tasks';

export function vm(vmid: number, patch: Partial<VmRow> = {}): VmRow {
  return {
    clusterId: 'demo',
    vmid,
    node: vmid % 2 ? 'pve1' : 'pve2',
    name: `proxy-${vmid}`,
    state: 'running',
    status: 'running',
    address: `10.0.${Math.floor(vmid / 250)}.${vmid % 250}`,
    cores: 1,
    memoryMiB: 1024,
    createdAt: '2026-01-01T00:00:00.000Z',
    uid: `uid-${vmid}`,
    owner: 'marked',
    ours: true,
    tags: ['egress-proxy'],
    ...patch,
  };
}

export function cluster(vms: VmRow[], patch: Partial<ClusterInventory> = {}): ClusterInventory {
  return {
    clusterId: 'demo',
    name: 'Demo cluster (simulated)',
    status: { state: 'ok', failures: 0, intervalMs: 5000 },
    nodes: [
      { node: 'pve1', status: 'online', storages: [] },
      { node: 'pve2', status: 'online', storages: [] },
    ],
    vms,
    ...patch,
  };
}

export const snapshot = (vms: VmRow[], revision = 1): InventorySnapshot => ({ revision, clusters: [cluster(vms)] });

export function task(id: string, patch: Partial<TaskView> = {}): TaskView {
  return {
    id,
    kind: 'create-proxy',
    clusterId: 'demo',
    target: `proxy-${id}`,
    state: 'running',
    progress: 0.4,
    steps: [
      { name: 'Upload the seed', state: 'done' },
      { name: 'Clone the template', state: 'running', node: 'pve1', upid: 'UPID:pve1:0001:0002:00000003:qmclone:120:root@pam:' },
      { name: 'Start the VM', state: 'pending' },
    ],
    upids: [{ upid: 'UPID:pve1:0001:0002:00000003:qmclone:120:root@pam:', node: 'pve1', step: 'Clone the template' }],
    createdAt: '2026-01-01T00:00:00.000Z',
    attempts: 1,
    actions: ['cancel'],
    ...patch,
  };
}

/** jsdom lays nothing out; the virtualised table needs a viewport height to show rows. */
export function giveElementsHeight(px = 600) {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => px });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 });
}

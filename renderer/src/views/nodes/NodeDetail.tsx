/** One node drilled into: its health, its history graphs from Proxmox (RrdGraphs), its proxies and its storages. */
import type { ClusterInventory, NodeRow, VmRow } from '../../../../shared/channels/inventory';
import type { NodeHealthHistory } from '../../../../shared/channels/health';
import { DataTable, EmptyState, StateBadge, UsageMeter, type DataColumn } from '../../components/common';
import { formatBytes, formatDuration } from '../../format';
import { reasonBadge } from '../overview/reason-words';
import { RrdGraphs } from '../../components/common/RrdGraphs';

export interface NodeDetailProps {
  cluster: ClusterInventory;
  node: NodeRow;
  health: NodeHealthHistory | undefined;
  onBack: () => void;
}

const proxyColumns: DataColumn<VmRow>[] = [
  { id: 'name', header: 'Name', rowHeader: true, sortValue: (v) => v.name, cell: (v) => v.name ?? '(being cloned)' },
  { id: 'vmid', header: 'VMID', sortValue: (v) => v.vmid, cell: (v) => v.vmid },
  { id: 'state', header: 'State', sortValue: (v) => v.state, cell: (v) => <StateBadge state={v.state} /> },
  { id: 'address', header: 'Address', sortValue: (v) => v.address, cell: (v) => v.address ?? '—' },
  {
    id: 'owner',
    header: 'Owner',
    sortValue: (v) => v.owner,
    cell: (v) =>
      v.owner === 'foreign' ? <StateBadge state="foreign" label="Not ours (no mark)" /> : v.owner === 'pending' ? 'not known yet' : 'proxy',
  },
];

const storageColumns: DataColumn<NodeRow['storages'][number]>[] = [
  { id: 'storage', header: 'Storage', rowHeader: true, sortValue: (s) => s.storage, cell: (s) => s.storage },
  {
    id: 'status',
    header: 'Status',
    sortValue: (s) => s.status,
    cell: (s) => (s.status ? <StateBadge state={s.status === 'available' ? 'ok' : s.status} label={s.status} /> : '—'),
  },
  { id: 'content', header: 'Content', cell: (s) => s.content.join(', ') || '—' },
  { id: 'shared', header: 'Shared', cell: (s) => (s.shared ? 'yes' : 'no') },
  {
    id: 'used',
    header: 'Used',
    sortValue: (s) => (s.totalBytes ? (s.usedBytes ?? 0) / s.totalBytes : undefined),
    cell: (s) => (
      <UsageMeter
        label={`Space used on ${s.storage}`}
        fraction={s.totalBytes ? (s.usedBytes ?? 0) / s.totalBytes : undefined}
        text={s.totalBytes ? `${formatBytes(s.usedBytes)} of ${formatBytes(s.totalBytes)}` : '—'}
      />
    ),
  },
];

export function NodeDetail({ cluster, node, health, onBack }: NodeDetailProps) {
  const vms = cluster.vms.filter((v) => v.node === node.node).sort((a, b) => a.vmid - b.vmid);
  const latest = health?.latest;
  return (
    <section className="node-detail" aria-labelledby="node-detail-title">
      <div className="detail-head">
        <button type="button" onClick={onBack}>
          ← All nodes
        </button>
        <h2 id="node-detail-title">
          {node.node} <span className="muted">in {cluster.name}</span>
        </h2>
        <StateBadge state={node.status} />
        {latest && <StateBadge {...reasonBadge(latest)} />}
      </div>
      {latest && !latest.ready && (
        <p className="node-hint">
          {latest.message} What to do: {latest.hint}
        </p>
      )}
      <p className="muted">Up {formatDuration(node.uptimeSeconds)}</p>

      <RrdGraphs target={{ kind: 'node', clusterId: cluster.clusterId, node: node.node }} title={`History of ${node.node}`} />

      <h3>Proxies on {node.node}</h3>
      <DataTable
        label={`Proxies on ${node.node}`}
        columns={proxyColumns}
        rows={vms}
        rowKey={(v) => String(v.vmid)}
        empty={<EmptyState title={`No proxies on ${node.node}`}>Create one from the Proxies view.</EmptyState>}
      />

      <h3>Storages of {node.node}</h3>
      <DataTable label={`Storages of ${node.node}`} columns={storageColumns} rows={node.storages} rowKey={(s) => s.storage} />
    </section>
  );
}

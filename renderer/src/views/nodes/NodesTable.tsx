/** Every node of every cluster in one table: status and health, load, memory, uptime, storages, proxies. */
import type { ClusterInventory, NodeRow } from '../../../../shared/channels/inventory';
import type { NodeHealthHistory } from '../../../../shared/channels/health';
import { DataTable, StateBadge, UsageMeter, type DataColumn } from '../../components/common';
import { formatBytes, formatDuration, formatPercent } from '../../format';
import type { ClusterHealth } from '../../stores/health';
import { reasonBadge } from '../overview/reason-words';

export interface NodeRef {
  clusterId: string;
  node: string;
}

export interface NodesTableProps {
  clusters: ClusterInventory[];
  health: Record<string, ClusterHealth>;
  onOpen: (ref: NodeRef) => void;
}

interface Row {
  cluster: ClusterInventory;
  node: NodeRow;
  latest: NodeHealthHistory['latest'] | undefined;
  proxies: number;
}

function memFraction(n: NodeRow): number | undefined {
  return n.maxmemBytes ? (n.memBytes ?? 0) / n.maxmemBytes : undefined;
}

function columns(onOpen: (ref: NodeRef) => void): DataColumn<Row>[] {
  return [
    {
      id: 'node',
      header: 'Node',
      rowHeader: true,
      sortValue: (r) => r.node.node,
      cell: ({ cluster, node }) => (
        <button type="button" className="link-button" onClick={() => onOpen({ clusterId: cluster.clusterId, node: node.node })}>
          {node.node}
        </button>
      ),
    },
    { id: 'cluster', header: 'Cluster', sortValue: (r) => r.cluster.name, cell: (r) => r.cluster.name },
    { id: 'status', header: 'Status', sortValue: (r) => r.node.status, cell: (r) => <StateBadge state={r.node.status} /> },
    {
      id: 'health',
      header: 'Health',
      sortValue: (r) => (r.latest ? (r.latest.ready ? 1 : 0) : undefined),
      cell: (r) => (r.latest ? <StateBadge {...reasonBadge(r.latest)} /> : 'not checked yet'),
    },
    {
      id: 'cpu',
      header: 'CPU',
      sortValue: (r) => r.node.cpu,
      cell: ({ node: n }) => <UsageMeter label={`CPU of ${n.node}`} fraction={n.cpu} text={formatPercent(n.cpu)} />,
    },
    {
      id: 'memory',
      header: 'Memory',
      sortValue: (r) => memFraction(r.node),
      cell: ({ node: n }) => (
        <UsageMeter
          label={`Memory of ${n.node}`}
          fraction={memFraction(n)}
          text={n.maxmemBytes ? `${formatBytes(n.memBytes)} of ${formatBytes(n.maxmemBytes)}` : '—'}
        />
      ),
    },
    {
      id: 'uptime',
      header: 'Uptime',
      sortValue: (r) => r.node.uptimeSeconds,
      priority: 2,
      cell: (r) => formatDuration(r.node.uptimeSeconds),
    },
    { id: 'storages', header: 'Storages', priority: 3, cell: (r) => r.node.storages.map((s) => s.storage).join(', ') || '—' },
    { id: 'proxies', header: 'Proxies', align: 'end', sortValue: (r) => r.proxies, cell: (r) => r.proxies },
  ];
}

export function NodesTable({ clusters, health, onOpen }: NodesTableProps) {
  const rows: Row[] = clusters.flatMap((cluster) =>
    cluster.nodes.map((node) => ({
      cluster,
      node,
      latest: health[cluster.clusterId]?.[node.node]?.latest,
      proxies: cluster.vms.filter((v) => v.node === node.node && v.owner !== 'foreign').length,
    })),
  );
  return (
    <DataTable
      label="Nodes"
      columns={columns(onOpen)}
      rows={rows}
      rowKey={(r) => `${r.cluster.clusterId}/${r.node.node}`}
      rowClassName={(r) => (r.latest && !r.latest.ready ? 'row-bad' : undefined)}
      onActivate={(r) => onOpen({ clusterId: r.cluster.clusterId, node: r.node.node })}
    />
  );
}

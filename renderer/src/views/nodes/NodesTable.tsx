/** Every node of every cluster in one table: status and health, load, memory, uptime, storages, proxies. */
import type { ClusterInventory, NodeRow } from '../../../../shared/channels/inventory';
import { StateBadge, UsageMeter } from '../../components/common';
import { formatBytes, formatDuration, formatPercent } from '../../format';
import type { ClusterHealth } from '../../stores/health';
import { reasonWords } from '../overview/reason-words';

export interface NodeRef {
  clusterId: string;
  node: string;
}

export interface NodesTableProps {
  clusters: ClusterInventory[];
  health: Record<string, ClusterHealth>;
  onOpen: (ref: NodeRef) => void;
}

function memFraction(n: NodeRow): number | undefined {
  return n.maxmemBytes ? (n.memBytes ?? 0) / n.maxmemBytes : undefined;
}

export function NodesTable({ clusters, health, onOpen }: NodesTableProps) {
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Nodes">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Cluster</th>
            <th scope="col">Status</th>
            <th scope="col">Health</th>
            <th scope="col">CPU</th>
            <th scope="col">Memory</th>
            <th scope="col">Uptime</th>
            <th scope="col">Storages</th>
            <th scope="col">Proxies</th>
          </tr>
        </thead>
        <tbody>
          {clusters.flatMap((c) =>
            c.nodes.map((n) => {
              const latest = health[c.clusterId]?.[n.node]?.latest;
              const proxies = c.vms.filter((v) => v.node === n.node && v.owner !== 'foreign').length;
              return (
                <tr key={`${c.clusterId}/${n.node}`} className={latest && !latest.ready ? 'row-bad' : undefined}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => onOpen({ clusterId: c.clusterId, node: n.node })}>
                      {n.node}
                    </button>
                  </th>
                  <td>{c.name}</td>
                  <td>
                    <StateBadge state={n.status} />
                  </td>
                  <td>
                    {latest ? (
                      <StateBadge state={latest.ready ? 'ready' : 'failed'} label={reasonWords[latest.reason]} />
                    ) : (
                      'not checked yet'
                    )}
                  </td>
                  <td>
                    <UsageMeter label={`CPU of ${n.node}`} fraction={n.cpu} text={formatPercent(n.cpu)} />
                  </td>
                  <td>
                    <UsageMeter
                      label={`Memory of ${n.node}`}
                      fraction={memFraction(n)}
                      text={n.maxmemBytes ? `${formatBytes(n.memBytes)} of ${formatBytes(n.maxmemBytes)}` : '—'}
                    />
                  </td>
                  <td>{formatDuration(n.uptimeSeconds)}</td>
                  <td>{n.storages.map((s) => s.storage).join(', ') || '—'}</td>
                  <td>{proxies}</td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </div>
  );
}

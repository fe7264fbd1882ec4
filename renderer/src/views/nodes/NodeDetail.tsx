/** One node drilled into: its health, its proxies and its storages. */
import type { ClusterInventory, NodeRow } from '../../../../shared/channels/inventory';
import type { NodeHealthHistory } from '../../../../shared/channels/health';
import { EmptyState, StateBadge, UsageMeter } from '../../components/common';
import { formatBytes, formatDuration } from '../../format';
import { reasonWords } from '../overview/reason-words';

export interface NodeDetailProps {
  cluster: ClusterInventory;
  node: NodeRow;
  health: NodeHealthHistory | undefined;
  onBack: () => void;
}

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
        {latest && <StateBadge state={latest.ready ? 'ready' : 'failed'} label={reasonWords[latest.reason]} />}
      </div>
      {latest && !latest.ready && (
        <p className="node-hint">
          {latest.message} What to do: {latest.hint}
        </p>
      )}
      <p className="muted">Up {formatDuration(node.uptimeSeconds)}</p>

      <h3>Proxies on {node.node}</h3>
      {vms.length === 0 ? (
        <EmptyState title={`No proxies on ${node.node}`}>Create one from the Proxies view.</EmptyState>
      ) : (
        <table className="data-table" aria-label={`Proxies on ${node.node}`}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">VMID</th>
              <th scope="col">State</th>
              <th scope="col">Address</th>
              <th scope="col">Owner</th>
            </tr>
          </thead>
          <tbody>
            {vms.map((v) => (
              <tr key={v.vmid}>
                <th scope="row">{v.name ?? '(being cloned)'}</th>
                <td>{v.vmid}</td>
                <td>
                  <StateBadge state={v.state} />
                </td>
                <td>{v.address ?? '—'}</td>
                <td>
                  {v.owner === 'foreign' ? (
                    <StateBadge state="foreign" label="Not ours (no mark)" />
                  ) : v.owner === 'pending' ? (
                    'not known yet'
                  ) : (
                    'proxy'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Storages of {node.node}</h3>
      <table className="data-table" aria-label={`Storages of ${node.node}`}>
        <thead>
          <tr>
            <th scope="col">Storage</th>
            <th scope="col">Status</th>
            <th scope="col">Content</th>
            <th scope="col">Shared</th>
            <th scope="col">Used</th>
          </tr>
        </thead>
        <tbody>
          {node.storages.map((s) => (
            <tr key={s.storage}>
              <th scope="row">{s.storage}</th>
              <td>{s.status ? <StateBadge state={s.status === 'available' ? 'ok' : s.status} label={s.status} /> : '—'}</td>
              <td>{s.content.join(', ') || '—'}</td>
              <td>{s.shared ? 'yes' : 'no'}</td>
              <td>
                <UsageMeter
                  label={`Space used on ${s.storage}`}
                  fraction={s.totalBytes ? (s.usedBytes ?? 0) / s.totalBytes : undefined}
                  text={s.totalBytes ? `${formatBytes(s.usedBytes)} of ${formatBytes(s.totalBytes)}` : '—'}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

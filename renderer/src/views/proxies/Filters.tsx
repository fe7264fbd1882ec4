/** The table's filters: state, node, cluster and Proxmox tag, each offering only values the rows have. */
import { VmRowState } from '../../../../shared/channels/inventory';
import type { ClusterInventory } from '../../../../shared/channels/inventory';
import type { RowFilter } from './rows';

export function Filters({
  filter,
  onChange,
  clusters,
}: {
  filter: RowFilter;
  onChange: (f: RowFilter) => void;
  clusters: readonly ClusterInventory[];
}) {
  const nodes = [
    ...new Set(clusters.filter((c) => !filter.clusterId || c.clusterId === filter.clusterId).flatMap((c) => c.nodes.map((n) => n.node))),
  ].sort();
  const state = [...filter.states][0] ?? '';
  const tags = [...new Set(clusters.flatMap((c) => c.vms.flatMap((v) => v.tags)))].sort();
  return (
    <>
      <label className="inline-label">
        State
        <select
          value={state}
          onChange={(e) => onChange({ ...filter, states: new Set(e.target.value ? [e.target.value as VmRowState] : []) })}
        >
          <option value="">All</option>
          {VmRowState.options.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-label">
        Node
        <select value={filter.node ?? ''} onChange={(e) => onChange({ ...filter, node: e.target.value || undefined })}>
          <option value="">All</option>
          {nodes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {tags.length > 0 && (
        <label className="inline-label">
          Tag
          <select value={filter.tag ?? ''} onChange={(e) => onChange({ ...filter, tag: e.target.value || undefined })}>
            <option value="">All</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      )}
      {clusters.length > 1 && (
        <label className="inline-label">
          Cluster
          <select
            value={filter.clusterId ?? ''}
            onChange={(e) => onChange({ ...filter, clusterId: e.target.value || undefined, node: undefined })}
          >
            <option value="">All</option>
            {clusters.map((c) => (
              <option key={c.clusterId} value={c.clusterId}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}

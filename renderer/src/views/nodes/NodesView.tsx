/** The Nodes view: the table of every node, or one node drilled into. */
import { useEffect, useState } from 'react';
import { EmptyState, ErrorNotice } from '../../components/common';
import { useHealth } from '../../stores/health';
import { useInventory } from '../../stores/inventory';
import { useUi } from '../../stores/ui';
import { ViewFrame } from '../Placeholder';
import { NodeDetail } from './NodeDetail';
import { NodesTable, type NodeRef } from './NodesTable';

export function NodesView() {
  const clusters = useInventory((s) => s.clusters);
  const loaded = useInventory((s) => s.loaded);
  const error = useInventory((s) => s.error);
  const reload = useInventory((s) => s.reload);
  const health = useHealth((s) => s.clusters);
  // A link from another view (an Overview node row) opens that node's page, from the first paint on.
  const nodeRequest = useUi((s) => s.nodeRequest);
  const [open, setOpen] = useState<NodeRef | undefined>(nodeRequest);
  useEffect(() => {
    if (!nodeRequest) return;
    setOpen(nodeRequest);
    useUi.getState().clearNodeRequest();
  }, [nodeRequest]);

  const cluster = open && clusters.find((c) => c.clusterId === open.clusterId);
  const node = open && cluster?.nodes.find((n) => n.node === open.node);

  return (
    <ViewFrame title="Nodes">
      {error && <ErrorNotice title="The nodes could not be listed" error={error} onRetry={() => void reload()} />}
      {!loaded && !error && <p className="muted">Listing nodes…</p>}
      {loaded && clusters.every((c) => c.nodes.length === 0) && (
        <EmptyState title="No nodes listed">Connect a cluster in Settings, or wait for its first listing.</EmptyState>
      )}
      {cluster && node ? (
        <NodeDetail cluster={cluster} node={node} health={health[cluster.clusterId]?.[node.node]} onBack={() => setOpen(undefined)} />
      ) : (
        loaded && <NodesTable clusters={clusters} health={health} onOpen={setOpen} />
      )}
    </ViewFrame>
  );
}

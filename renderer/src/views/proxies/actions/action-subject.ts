/**
 * A row as the action rules see it (shared/domain/proxy-actions.ts
 * ActionSubject): the row itself, plus how many other nodes of its profile
 * are online (whether Migrate has anywhere to go). Computed when a menu or
 * bar is shown, never per table row.
 */
import type { ClusterInventory } from '../../../../../shared/channels/inventory';
import type { ActionSubject } from '../../../../../shared/domain/proxy-actions';
import type { ProfileSummary } from '../../../../../shared/domain/profile';
import type { ProxyRow } from '../rows';

export type SubjectRow = ProxyRow & ActionSubject;

export function subjectOf(
  row: ProxyRow,
  clusters: readonly ClusterInventory[],
  profiles: readonly ProfileSummary[] | undefined,
): SubjectRow {
  const nodes = clusters.find((c) => c.clusterId === row.clusterId)?.nodes;
  if (!nodes) return row;
  const profileNodes = profiles?.find((p) => p.id === row.clusterId)?.nodes;
  const inProfile = (n: string) => !profileNodes?.length || profileNodes.includes(n);
  return { ...row, otherNodesOnline: nodes.filter((n) => n.node !== row.node && n.status === 'online' && inProfile(n.node)).length };
}

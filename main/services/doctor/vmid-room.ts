/** Free room in the VMID range: how many deterministic VMIDs are still unused, and what sits there. */
import type { ClusterResource } from '../../core';
import type { DiscoverySection } from '../../../shared/channels/doctor';

export const DEFAULT_VMID_RANGE = { min: 100_000, max: 199_999 } as const;
const SHOWN = 10;

export function vmidRoom(
  resources: readonly ClusterResource[],
  range: { min: number; max: number },
): DiscoverySection['data']['vmidRange'] {
  const inRange = resources.filter((r) => r.vmid !== undefined && r.vmid >= range.min && r.vmid <= range.max);
  const used = new Set(inRange.map((r) => r.vmid)).size;
  return {
    ...range,
    used,
    free: range.max - range.min + 1 - used,
    usedBy: inRange.slice(0, SHOWN).map((r) => `${r.vmid} ${r.name ?? '(no name yet)'}`),
  };
}

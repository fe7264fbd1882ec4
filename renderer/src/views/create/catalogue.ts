/**
 * What the Create form offers: each cluster's templates and machine types
 * (from its profile, in the profiles store) and nodes (the profile's list,
 * else what the inventory sees).
 */
import type { AppErrorValue } from '../../../../shared/errors';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { useInventory } from '../../stores/inventory';
import { useProfiles } from '../../stores/profiles';

export interface ClusterChoice {
  id: string;
  name: string;
  demo: boolean;
  templates: string[];
  machineTypes: { name: string; cores: number; memoryMiB: number; diskGiB: number | undefined }[];
  nodes: string[];
}

export function toChoices(profiles: readonly ProfileSummary[], inventoryNodes: (clusterId: string) => string[]): ClusterChoice[] {
  return profiles.map((p) => ({
    id: p.id,
    name: p.name,
    demo: p.demo,
    templates: Object.keys(p.templates).sort(),
    machineTypes: Object.entries(p.machineTypes).map(([name, m]) => ({ name, cores: m.cores, memoryMiB: m.memoryMiB, diskGiB: m.diskGiB })),
    // A profile may list its nodes; otherwise every node the inventory sees.
    nodes: p.nodes.length > 0 ? [...p.nodes] : inventoryNodes(p.id),
  }));
}

export function useClusterCatalogue(): { choices: ClusterChoice[] | undefined; error: AppErrorValue | undefined } {
  const list = useProfiles((s) => s.list);
  const error = useProfiles((s) => s.error);
  const clusters = useInventory((s) => s.clusters);
  const nodesOf = (id: string) => clusters.find((c) => c.clusterId === id)?.nodes.map((n) => n.node) ?? [];
  return { choices: list && toChoices(list.profiles, nodesOf), error };
}

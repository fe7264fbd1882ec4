/**
 * What the Create form offers: each cluster's templates and machine types
 * (from its profile) and nodes (from the inventory). Profiles are read once
 * when the form opens; the profiles store of the Settings view is the
 * long-lived owner of that data.
 */
import { useEffect, useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { useInventory } from '../../stores/inventory';
import { useTasks } from '../../stores/tasks';

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
  const api = useTasks((s) => s.api);
  const clusters = useInventory((s) => s.clusters);
  const [profiles, setProfiles] = useState<ProfileSummary[]>();
  const [error, setError] = useState<AppErrorValue>();
  useEffect(() => {
    if (!api) return;
    let live = true;
    void api.request['profiles.list']({}).then((r) => {
      if (!live) return;
      if (r.ok) setProfiles(r.value.profiles);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [api]);
  const nodesOf = (id: string) => clusters.find((c) => c.clusterId === id)?.nodes.map((n) => n.node) ?? [];
  return { choices: profiles && toChoices(profiles, nodesOf), error };
}

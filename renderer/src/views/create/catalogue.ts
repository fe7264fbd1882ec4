/**
 * What the Create form offers: each cluster's templates and machine types
 * (from its profile, in the profiles store) and nodes (the profile's list,
 * else what the inventory sees), each node marked down when the inventory
 * or the health check says so; and which names are already taken.
 */
import type { ClusterInventory } from '../../../../shared/channels/inventory';
import type { TaskView } from '../../../../shared/channels/tasks';
import type { AppErrorValue } from '../../../../shared/errors';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { useHealth, type ClusterHealth } from '../../stores/health';
import { useInventory } from '../../stores/inventory';
import { useProfiles } from '../../stores/profiles';
import { useTasks } from '../../stores/tasks';

export interface NodeChoice {
  name: string;
  /** Offline in the inventory's listing, or unreachable in the last health check. */
  down: boolean;
}

export interface ClusterChoice {
  id: string;
  name: string;
  demo: boolean;
  templates: Record<string, { vmid: number }>;
  machineTypes: { name: string; cores: number; memoryMiB: number; diskGiB: number | undefined }[];
  nodes: NodeChoice[];
}

/**
 * Down: the listing says the node is not online (what main's automatic
 * placement also skips), or, before any listing, the health check could
 * not reach it.
 */
export function isNodeDown(node: string, inventory: ClusterInventory | undefined, health: ClusterHealth | undefined): boolean {
  const row = inventory?.nodes.find((n) => n.node === node);
  if (row) return row.status !== 'online';
  const latest = health?.[node]?.latest;
  return latest ? !latest.ready && (latest.reason === 'Unreachable' || latest.reason === 'Timeout') : false;
}

export function toChoices(
  profiles: readonly ProfileSummary[],
  inventories: readonly ClusterInventory[],
  health: Record<string, ClusterHealth>,
): ClusterChoice[] {
  return profiles.map((p) => {
    const inventory = inventories.find((c) => c.clusterId === p.id);
    // A profile may list its nodes; otherwise every node the inventory sees.
    const names = p.nodes.length > 0 ? [...p.nodes] : (inventory?.nodes.map((n) => n.node) ?? []);
    return {
      id: p.id,
      name: p.name,
      demo: p.demo,
      templates: p.templates,
      machineTypes: Object.entries(p.machineTypes).map(([name, m]) => ({
        name,
        cores: m.cores,
        memoryMiB: m.memoryMiB,
        diskGiB: m.diskGiB,
      })),
      nodes: names.map((name) => ({ name, down: isNodeDown(name, inventory, health[p.id]) })),
    };
  });
}

export function useClusterCatalogue(): { choices: ClusterChoice[] | undefined; error: AppErrorValue | undefined } {
  const list = useProfiles((s) => s.list);
  const error = useProfiles((s) => s.error);
  const clusters = useInventory((s) => s.clusters);
  const health = useHealth((s) => s.clusters);
  return { choices: list && toChoices(list.profiles, clusters, health), error };
}

/**
 * Who already has a name in a cluster, in words: a VM the inventory lists,
 * or a create that is running or queued. Undefined when the name is free.
 */
export function nameOwner(
  clusterId: string,
  inventories: readonly ClusterInventory[],
  tasks: Record<string, TaskView>,
): (name: string) => string | undefined {
  const vms = new Map<string, { vmid: number; node: string }>();
  for (const vm of inventories.find((c) => c.clusterId === clusterId)?.vms ?? []) if (vm.name) vms.set(vm.name, vm);
  const creating = new Map<string, TaskView>();
  for (const t of Object.values(tasks))
    if (t.clusterId === clusterId && t.kind === 'create-proxy' && (t.state === 'running' || t.state === 'queued'))
      creating.set(t.target, t);
  return (name) => {
    const vm = vms.get(name);
    if (vm) return `${name} is already the name of VM ${vm.vmid} on ${vm.node}: choose another name.`;
    const task = creating.get(name);
    if (task) return `${name} is already being created by a ${task.state} task${task.node ? ` on ${task.node}` : ''}: choose another name.`;
    return undefined;
  };
}

export function useNameOwner(clusterId: string): (name: string) => string | undefined {
  const clusters = useInventory((s) => s.clusters);
  const tasks = useTasks((s) => s.tasks);
  return nameOwner(clusterId, clusters, tasks);
}

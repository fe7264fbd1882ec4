/**
 * Issue 16: where a proxy can migrate to, judged from what the inventory
 * lists (nodes, their storages and memory) before anything is sent, so the
 * Migrate dialog offers only suitable nodes and says why the others are
 * not. The same rules main/core/provider/cluster/migrate-rules.ts judgeMigration
 * applies from a fresh read when the task runs (qemu-server API2/Qemu.pm
 * migrate_vm, QemuServer.pm check_storage_availability): this is the
 * early look, that is the word that counts.
 */

/** What the inventory lists of a node (NodeRow). */
export interface NodeFacts {
  node: string;
  status: string;
  memBytes?: number | undefined;
  maxmemBytes?: number | undefined;
  storages: readonly { storage: string; content: readonly string[]; shared: boolean; status?: string | undefined }[];
}

export interface MigrateSubject {
  node: string;
  status: string;
  memoryMiB?: number | undefined;
}

export interface MigrateStorages {
  /** The profile's seed ISO storage. */
  isoStorage: string;
  /** The profile's disk storage, when it names one (the VM's disks are there). */
  diskStorage?: string | undefined;
}

export interface MigrateTarget {
  node: string;
  suitable: boolean;
  /** Why not, in plain words. */
  reason?: string;
}

const usable = (s: { status?: string | undefined }) => s.status === undefined || s.status === 'available' || s.status === 'active';
const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/** Every profile node but the VM's own, suitable first, each with why not. */
export function migrateTargets(
  vm: MigrateSubject,
  nodes: readonly NodeFacts[],
  profileNodes: readonly string[],
  storages: MigrateStorages,
): MigrateTarget[] {
  const targets: MigrateTarget[] = [];
  for (const name of profileNodes) {
    if (name === vm.node) continue;
    const n = nodes.find((x) => x.node === name);
    const no = (reason: string) => targets.push({ node: name, suitable: false, reason });
    if (!n) no('It is not listed by the cluster right now.');
    else if (n.status !== 'online') no(`It is ${n.status}.`);
    else if (!n.storages.some((s) => s.storage === storages.isoStorage && s.content.includes('iso') && usable(s)))
      no(`It has no ISO storage ${storages.isoStorage} for the seed.`);
    else if (
      storages.diskStorage &&
      !n.storages.some((s) => s.storage === storages.diskStorage && s.content.includes('images') && usable(s))
    )
      no(`It has no disk storage ${storages.diskStorage}.`);
    else if (
      vm.status === 'running' &&
      vm.memoryMiB !== undefined &&
      n.maxmemBytes !== undefined &&
      vm.memoryMiB * 1024 * 1024 > n.maxmemBytes - (n.memBytes ?? 0)
    )
      no(`It has ${gib(n.maxmemBytes - (n.memBytes ?? 0))} of memory free; the VM runs with ${gib(vm.memoryMiB * 1024 * 1024)}.`);
    else targets.push({ node: name, suitable: true });
  }
  return targets.sort((a, b) => Number(b.suitable) - Number(a.suitable));
}

/** Whether the seed storage is shared as the VM's node lists it: then the seed stays where it is during a migrate. */
export function seedStorageShared(vmNode: string, nodes: readonly NodeFacts[], isoStorage: string): boolean {
  return nodes.find((n) => n.node === vmNode)?.storages.find((s) => s.storage === isoStorage)?.shared === true;
}

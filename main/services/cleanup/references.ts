/**
 * Who uses a seed: the CD-ROM slots (`ide*`, `sata*`, `scsi*`) of VM
 * configs, read a few at a time. A config that cannot be read counts as
 * "may use it": the cleanup would rather keep a seed than guess.
 */
import type { ClusterResource } from '../../core/pve/schemas';
import type { PveApi } from '../../core/pve/api';

const SLOT = /^(ide|sata|scsi)\d+$/;
const SEED_SUFFIX = '-seed.iso';

export interface SeedVolume {
  node: string;
  volid: string;
  name: string;
  size: number;
  ctime?: number;
}

/** `<isoStorage>:iso/<name>-seed.iso` → `<name>`; anything else is not a seed. */
export function seedName(isoStorage: string, volid: string): string | undefined {
  const prefix = `${isoStorage}:iso/`;
  if (!volid.startsWith(prefix) || !volid.endsWith(SEED_SUFFIX)) return undefined;
  const name = volid.slice(prefix.length, -SEED_SUFFIX.length);
  return name.length > 0 && !name.includes('/') ? name : undefined;
}

/** The volumes in CD-ROM-capable slots: `{slot: 'ide2', volid: 'proxy-seeds:iso/x-seed.iso'}`. */
export function driveRefs(config: Record<string, string>): { slot: string; volid: string }[] {
  return Object.entries(config)
    .filter(([key]) => SLOT.test(key))
    .map(([slot, value]) => ({ slot, volid: value.split(',')[0] ?? '' }));
}

export type ConfigRead = { vm: ClusterResource; config: Record<string, string> } | { vm: ClusterResource; error: string };

export async function readConfigs(api: PveApi, vms: ClusterResource[], signal?: AbortSignal, parallel = 4): Promise<ConfigRead[]> {
  const out: ConfigRead[] = [];
  let next = 0;
  const worker = async () => {
    while (next < vms.length) {
      const vm = vms[next++]!;
      try {
        out.push({ vm, config: await api.vmConfig(vm.node!, vm.vmid!, { signal }) });
      } catch (e) {
        signal?.throwIfAborted();
        out.push({ vm, error: e instanceof Error ? e.message : String(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, vms.length) }, worker));
  return out;
}

/** The VMs whose config may hold a seed on `nodes`: every QEMU guest there with a VMID, plus any VM carrying one of `names`. */
export function vmsToRead(resources: ClusterResource[], nodes: Set<string>, names: Set<string>): ClusterResource[] {
  return resources.filter(
    (r) =>
      r.type === 'qemu' &&
      r.vmid !== undefined &&
      r.node !== undefined &&
      (nodes.has(r.node) || (r.name !== undefined && names.has(r.name))),
  );
}

/** Why a seed must stay because of a VM, or undefined when no VM read uses it and every read succeeded. */
export function vmReasonToKeep(volid: string, node: string, reads: ConfigRead[]): string | undefined {
  for (const r of reads) {
    if ('config' in r) {
      const ref = driveRefs(r.config).find((d) => d.volid === volid);
      if (ref) return `VM ${r.vm.vmid}${r.vm.name ? ` (${r.vm.name})` : ''} uses it in ${ref.slot}.`;
    } else if (r.vm.node === node) {
      return `The config of VM ${r.vm.vmid} on ${node} could not be read (${r.error}), so it may use this seed.`;
    }
  }
  return undefined;
}

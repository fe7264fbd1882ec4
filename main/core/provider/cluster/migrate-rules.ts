/**
 * Whether a migrate can apply, and how (issue 16): pure rules over facts
 * already read (one `/cluster/resources` listing, the VM's config and
 * power). Each refusal is permanent with a hint and a code the UI can act
 * on, and comes before any request that changes anything. The rules follow
 * qemu-server (proxmox/qemu-server@e6352be6): API2/Qemu.pm migrate_vm and
 * QemuServer.pm check_storage_availability (every volume's storage on the
 * target, with its content type), QemuMigrate.pm scan_local_volumes (no
 * local CD-ROM image; a running VM's local disk needs `with-local-disks`).
 * Proxmox does not check the target's memory; the app does, so a live
 * migration is not refused halfway by the target's QEMU.
 */
import type { ClusterResource, VmConfig } from '../calls/context';
import type { MigratePrecondition } from '../../pve/schemas';
import { ProviderError } from '../rules/errors';
import { templateVolumes } from './landing';
import { isSharedStorage } from './seed-source';

/** The ProviderError codes a caller can act on. */
export const MIGRATE_CODES = {
  sameNode: 'same-node',
  unknownNode: 'unknown-node',
  nodeOffline: 'node-offline',
  storageMissing: 'storage-missing',
  notEnoughMemory: 'not-enough-memory',
  /** The seed is on local storage and the caller gave no user-data to rebuild it. */
  seedUnknown: 'seed-unknown',
  /**
   * The rebuilt seed's size differs from the source copy's: the user-data given is not the one the VM has. Only a
   * size can be compared (Proxmox lists no checksum and cannot read a volume back), and an ISO's size moves in
   * 2 KiB sectors, so this catches a different user-data, not every one.
   */
  seedDiffers: 'seed-differs',
  /** Another local ISO sits in a CD-ROM: Proxmox cannot migrate it. */
  localCdrom: 'local-cdrom',
  notTheOne: 'not-the-one',
  /** Issue 25: a device ties the VM to its node (Proxmox's precondition lists it in local_resources). */
  localDevices: 'local-devices',
} as const;

/** What the pure rules need: the listing, the VM's node, config and power, the target. */
export interface MigrationFacts {
  resources: readonly ClusterResource[];
  /** The profile's nodes: a target outside it is refused (the app does not manage it). */
  profileNodes: readonly string[];
  isoStorage: string;
  /** The proxy's own seed volume, `<isoStorage>:iso/<name>-seed.iso`. */
  seedVolume: string;
  vmid: number;
  node: string;
  target: string;
  config: VmConfig;
  running: boolean;
  /** The VM's seed is expected back in its CD-ROM (attached now, or emptied by an earlier attempt). */
  hasSeed: boolean;
}

export interface MigrationPlan {
  online: boolean;
  withLocalDisks: boolean;
  /** The seed must be copied to the target and re-attached (its storage is local). */
  moveSeed: boolean;
}

export type MigrationVerdict = { ok: true; plan: MigrationPlan } | { ok: false; error: ProviderError };

const refusalError = (message: string, hint: string, code: string) =>
  new ProviderError('permanent', `${message}; nothing was sent.`, undefined, undefined, hint, code);
const refusal = (message: string, hint: string, code: string): MigrationVerdict => ({ ok: false, error: refusalError(message, hint, code) });

/** Whether (and how) the VM can move to `target`, from facts already read. Pure. */
export function judgeMigration(f: MigrationFacts): MigrationVerdict {
  const { target, vmid } = f;
  if (target === f.node) return refusal(`VM ${vmid} is already on ${target}`, 'Choose another node.', MIGRATE_CODES.sameNode);
  const nodeEntry = f.resources.find((r) => r.type === 'node' && r.node === target);
  if (!nodeEntry)
    return refusal(`${target} is not a node of this cluster`, "Choose one of the cluster's nodes.", MIGRATE_CODES.unknownNode);
  if (!f.profileNodes.includes(target))
    return refusal(
      `${target} is not one of this cluster profile's nodes`,
      "Add it to the profile's nodes first, or choose another.",
      MIGRATE_CODES.unknownNode,
    );
  if (nodeEntry.status !== 'online')
    return refusal(
      `${target} is ${nodeEntry.status ?? 'not online'}`,
      'Wait for it to come back, or choose another node.',
      MIGRATE_CODES.nodeOffline,
    );

  const storageOn = (storage: string, node: string) =>
    f.resources.find((r) => r.type === 'storage' && r.storage === storage && r.node === node);
  const holds = (storage: string, node: string, content: string) => {
    const s = storageOn(storage, node);
    return s !== undefined && s.status !== 'unavailable' && (Array.isArray(s.content) ? s.content.includes(content) : false);
  };
  const volumes = templateVolumes(f.config);
  let withLocalDisks = false;
  for (const v of volumes) {
    if (v.cdrom) {
      if (v.volid === f.seedVolume) continue;
      if (!isSharedStorage(f.resources, v.storage))
        return refusal(
          `VM ${vmid}'s CD-ROM ${v.slot} holds ${v.volid}, an ISO on ${v.storage}, which is local to ${f.node}: Proxmox cannot migrate a local CD-ROM image`,
          `Eject it (set ${v.slot} to "Do not use any media" in the Proxmox UI), then migrate.`,
          MIGRATE_CODES.localCdrom,
        );
      if (!holds(v.storage, target, 'iso'))
        return refusal(
          `${target} has no storage ${v.storage} for VM ${vmid}'s CD-ROM image ${v.volid}`,
          `Make ${v.storage} available on ${target}, or choose another node.`,
          MIGRATE_CODES.storageMissing,
        );
      continue;
    }
    if (!holds(v.storage, target, 'images'))
      return refusal(
        `${target} has no storage ${v.storage} for VM ${vmid}'s disk ${v.slot}`,
        `Make ${v.storage} (with content "Disk image") available on ${target}, or choose another node.`,
        MIGRATE_CODES.storageMissing,
      );
    if (!isSharedStorage(f.resources, v.storage)) withLocalDisks = true;
  }

  const moveSeed = f.hasSeed && !isSharedStorage(f.resources, f.isoStorage);
  if (f.hasSeed && !holds(f.isoStorage, target, 'iso'))
    return refusal(
      `${target} has no ISO storage ${f.isoStorage} for VM ${vmid}'s seed`,
      `Make ${f.isoStorage} (with content "ISO image") available on ${target}, or choose another node.`,
      MIGRATE_CODES.storageMissing,
    );

  if (f.running) {
    const needed = memoryBytes(f.config);
    const free = (nodeEntry.maxmem ?? 0) - (nodeEntry.mem ?? 0);
    if (nodeEntry.maxmem !== undefined && needed > free)
      return refusal(
        `${target} has ${gib(free)} of memory free and VM ${vmid} runs with ${gib(needed)}`,
        'Choose a node with more free memory, or shut the VM down and migrate it offline.',
        MIGRATE_CODES.notEnoughMemory,
      );
  }
  return { ok: true, plan: { online: f.running, withLocalDisks, moveSeed } };
}

/** The VM's memory: `memory` in MiB (Proxmox's default 512), or `current=` of 9.x's property string form. */
function memoryBytes(config: VmConfig): number {
  const raw = config.memory ?? '512';
  const m = /(?:^|current=)(\d+)/.exec(raw);
  return Number(m?.[1] ?? 512) * 1024 * 1024;
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/**
 * Issue 25: Proxmox's own precondition (GET …/migrate, qemu-server migrate_vm_precondition) judged before anything is
 * changed. A device in `local_resources` that is not in `mapped-resources` makes QemuMigrate.pm prepare refuse
 * the migrate inside its task ("can't migrate VM which uses local devices: usb0"); a target in `not_allowed_nodes`
 * lacks a storage (check_local_storage_availability). Pure; undefined when nothing blocks.
 */
export function judgePrecondition(pre: MigratePrecondition, vmid: number, target: string): ProviderError | undefined {
  const mapped = new Set(pre['mapped-resources'] ?? []);
  const blocking = (pre.local_resources ?? []).filter((r) => !mapped.has(r));
  if (blocking.length > 0)
    return refusalError(
      `VM ${vmid} uses local devices (${blocking.join(', ')}), and Proxmox cannot migrate it with them ("can't migrate VM which uses local devices")`,
      `Remove ${blocking.join(', ')} from the VM's Hardware in Proxmox (a passed-through device ties it to its node), then migrate; or leave it where it is.`,
      MIGRATE_CODES.localDevices,
    );
  const missing = pre.not_allowed_nodes?.[target]?.unavailable_storages ?? [];
  if (missing.length > 0)
    return refusalError(
      `Proxmox says ${target} lacks the storage${missing.length > 1 ? 's' : ''} ${missing.join(', ')} VM ${vmid} uses`,
      `Make ${missing.join(', ')} available on ${target}, or choose another node.`,
      MIGRATE_CODES.storageMissing,
    );
  return undefined;
}

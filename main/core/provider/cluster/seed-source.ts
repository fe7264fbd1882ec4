/**
 * A proxy's seed, rebuilt (issue 16). The user-data lives only in the seed
 * itself and in the records of whoever created the VM: Proxmox offers no way
 * to read an ISO back (pve-storage's volume copy, POST …/content/{volume}, is
 * marked "experimental code - do not use"). So the caller hands the user-data
 * (and the instance-id the seed carries) back, and the rest is recovered from
 * the VM: the name, and the build time, which is the mark's created-at (create
 * builds every seed with it, provision.ts), so the same inputs give the same
 * bytes on every node. Without the user-data a local seed cannot be moved:
 * migrate refuses rather than let the guest boot without its seed and rerun
 * its first-boot modules under a new instance-id.
 */
import type { ClusterResource, CoreContext, VmConfig } from '../calls/context';
import { parseMark } from '../rules/mark';
import { net0Mac } from '../rules/net0';
import { permanent } from '../rules/errors';
import { networkConfig } from '../../seed/network-config';
import { hasStaticAddress, type ProxyNetwork } from '../../../../shared/domain/proxy-network';

/** What only the caller knows about a proxy's seed. */
export interface SeedSource {
  /** The cloud-init user-data, byte for byte. Never logged, never in an error. */
  userData: string;
  /**
   * meta-data's instance-id the seed carries now: the last reconfigure's (ReconfigureResult.instanceId, kept by the
   * caller with the user-data), else the proxy's name (what create writes). A wrong one would make the guest rerun its
   * first-boot modules after a migrate, and cannot be caught: both ids are the same length in the ISO's sectors.
   */
  instanceId?: string;
  /** Issue 24: the proxy's network; a static address adds the seed's network-config (core/seed/network-config.ts). */
  network?: ProxyNetwork | undefined;
  /** The MAC the network-config names; default the MAC in the config's net0. */
  mac?: string | undefined;
}

/** The time every date in a proxy's seed carries: the mark's created-at, so a rebuild gives the same bytes. */
export function seedStamp(config: VmConfig): Date | undefined {
  return parseMark(config.description).createdAt;
}

/** The seed's bytes for a VM named `name` whose config (for the stamp) is `config`. */
export function buildProxySeed(ctx: CoreContext, name: string, source: SeedSource, config: VmConfig): Uint8Array {
  return ctx.seed.buildSeedIso({
    name,
    userData: source.userData,
    ...(source.instanceId === undefined ? {} : { instanceId: source.instanceId }),
    ...(ctx.profile.vendorData === undefined ? {} : { vendorData: ctx.profile.vendorData }),
    installGuestAgent: ctx.profile.installGuestAgent,
    now: seedStamp(config) ?? ctx.now(),
    ...networkConfigOf(source, config),
  });
}

/** The seed's network-config for a static address, on the NIC with the source's MAC (else net0's). */
function networkConfigOf(source: SeedSource, config: VmConfig): { networkConfig?: string } {
  if (!hasStaticAddress(source.network)) return {};
  const mac = source.mac ?? net0Mac(config.net0);
  if (!mac)
    throw permanent(
      'The proxy has a static address, but its VM has no net0 MAC for the seed’s network-config to name.',
      'Give the VM a network device (net0).',
    );
  const text = networkConfig(source.network, mac);
  return text === undefined ? {} : { networkConfig: text };
}

/** A fresh instance-id for new user-data: `<name>-<UTC yyyymmddhhmmss>`, so cloud-init sees a new instance. */
export function newInstanceId(name: string, now: Date): string {
  return `${name}-${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

/**
 * The temporary file a reconfigure stages the new seed under before it writes the seed's own name (reconfigure.ts).
 * A `.` never appears in a proxy name, so it cannot be another proxy's seed, and the orphan scan's `<name>-seed.iso`
 * pattern does not take it for one.
 */
export function stagedSeedIsoName(name: string): string {
  return `${name}-seed.next.iso`;
}

export function stagedSeedVolumeId(isoStorage: string, name: string): string {
  return `${isoStorage}:iso/${stagedSeedIsoName(name)}`;
}

/** Whether a storage is shared, from a `/cluster/resources` listing (any node's entry says so). */
export function isSharedStorage(resources: readonly ClusterResource[], storage: string): boolean {
  return resources.some((r) => r.type === 'storage' && r.storage === storage && (r.shared === true || (r.shared as unknown) === 1));
}

/** The volume in the VM's CD-ROM slot `ide2` (what create attaches the seed to), or undefined when empty. */
export function cdromVolume(config: VmConfig, slot = 'ide2'): string | undefined {
  const volid = (config[slot] ?? '').split(',')[0] ?? '';
  return volid === '' || volid === 'none' || volid === 'cdrom' ? undefined : volid;
}

/**
 * What create writes into the VM (spec entries 6, 7 and 10, step 6 and 7),
 * computed from a config alone so the template can be refused before any
 * clone exists.
 */
import type { Profile, MachineType } from './profile';
import { bootDisk, diskBytes, type VmConfig } from './boot-disk';
import { permanent } from './errors';
import { checkBridge, checkVlanTag, rewriteNet0 } from './net0';
import { PROXY_TAG } from './tags';

/** What would end a value inside a Proxmox property string (`a=1,b=2`) or its config line: never in a value we write. */
const PROPERTY_BREAKERS = /[,=;\s\p{Cc}]/u;

/** A value written inside a property string: refused when it could add options of its own. */
export function checkPropertyValue(what: string, value: string): void {
  if (value === '' || PROPERTY_BREAKERS.test(value)) {
    throw permanent(
      `the ${what} ${JSON.stringify(value)} cannot go into a Proxmox option: it is empty or holds ",", "=", ";", a space or a control character`,
    );
  }
}

/** The bridge and VLAN tag a proxy's net0 gets: its own (issue 24), else the profile's. `vlanTag` null: no tag. */
export interface NetPlacement {
  bridge?: string | undefined;
  vlanTag?: number | null | undefined;
  /** A MAC net0 must carry (a static address's network-config names the NIC by it: net0.ts proxyMac). */
  mac?: string | undefined;
}

/** The proxy's own bridge and tag over the profile's defaults (a null tag takes the profile's off). */
export function effectiveNet(
  profile: Pick<Profile, 'bridge' | 'vlanTag'>,
  own: Omit<NetPlacement, 'mac'> | undefined,
  mac?: string,
): NetPlacement {
  return {
    bridge: own?.bridge ?? profile.bridge,
    vlanTag: own?.vlanTag === null ? null : (own?.vlanTag ?? profile.vlanTag),
    ...(mac === undefined ? {} : { mac }),
  };
}

/** Step 6's write: size, agent, tag and seed, and net0 only when the proxy or the profile sets a bridge or a VLAN tag. */
export function configParams(profile: NetPlacement, vmid: number, config: VmConfig, machineType: MachineType, seedVolumeId: string) {
  checkPropertyValue('seed volume', seedVolumeId);
  // Checked before anything else, template or not: a bad bridge or tag is the profile's problem, not the template's.
  if (profile.bridge !== undefined && profile.bridge !== '') checkBridge(profile.bridge);
  if (profile.vlanTag !== undefined && profile.vlanTag !== null && profile.vlanTag !== 0) checkVlanTag(profile.vlanTag);
  const params: Record<string, string | number> = {
    cores: machineType.cores,
    memory: machineType.memoryMiB,
    agent: 1,
    tags: PROXY_TAG,
    ide2: `${seedVolumeId},media=cdrom`,
  };
  if (!rewritesNet0(profile)) return params;
  const net0 = config.net0;
  if (!net0) throw permanent(`VM ${vmid} has no net0 to apply the profile's bridge or vlanTag to; the template needs a network device`);
  params.net0 = rewriteNet0(net0, profile.bridge, profile.vlanTag, profile.mac);
  return params;
}

/** Whether step 6 writes net0: only when a bridge or a VLAN tag is set, or a tag taken off (it keeps the VM's own MAC). */
export function rewritesNet0(profile: NetPlacement): boolean {
  return Boolean(profile.bridge) || profile.vlanTag !== undefined || profile.mac !== undefined;
}

export interface ResizePlan {
  disk: string;
  size: string;
}

/** Step 7: grow the boot disk to diskGiB when that is larger than its size; never shrink. */
export function resizePlan(vmid: number, config: VmConfig, diskGiB: number | undefined): ResizePlan | undefined {
  if (!diskGiB) return undefined;
  const disk = bootDisk(config);
  if (!disk) throw permanent(`VM ${vmid} has no boot disk to grow to ${diskGiB}G`);
  const current = diskBytes(config[disk]);
  if (current === undefined) throw permanent(`boot disk ${disk} of VM ${vmid} has no readable size in "${config[disk]}"`);
  return current >= diskGiB * 2 ** 30 ? undefined : { disk, size: `${diskGiB}G` };
}

/**
 * Step 1 of create (spec entry 3): every catalogue key is checked before any
 * backend call, and an unknown one is permanent naming the field and value.
 * A key is looked up among the catalogue's own entries only.
 */
import { permanent } from '../rules/errors';
import { templateVmidFor } from './landing';
import type { MachineType, Profile } from '../rules/profile';
import type { ProxyNetwork } from '../../../../shared/domain/proxy-network';

export interface CreateRequest {
  /** The proxy's UID: the VMID is derived from it, and it is written in the mark. */
  uid: string;
  name: string;
  placement: { zone?: string; machineType: string; image: string };
  /** The cloud-init user-data, byte for byte. Never logged, never in an error. */
  cloudInit: string;
  /**
   * Issue 24: this proxy's bridge and VLAN tag over the profile's (net0), and a static address written into the seed's
   * `network-config` instead of DHCP. Checked in words by the caller (shared/domain/proxy-network.ts networkProblems).
   */
  network?: ProxyNetwork;
}

export interface Placement {
  node: string;
  machineType: MachineType;
  templateVmid: number;
}

/** The entry a catalogue holds under `key` itself, never one it inherits. */
export function ownEntry<T>(catalogue: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(catalogue, key) ? catalogue[key] : undefined;
}

export function resolvePlacement(profile: Profile, request: CreateRequest): Placement {
  if (!request.name) throw permanent('the request has no VM name');
  if (request.name.includes('/')) throw permanent(`the VM name "${request.name}" may not contain "/"`);
  // The name goes into the seed's file name, which goes into ide2's property string.
  if (/[,=;\s\p{Cc}]/u.test(request.name)) {
    throw permanent(`the VM name ${JSON.stringify(request.name)} may not contain ",", "=", ";", a space or a control character`);
  }
  const zone = request.placement.zone ?? '';
  let node: string | undefined;
  if (zone === '') {
    if (profile.nodes.length !== 1) throw permanent('placement.zone is required when the profile lists more than one node');
    node = profile.nodes[0];
  } else {
    node = profile.nodes.find((n) => n === zone);
  }
  if (!node) throw permanent(`placement.zone "${zone}" is not in the profile's nodes`);
  // Own keys only: `constructor` or `toString` must not find what every JavaScript object answers for.
  const machineType = ownEntry(profile.machineTypes, request.placement.machineType);
  if (!machineType) throw permanent(`placement.machineType "${request.placement.machineType}" is not in the profile's machineTypes`);
  const template = ownEntry(profile.templates, request.placement.image);
  if (!template) throw permanent(`placement.image "${request.placement.image}" is not in the profile's templates`);
  // The image's template for this node (issue 11: a template on local storage is cloned on its own node only).
  return { node, machineType, templateVmid: templateVmidFor(template, node) };
}

/**
 * Step 1 of create (spec entry 3): every catalogue key is checked before any
 * backend call, and an unknown one is permanent naming the field and value.
 */
import { permanent } from './errors';
import type { MachineType, Profile } from './profile';

export interface CreateRequest {
  /** The proxy's UID: the VMID is derived from it, and it is written in the mark. */
  uid: string;
  name: string;
  placement: { zone?: string; machineType: string; image: string };
  /** The cloud-init user-data, byte for byte. Never logged, never in an error. */
  cloudInit: string;
}

export interface Placement {
  node: string;
  machineType: MachineType;
  templateVmid: number;
}

export function resolvePlacement(profile: Profile, request: CreateRequest): Placement {
  if (!request.name) throw permanent('the request has no VM name');
  if (request.name.includes('/')) throw permanent(`the VM name "${request.name}" may not contain "/"`);
  const zone = request.placement.zone ?? '';
  let node: string | undefined;
  if (zone === '') {
    if (profile.nodes.length !== 1) throw permanent('placement.zone is required when the profile lists more than one node');
    node = profile.nodes[0];
  } else {
    node = profile.nodes.find((n) => n === zone);
  }
  if (!node) throw permanent(`placement.zone "${zone}" is not in the profile's nodes`);
  const machineType = profile.machineTypes[request.placement.machineType];
  if (!machineType) throw permanent(`placement.machineType "${request.placement.machineType}" is not in the profile's machineTypes`);
  const template = profile.templates[request.placement.image];
  if (!template) throw permanent(`placement.image "${request.placement.image}" is not in the profile's templates`);
  return { node, machineType, templateVmid: template.vmid };
}

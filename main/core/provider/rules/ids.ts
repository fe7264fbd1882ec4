/**
 * The provider ID `vms/<vmid>/<name>` (spec entry 1). It carries no node, so
 * a VM migrated between nodes stays addressable; it carries the name, so Get
 * and Delete can tell our VM from another that later received the same VMID.
 */
import { permanent } from './errors';

export const MIN_VMID = 100;
export const MAX_VMID = 999_999_999;

export interface ParsedId {
  vmid: number;
  name: string;
}

export function formatProviderId(vmid: number, name: string): string {
  return `vms/${vmid}/${name}`;
}

const vmidText = /^[1-9][0-9]{0,8}$/;

/** Strict: three segments, the literal `vms`, a VMID without leading zeros in 100..999999999, a non-empty name. */
export function parseProviderId(id: string): ParsedId {
  const parts = id.split('/');
  const [prefix, vmidPart, name] = parts;
  if (parts.length !== 3 || prefix !== 'vms' || !name || vmidPart === undefined) {
    throw permanent(`malformed VM ID "${id}": want vms/<vmid>/<name>`);
  }
  const vmid = Number(vmidPart);
  if (!vmidText.test(vmidPart) || vmid < MIN_VMID || vmid > MAX_VMID) {
    throw permanent(`malformed VM ID "${id}": "${vmidPart}" is not a VMID`);
  }
  return { vmid, name };
}

/**
 * The two roles of spec entry 14, as verified on Proxmox VE 9.2.20, and the
 * names the operator's guide gives them. The doctor compares the token's
 * privileges with these and prints the commands that create them.
 */
import { OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from '../../core';

export interface RequiredRole {
  /** The role name the guide uses. */
  role: string;
  privileges: readonly string[];
  /** Why this role is needed where it is granted. */
  why: string;
}

export const ROOT_ROLE: RequiredRole = {
  role: 'ProxyOperator',
  privileges: OPERATOR_ROOT_PRIVILEGES,
  why: 'clone, configure, resize, start, stop, reboot, migrate and destroy VMs, read the guest agent, upload seeds and put a VLAN tag on a bridge',
};

export const SEED_ROLE: RequiredRole = {
  role: 'ProxyOperatorSeeds',
  privileges: SEED_STORAGE_PRIVILEGES,
  why:
    'deleting a seed needs Datastore.Allocate on its storage; and a grant on /storage/<id> replaces what the user inherits from /, ' +
    'so this role repeats the upload privileges the role on / already gives',
};

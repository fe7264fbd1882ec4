/**
 * The two roles of spec entry 14, as verified on Proxmox VE 9.2.20, and the
 * names the operator's guide gives them. The doctor compares the token's
 * privileges with these and prints the commands that create them.
 */
export interface RequiredRole {
  /** The role name the guide uses. */
  role: string;
  privileges: readonly string[];
  /** Why this role is needed where it is granted. */
  why: string;
}

export const ROOT_ROLE: RequiredRole = {
  role: 'ProxyOperator',
  privileges: [
    'VM.Allocate',
    'VM.Clone',
    'VM.Audit',
    'VM.Config.CDROM',
    'VM.Config.CPU',
    'VM.Config.Memory',
    'VM.Config.Disk',
    'VM.Config.Network',
    'VM.Config.Options',
    'VM.PowerMgmt',
    'VM.GuestAgent.Audit',
    'Datastore.Audit',
    'Datastore.AllocateSpace',
    'Datastore.AllocateTemplate',
    'Sys.Audit',
    'SDN.Use',
  ],
  why: 'clone, configure, resize, start, stop and destroy VMs, read the guest agent, upload seeds and put a VLAN tag on a bridge',
};

export const SEED_ROLE: RequiredRole = {
  role: 'ProxyOperatorSeeds',
  privileges: ['Datastore.Allocate', 'Datastore.AllocateTemplate', 'Datastore.AllocateSpace', 'Datastore.Audit'],
  why:
    'deleting a seed needs Datastore.Allocate on its storage; and a grant on /storage/<id> replaces what the user inherits from /, ' +
    'so this role repeats the upload privileges the role on / already gives',
};

/**
 * Spec entry 14: the privileges a token needs, as verified on Proxmox VE
 * 9.2.20. The connect doctor checks tokens against them, and the simulator
 * grants them to its default tokens, so both read this one list.
 */

/** The role on `/`: clone, configure, resize, power, migrate, agent reads, seed uploads, a VLAN tag on a bridge. */
export const OPERATOR_ROOT_PRIVILEGES = [
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
  // Issue 11: a create on a node the template's local disks cannot reach clones on the template's node, then migrates.
  'VM.Migrate',
  'VM.GuestAgent.Audit',
  'Datastore.Audit',
  'Datastore.AllocateSpace',
  'Datastore.AllocateTemplate',
  'Sys.Audit',
  'SDN.Use',
] as const;

/**
 * The role on `/storage/<isoStorage>`: deleting a seed needs
 * Datastore.Allocate there, and a grant on a more specific path replaces
 * the inherited one, so it repeats the upload privileges of the role on `/`.
 */
export const SEED_STORAGE_PRIVILEGES = [
  'Datastore.Allocate',
  'Datastore.AllocateTemplate',
  'Datastore.AllocateSpace',
  'Datastore.Audit',
] as const;

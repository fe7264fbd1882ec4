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

/** Issue 16: the proxy actions, each with what the token needs for it. */
export type ProxyOperation = 'start' | 'shutdown' | 'stop' | 'reboot' | 'migrate' | 'reconfigure' | 'recreate' | 'delete' | 'console';

/** A privilege on a path; `{vmid}` and `{isoStorage}` are filled in per VM and profile. */
export interface NeededPrivilege {
  path: '/vms/{vmid}' | '/storage/{isoStorage}' | '/';
  privilege: string;
}

const onVm = (privilege: string): NeededPrivilege => ({ path: '/vms/{vmid}', privilege });
const onSeeds = (privilege: string): NeededPrivilege => ({ path: '/storage/{isoStorage}', privilege });

/**
 * What each action sends and the privilege the official API schema (../shared/pve-api, each endpoint's
 * `permissions`) demands for it. All are in the two roles above, so a token with both can do every action.
 * The console is not the token's: it opens the Proxmox web UI on the user's own login, which needs VM.Console
 * (vncproxy, termproxy); the app sends nothing for it.
 */
export const OPERATION_PRIVILEGES: Readonly<Record<ProxyOperation, readonly NeededPrivilege[]>> = {
  // POST …/status/{start,shutdown,stop,reboot,resume}
  start: [onVm('VM.PowerMgmt')],
  shutdown: [onVm('VM.PowerMgmt')],
  stop: [onVm('VM.PowerMgmt')],
  reboot: [onVm('VM.PowerMgmt')],
  // POST …/migrate; the seed's copy (upload), its CD-ROM swaps (PUT …/config ide2), the source copy's delete.
  migrate: [onVm('VM.Migrate'), onVm('VM.Config.CDROM'), onSeeds('Datastore.AllocateTemplate'), onSeeds('Datastore.Allocate')],
  // PUT …/config cores, memory, ide2; PUT …/resize; the seed's upload and the staged copy's delete; the reboot.
  reconfigure: [
    onVm('VM.Config.CPU'),
    onVm('VM.Config.Memory'),
    onVm('VM.Config.Disk'),
    onVm('VM.Config.CDROM'),
    onVm('VM.PowerMgmt'),
    onSeeds('Datastore.AllocateTemplate'),
    onSeeds('Datastore.Allocate'),
  ],
  delete: [onVm('VM.PowerMgmt'), onVm('VM.Allocate'), onSeeds('Datastore.Allocate')],
  // The delete's, then the create's (a clone on /, config, resize, seed upload, start).
  recreate: [
    onVm('VM.PowerMgmt'),
    onVm('VM.Allocate'),
    onSeeds('Datastore.Allocate'),
    { path: '/', privilege: 'VM.Clone' },
    { path: '/', privilege: 'VM.Allocate' },
    onVm('VM.Config.CPU'),
    onVm('VM.Config.Memory'),
    onVm('VM.Config.Disk'),
    onVm('VM.Config.CDROM'),
    onVm('VM.Config.Options'),
    onSeeds('Datastore.AllocateTemplate'),
  ],
  console: [],
};

/** The actions a token lacking `missing` (privilege names on `/`, which /vms/<vmid> inherits) cannot run. */
export function operationsBlockedBy(missing: readonly string[]): ProxyOperation[] {
  const lacking = new Set(missing);
  return (Object.keys(OPERATION_PRIVILEGES) as ProxyOperation[]).filter((op) =>
    OPERATION_PRIVILEGES[op].some((p) => p.path !== '/storage/{isoStorage}' && lacking.has(p.privilege)),
  );
}

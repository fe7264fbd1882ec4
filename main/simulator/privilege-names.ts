/**
 * The privileges Proxmox knows, per simulated release, as pve-access-control states them: the `$privgroups`
 * table of src/PVE/AccessControl.pm (its root, admin, user and audit lists per category) plus
 * `Permissions.Modify`, which is in no group. `pveum role add/modify` (add_role_privs) and the ACL API
 * (verify_privname, the `pve-priv` format) both die with "invalid privilege '<name>'" for any other name.
 *
 * Written from Proxmox's sources, not from the app's core: the core's role tables are checked against this one
 * (test/unit/simulator/privilege-names.test.ts), so a wrong name in the core fails instead of passing on both sides.
 *
 * Which pve-access-control each release ships (git history of github.com/proxmox/pve-access-control):
 * - 7.4: 7.4-3 (f2762a0, 2023-05-16), the last 7.x: VM.Monitor, no SDN.Use, no Sys.AccessNetwork, no Mapping.*.
 * - 8.4: 8.2.2 (25dd375, 2025-04-08; PVE 8.4 was released that month): a62d78d (2023-06-06) added SDN.Use for
 *   8.0, Sys.AccessNetwork and Mapping.* came in 8.x; VM.Monitor still there.
 * - 9.2: 9.1.1 (5ccd07d, 2026-05-15), the newest here: 0706945 "privileges: drop VM.Monitor" and 922f710 "add
 *   VM.GuestAgent privileges" (both 2025-07-17, 9.0.0 on), VM.Replicate.
 */
import type { PveVersion } from './versions';

const COMMON = [
  'Datastore.Allocate',
  'Datastore.AllocateSpace',
  'Datastore.AllocateTemplate',
  'Datastore.Audit',
  'Group.Allocate',
  'Permissions.Modify',
  'Pool.Allocate',
  'Pool.Audit',
  'Realm.Allocate',
  'Realm.AllocateUser',
  'SDN.Allocate',
  'SDN.Audit',
  'Sys.Audit',
  'Sys.Console',
  'Sys.Incoming',
  'Sys.Modify',
  'Sys.PowerMgmt',
  'Sys.Syslog',
  'User.Modify',
  'VM.Allocate',
  'VM.Audit',
  'VM.Backup',
  'VM.Clone',
  'VM.Config.CDROM',
  'VM.Config.CPU',
  'VM.Config.Cloudinit',
  'VM.Config.Disk',
  'VM.Config.HWType',
  'VM.Config.Memory',
  'VM.Config.Network',
  'VM.Config.Options',
  'VM.Console',
  'VM.Migrate',
  'VM.PowerMgmt',
  'VM.Snapshot',
  'VM.Snapshot.Rollback',
] as const;

const SINCE_8 = ['Mapping.Audit', 'Mapping.Modify', 'Mapping.Use', 'SDN.Use', 'Sys.AccessNetwork'] as const;

const SINCE_9 = [
  'VM.GuestAgent.Audit',
  'VM.GuestAgent.FileRead',
  'VM.GuestAgent.FileSystemMgmt',
  'VM.GuestAgent.FileWrite',
  'VM.GuestAgent.Unrestricted',
  'VM.Replicate',
] as const;

/** Every privilege name each release accepts. */
export const PRIVILEGE_NAMES: Readonly<Record<PveVersion, ReadonlySet<string>>> = {
  '7.4': new Set([...COMMON, 'VM.Monitor']),
  '8.4': new Set([...COMMON, ...SINCE_8, 'VM.Monitor']),
  '9.2': new Set([...COMMON, ...SINCE_8, ...SINCE_9]),
};

/** What `pveum role add <role> -privs <list>` refuses on `release`, in Proxmox's words; none when all are valid. */
export function invalidPrivileges(release: PveVersion, privileges: readonly string[]): string[] {
  return privileges.filter((privilege) => !PRIVILEGE_NAMES[release].has(privilege)).map((privilege) => `invalid privilege '${privilege}'`);
}

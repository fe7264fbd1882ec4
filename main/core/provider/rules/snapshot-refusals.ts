/**
 * Issue 25: the snapshot operations' refusals in plain words with what to do (operations/snapshots.ts). Proxmox's
 * words are the task's exitstatus (pve-guest-common src/PVE/AbstractConfig.pm __snapshot_prepare, snapshot_rollback,
 * snapshot_delete; check_lock): "snapshot feature is not available", "snapshot name '…' already used",
 * "VM is locked (…)", "snapshot '…' does not exist", "unable to rollback to incomplete snapshot (…)".
 */
import { TaskFailedError } from '../../pve/failures';
import { notFound, ProviderError, transient } from './errors';
import { ownSnapshot } from './snapshots';

/** The ProviderError codes a caller can act on. */
export const SNAPSHOT_CODES = {
  /** A disk cannot snapshot: say so and ask whether to go on without one. */
  unsupported: 'snapshot-unsupported',
  nameTaken: 'snapshot-name-taken',
  /** Not one of the app's snapshots: listed, never rolled back or deleted here. */
  notOurs: 'snapshot-not-ours',
  incomplete: 'snapshot-incomplete',
  notTheOne: 'not-the-one',
} as const;

/** Proxmox's task words, in plain words with what to do. */
export function taskRefusal(e: unknown, vmid: number, name: string): unknown {
  if (!(e instanceof TaskFailedError)) return e;
  const text = e.exitstatus;
  if (/snapshot feature is not available/.test(text))
    return new ProviderError(
      'permanent',
      `Proxmox cannot snapshot VM ${vmid}: a disk is on a storage or in a format without snapshots (Proxmox: ${text}).`,
      undefined,
      undefined,
      'Move the disk to LVM-thin, ZFS, Ceph RBD or a qcow2 image, or go on without a snapshot.',
      SNAPSHOT_CODES.unsupported,
    );
  if (/already used/.test(text))
    return new ProviderError(
      'permanent',
      `VM ${vmid} already has a snapshot named ${name} (Proxmox: ${text}).`,
      undefined,
      undefined,
      'Wait a second and take it again: the name carries the time.',
      SNAPSHOT_CODES.nameTaken,
    );
  const lock = /is locked \(([^)]+)\)/.exec(text);
  if (lock)
    return transient(
      `VM ${vmid} is locked (${lock[1]!}): a task holds it (Proxmox: ${text})`,
      `Wait for the ${lock[1]!} task on VM ${vmid} to end (see its tasks in the Proxmox UI), then try again.`,
    );
  if (/does not exist/.test(text)) return notFound(`VM ${vmid} has no snapshot named ${name} (Proxmox: ${text}); refresh the list.`);
  if (/incomplete snapshot/.test(text))
    return new ProviderError(
      'permanent',
      `Snapshot ${name} of VM ${vmid} is incomplete (Proxmox: ${text}).`,
      undefined,
      undefined,
      'Delete it and take a new one.',
      SNAPSHOT_CODES.incomplete,
    );
  return e;
}

export function refuseIfNotOurs(vmid: number, name: string): void {
  if (ownSnapshot(name)) return;
  throw new ProviderError(
    'permanent',
    `Snapshot ${name} of VM ${vmid} was not taken by Egress Desk; nothing was sent.`,
    undefined,
    undefined,
    'Roll back or delete it in the Proxmox UI if you mean to.',
    SNAPSHOT_CODES.notOurs,
  );
}

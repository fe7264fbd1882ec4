/**
 * Issue 25: a VM's snapshots: list, create, the section's config, rollback and delete, as
 * proxmox/qemu-server@e6352be6 src/PVE/API2/Qemu.pm (snapshot_list, snapshot, get_snapshot_config,
 * update_snapshot_config, rollback, delsnapshot) and proxmox/pve-guest-common@4a8f6cbf src/PVE/AbstractConfig.pm
 * (__snapshot_prepare, __snapshot_commit, snapshot_rollback, snapshot_delete) do them. What can snapshot and what a
 * section keeps: ../snapshots.ts.
 *
 * - Privileges (the methods' `permissions`, the same on stable-7, stable-bookworm and master): list VM.Audit; create,
 *   delete and the description's PUT VM.Snapshot; rollback any of VM.Snapshot, VM.Snapshot.Rollback; the section's
 *   config any of those two or VM.Audit. 9.2 adds VM.PowerMgmt for a rollback with `start` (versions.ts).
 * - The name: `pve-snapshot-name` (pve-common JSONSchema.pm: format pve-configid, `^[a-z][a-z0-9_-]+$`i,
 *   maxLength 40), a 400 at parameter verification; `current` and `pending` (case-folded) are refused before the
 *   task (500).
 * - Everything else is inside the task, so the POST answers a UPID and the task fails with Proxmox's words: a
 *   template, a lock ("VM is locked (backup)"), a name in use, "snapshot feature is not available", a missing
 *   snapshot, an incomplete one. While the task runs the VM holds `lock: snapshot` (create), `rollback` or
 *   `snapshot-delete`, and a new section shows `snapstate: prepare` until __snapshot_commit.
 * - Rollback stops a running VM hard first (QemuConfig.pm __snapshot_rollback_vm_stop: vm_stop with a 5 s timeout),
 *   starts it again when the snapshot has RAM (`vmstate`) or `start=1` asked.
 * - Not modelled: `vmstate=1`'s state volume allocation and the agent's freeze (the simulator records `vmstate` only),
 *   replication snapshots, `force`'s partial deletes (every volume deletes), check_non_migratable_resources, and
 *   9.x's refusal to delete the top-most snapshot of a running VM's qcow2 TPM state on a `snapshot-as-volume-chain`
 *   storage (API2/Qemu.pm assert_tpm_snapshot_delete_possible).
 */
import type { Route, RouteRequest } from '../context';
import { paramError, textError, vmLocked } from '../errors';
import { isTrue, optBool, optStr, str } from '../params';
import { appliedConfig, snapshotConfigAnswer, snapshotConfigOf, snapshotList, vmCanSnapshot } from '../snapshots';
import { isUp, type SimVm } from '../state';
import { TaskFailure } from '../tasks';
import { message } from '../texts';
import { digestOf, viewOf } from './vm-config';
import { requireVm, vmOf, vmPathParams } from './vm-common';

const CONFIGID = /^[a-z][a-z0-9_-]+$/i;
const snapParams = { ...vmPathParams, snapname: str };

/** pve-snapshot-name: the format's and maxLength's 400 (JSONSchema.pm check_format / "value may only be 40 characters long"). */
function checkName(name: string): void {
  if (name.length > 40) throw paramError({ snapname: 'value may only be 40 characters long' });
  if (!CONFIGID.test(name)) throw paramError({ snapname: `invalid format - invalid configuration ID '${name}'` });
}

/** `{snapname}` of the path, or the create's form field. */
const snapnameOf = (req: RouteRequest): string => req.path.snapname ?? req.params.snapname!;

const failure = (name: Parameters<typeof message>[0], snapname: string) => new TaskFailure(message(name, { 'before-change': snapname }));

/** AbstractConfig.pm check_lock: any lock refuses ("VM is locked (<lock>)"). */
function checkLock(vm: SimVm): void {
  if (vm.lock) throw new TaskFailure(message('locked', { '(clone)': `(${vm.lock})` }));
}

function holdLock(req: RouteRequest, vm: SimVm, lock: string, upid: string): void {
  req.sim.state.setLock(vm.vmid, lock);
  vm.lockTask = upid;
}

function dropLock(req: RouteRequest, vm: SimVm): void {
  if (req.sim.state.vm(vm.vmid) !== vm) return;
  req.sim.state.setLock(vm.vmid, undefined);
  delete vm.lockTask;
}

function create(req: RouteRequest): string {
  const vm = vmOf(req);
  const name = snapnameOf(req);
  checkName(name);
  if (name === 'current') throw textError('snapshotReserved', 500);
  if (name.toLowerCase() === 'pending') throw textError('snapshotReserved', 500, { current: 'pending' });
  const task = req.sim.tasks.start(vm.node, 'qmsnapshot', vm.vmid, { tokenId: req.tokenId }, async (t) => {
    // __snapshot_prepare, under the config lock, in this order.
    if (vm.template) throw failure('snapshotTemplate', name);
    checkLock(vm);
    holdLock(req, vm, 'snapshot', t.upid);
    try {
      if (vm.snapshots?.[name]) throw failure('snapshotNameUsed', name);
      if (!vmCanSnapshot(req.sim.state, vm)) throw failure('snapshotUnavailable', name);
      const snap = {
        config: snapshotConfigOf(vm.config),
        snaptime: Math.floor(req.sim.clock.now() / 1000),
        snapstate: 'prepare' as const,
        ...(req.params.description ? { description: req.params.description } : {}),
        ...(vm.parent ? { parent: vm.parent } : {}),
        // QemuConfig.pm __snapshot_save_vmstate: a state volume, only when asked and the VM runs.
        ...(isTrue(req.params.vmstate) && isUp(vm.power) ? { vmstate: `local-lvm:vm-${vm.vmid}-state-${name}` } : {}),
      };
      vm.snapshots = { ...vm.snapshots, [name]: snap };
      for (const [key, value] of Object.entries(snap.config))
        if (/^(ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/.test(key) && !String(value).includes('media=cdrom'))
          t.log.push(`snapshotting 'drive-${key}' (${String(value).split(',')[0]})`);
      await req.sim.clock.sleep(req.sim.durations.qmsnapshot);
      // __snapshot_commit: the state cleared, the lock removed, the current config's parent is the new snapshot.
      delete vm.snapshots[name]!.snapstate;
      vm.parent = name;
    } finally {
      dropLock(req, vm);
    }
  });
  return task.upid;
}

function rollback(req: RouteRequest): string {
  const vm = vmOf(req);
  const name = snapnameOf(req);
  checkName(name);
  const start = isTrue(req.params.start);
  if (start && req.sim.version.rollbackStartNeedsPowerMgmt) requireVm(req, ['VM.PowerMgmt']);
  const task = req.sim.tasks.start(vm.node, 'qmrollback', vm.vmid, { tokenId: req.tokenId }, async (t) => {
    if (vm.template) throw new TaskFailure("you can't rollback if vm is a template");
    const snap = vm.snapshots?.[name];
    if (!snap) throw failure('snapshotMissing', name);
    if (snap.snapstate) throw new TaskFailure(message('snapshotIncomplete', { prepare: snap.snapstate }));
    checkLock(vm);
    // __snapshot_rollback_vm_stop: a hard stop, then the lock.
    if (isUp(vm.power)) req.sim.state.setPower(vm.vmid, 'stopped');
    holdLock(req, vm, 'rollback', t.upid);
    try {
      await req.sim.clock.sleep(req.sim.durations.qmrollback);
      vm.config = appliedConfig(vm.config, snap.config);
      delete vm.pending;
      vm.parent = name;
    } finally {
      dropLock(req, vm);
    }
    if (snap.vmstate || start) {
      t.log.push(start && !snap.vmstate ? 'starting VM after rollback' : `resuming VM from state ${snap.vmstate}`);
      req.sim.state.setPower(vm.vmid, 'running');
    }
  });
  return task.upid;
}

function remove(req: RouteRequest): string {
  const vm = vmOf(req);
  const name = snapnameOf(req);
  checkName(name);
  const task = req.sim.tasks.start(vm.node, 'qmdelsnapshot', vm.vmid, { tokenId: req.tokenId }, async (t) => {
    const snap = vm.snapshots?.[name];
    if (!snap) throw failure('snapshotMissing', name);
    checkLock(vm); // set_lock 'snapshot-delete'
    holdLock(req, vm, 'snapshot-delete', t.upid);
    try {
      if (vm.template) throw new TaskFailure("you can't delete a snapshot if vm is a template");
      snap.snapstate = 'delete';
      await req.sim.clock.sleep(req.sim.durations.qmdelsnapshot);
      // The parent references: whatever pointed at this snapshot points at its parent.
      if (vm.parent === name) {
        if (snap.parent) vm.parent = snap.parent;
        else delete vm.parent;
      }
      for (const other of Object.values(vm.snapshots ?? {}))
        if (other.parent === name) {
          if (snap.parent) other.parent = snap.parent;
          else delete other.parent;
        }
      vm.snapshots = Object.fromEntries(Object.entries(vm.snapshots ?? {}).filter(([k]) => k !== name));
    } finally {
      dropLock(req, vm);
    }
  });
  return task.upid;
}

function describe(req: RouteRequest): null {
  const vm = vmOf(req);
  const name = snapnameOf(req);
  checkName(name);
  if (req.params.description === undefined) return null;
  if (vm.lock) throw vmLocked(vm.lock);
  const snap = vm.snapshots?.[name];
  if (!snap) throw textError('snapshotMissing', 500, { 'before-change': name });
  snap.description = req.params.description;
  return null;
}

const BASE = '/nodes/{node}/qemu/{vmid}/snapshot';

export const vmSnapshotRoutes: Route[] = [
  {
    method: 'GET',
    path: BASE,
    params: vmPathParams,
    check: (req) => requireVm(req, ['VM.Audit']),
    handle: (req) => {
      const vm = vmOf(req);
      return snapshotList(vm, isUp(vm.power), digestOf(viewOf(vm)));
    },
  },
  {
    method: 'POST',
    path: BASE,
    params: { ...snapParams, vmstate: optBool, description: optStr },
    check: (req) => requireVm(req, ['VM.Snapshot']),
    handle: create,
  },
  {
    method: 'GET',
    path: `${BASE}/{snapname}`,
    params: snapParams,
    handle: () => [{ cmd: 'rollback' }, { cmd: 'config' }],
  },
  {
    method: 'DELETE',
    path: `${BASE}/{snapname}`,
    params: { ...snapParams, force: optBool },
    check: (req) => requireVm(req, ['VM.Snapshot']),
    handle: remove,
  },
  {
    method: 'GET',
    path: `${BASE}/{snapname}/config`,
    params: snapParams,
    check: (req) => requireVm(req, ['VM.Snapshot', 'VM.Snapshot.Rollback', 'VM.Audit'], 'any'),
    handle: (req) => {
      checkName(snapnameOf(req));
      return snapshotConfigAnswer(vmOf(req), snapnameOf(req));
    },
  },
  {
    method: 'PUT',
    path: `${BASE}/{snapname}/config`,
    params: { ...snapParams, description: optStr },
    check: (req) => requireVm(req, ['VM.Snapshot']),
    handle: describe,
  },
  {
    method: 'POST',
    path: `${BASE}/{snapname}/rollback`,
    params: { ...snapParams, start: optBool },
    check: (req) => requireVm(req, ['VM.Snapshot', 'VM.Snapshot.Rollback'], 'any'),
    handle: rollback,
  },
];

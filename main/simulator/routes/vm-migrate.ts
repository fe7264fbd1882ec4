/**
 * Migration (issue 11 offline; issue 16 online too): POST /nodes/{node}/qemu/{vmid}/migrate with
 * `target`. A running VM needs `online` (else refused at once), keeps running, and its local disks need
 * `with-local-disks` (else the volume scan aborts the task); its memory is copied after the disks. qemu-server's migrate_vm checks synchronously (target not the
 * local node, the VM exists, no lock, not running without `online`, every
 * volume's storage available on the target), then forks a `qmigrate` task
 * that holds `lock: migrate` while it copies every disk on a local storage
 * to the same storage on the target, and moves the config there at the end.
 * A disk on a shared storage is not copied. A CD-ROM holding an ISO on a
 * local storage (our seed) aborts the task, as QemuMigrate's volume scan does.
 *
 * Sources: proxmox/qemu-server@e6352be6 src/PVE/API2/Qemu.pm migrate_vm,
 * src/PVE/QemuServer.pm check_storage_availability, src/PVE/QemuMigrate.pm
 * prepare / scan_local_volumes / phase1; proxmox/pve-guest-common@4a8f6cbf
 * src/PVE/AbstractMigrate.pm migrate ("migration aborted").
 */
import type { Route, RouteRequest } from '../context';
import { fieldText, paramError, textError, vmLocked } from '../errors';
import { isTrue, optBool, optInt, optStr, str } from '../params';
import { diskSize } from '../disks';
import { isUp, type SimVm } from '../state';
import { TaskFailure } from '../tasks';
import { exitStatus } from '../texts';
import { requireVm, vmOf, vmPathParams } from './vm-common';

const VOLUME_KEY = /^(?:ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/;

/** Every volume the config references (disks and CD-ROM ISOs), as `[slot, volid, isCdrom]`; `none`/`cdrom` are no volume. */
function volumes(vm: SimVm): [string, string, boolean][] {
  const out: [string, string, boolean][] = [];
  for (const [key, value] of Object.entries(vm.config)) {
    if (!VOLUME_KEY.test(key) || typeof value !== 'string') continue;
    const volid = value.split(',')[0]!;
    if (volid === 'none' || volid === 'cdrom' || !volid.includes(':')) continue;
    out.push([key, volid, value.includes('media=cdrom')]);
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

/** The migration network of a live migration's memory copy: 1 GbE after TCP and ssh, as landing.ts estimates a move. */
export const MIGRATION_NETWORK_BYTES_PER_SECOND = 110_000_000;

/** The guest's memory: `memory` in MiB (default 512), as a live migration copies it. */
const memoryBytes = (vm: SimVm) => Number(/\d+/.exec(String(vm.config.memory ?? '512'))?.[0] ?? 512) * 1024 * 1024;

const duration = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
};

/**
 * The devices that tie a VM to its node, in config order: qemu-server src/PVE/QemuMigrate/Helpers.pm
 * check_local_resources (QemuServer.pm in 7.x and 8.x): hostusb/hostpci (old syntax), ivshmem, and every
 * usbN/hostpciN/serialN/parallelN/virtiofsN, except a usbN that is `spice` or a mapping, a hostpciN that is a mapping
 * (the simulator has no mappings: a mapped device is taken as present on every node), and a serialN that is a
 * `socket` ("sockets are safe: they will recreated be on the target side"). QemuMigrate.pm prepare refuses the
 * migrate with them unless root forces an offline one: "can't migrate VM which uses local devices: usb0, …".
 */
export function localDevices(vm: SimVm): string[] {
  const out: string[] = [];
  if (vm.config.hostusb) out.push('hostusb');
  if (vm.config.hostpci) out.push('hostpci');
  if (vm.config.ivshmem) out.push('ivshmem');
  for (const [key, raw] of Object.entries(vm.config)) {
    const value = String(raw);
    if (!/^(usb|hostpci|serial|parallel|virtiofs)\d+$/.test(key)) continue;
    if (key.startsWith('usb') && (/(?:^|,)host=spice(?:,|$)/i.test(value) || /(?:^|,)mapping=/.test(value))) continue;
    if (key.startsWith('hostpci') && /(?:^|,)mapping=/.test(value)) continue;
    if (key.startsWith('virtiofs')) continue;
    if (key.startsWith('serial') && value === 'socket') continue;
    out.push(key);
  }
  return out;
}

/** AbstractMigrate.pm migrate: a die in prepare or a phase is logged once, `migration aborted (duration …): <err>`. */
function abortAt(t: { log: string[] }, took: string, err: string): never {
  t.log.push(`ERROR: migration aborted (duration ${took}): ${err}`);
  throw new TaskFailure(exitStatus('migrateAborted'));
}

function migrate(req: RouteRequest): string {
  const vm = vmOf(req);
  const target = req.params.target!;
  const { state } = req.sim;
  if (target === vm.node) throw paramError({ target: fieldText('migrateLocalNode') });
  if (!state.node(target)) throw textError('unknownNode', 500, { 'pv9-9': target });
  if (vm.lock) throw vmLocked(vm.lock);
  // migrate_vm: "can't migrate running VM without --online"; with it, a live migration (issue 16).
  const online = isUp(vm.power) && isTrue(req.params.online);
  if (isUp(vm.power) && !online) throw textError('migrateRunning', 500);
  const withLocalDisks = isTrue(req.params['with-local-disks']);
  // check_storage_availability: every volume's storage must exist on the target (storage_check_node).
  for (const [, volid] of volumes(vm)) {
    const sid = volid.split(':')[0]!;
    if (!state.node(target)!.storages.has(sid))
      throw textError('storageNotOnNode', 500, { "'local-lvm'": `'${sid}'`, "'pv1-2'": `'${target}'` });
  }
  const source = vm.node;
  vm.lock = 'migrate';
  const unlock = () => {
    delete vm.lock;
    delete vm.lockTask;
  };
  const task = req.sim.tasks.start(
    source,
    'qmigrate',
    vm.vmid,
    { tokenId: req.tokenId },
    async (t) => {
      const began = req.sim.clock.now();
      const abort = (...errors: string[]): never => {
        for (const e of errors) t.log.push(`ERROR: ${e}`);
        t.log.push(`ERROR: migration aborted (duration ${duration(req.sim.clock.now() - began)}): ${errors.at(-1) ?? ''}`);
        throw new TaskFailure(exitStatus('migrateAborted'));
      };
      // prepare: the local resources first (check_local_resources), one line, then the ssh test to the target.
      const devices = localDevices(vm);
      if (devices.length > 0) abortAt(t, duration(req.sim.clock.now() - began), `can't migrate VM which uses local devices: ${devices.join(', ')}`);
      if (!state.node(target)?.online) abort("Can't connect to destination address using public key");
      t.log.push(`starting migration of VM ${vm.vmid} to node '${target}'`);
      // scan_local_volumes: an ISO on a local storage in a CD-ROM cannot move.
      const node = state.node(source)!;
      const localCdroms = volumes(vm).filter(([, volid, cdrom]) => cdrom && !node.storages.get(volid.split(':')[0]!)?.shared);
      if (localCdroms.length > 0) {
        for (const [, volid] of localCdroms) t.log.push(`WARN: can't migrate local disk '${volid}': local cdrom image`);
        abort("Problem found while scanning volumes - can't migrate VM - check log");
      }
      const { physics } = req.sim;
      const copies = physics.migrateCopies(vm, target);
      // scan_local_volumes: online, an attached local disk needs with-local-disks (drive-mirror); offline it is copied anyway.
      if (online && !withLocalDisks && copies.length > 0) {
        for (const c of copies)
          t.log.push(
            `WARN: can't migrate local disk '${String(vm.config[c.disk]).split(',')[0]}': can't live migrate attached local disks without with-local-disks option`,
          );
        abort("Problem found while scanning volumes - can't migrate VM - check log");
      }
      for (const c of copies) t.log.push(`found local disk '${String(vm.config[c.disk]).split(',')[0]}' (attached)`);
      if (physics.fixedMs.qmigrate !== undefined) await req.sim.clock.sleep(physics.fixedMs.qmigrate);
      else {
        if (physics.overheadMs.qmigrate > 0) await req.sim.clock.sleep(physics.overheadMs.qmigrate);
        await physics.copy(copies);
        // phase2: a live migration then copies the guest's memory over the migration network.
        if (online) {
          t.log.push(`starting online/live migration on unix:/run/qemu-server/${vm.vmid}.migrate`);
          await req.sim.clock.sleep((memoryBytes(vm) / MIGRATION_NETWORK_BYTES_PER_SECOND) * 1000);
          t.log.push('migration status: completed');
        }
      }
      // phase1 ends by moving the config file to the target node: the VM is the target's from here on.
      vm.node = target;
      t.log.push(`migration finished successfully (duration ${duration(req.sim.clock.now() - began)})`);
      unlock();
    },
    unlock,
  );
  vm.lockTask = task.upid;
  return task.upid;
}

/**
 * GET …/migrate, qemu-server src/PVE/API2/Qemu.pm migrate_vm_precondition (needs VM.Migrate on /vms/{vmid}): the
 * lock checked (check_lock dies), `running`; every other node of the cluster in `allowed_nodes`, or in
 * `not_allowed_nodes` with the storages it lacks (QemuServer.pm check_local_storage_availability, a node that is
 * down included: get_nodelist); `local_disks` (check_vm_disks_local: each volume on a non-shared storage, a CD-ROM
 * marked `cdrom`); `local_resources` (check_local_resources, every usbN/hostpciN… a mapped one included: the mapped
 * ones are also in `mapped-resources`, so what blocks is the difference); later releases' keys per versions.ts.
 */
function precondition(req: RouteRequest): Record<string, unknown> {
  const vm = vmOf(req);
  const { state } = req.sim;
  if (vm.lock) throw vmLocked(vm.lock);
  const source = state.node(vm.node)!;
  const storagesOf = volumes(vm).map(([, volid]) => volid.split(':')[0]!);
  const allowed: string[] = [];
  const notAllowed: Record<string, { unavailable_storages: string[] }> = {};
  for (const node of state.nodes.keys()) {
    if (node === vm.node) continue;
    const missing = [...new Set(storagesOf.filter((sid) => !state.node(node)!.storages.has(sid)))];
    if (missing.length > 0) notAllowed[node] = { unavailable_storages: missing };
    else allowed.push(node);
  }
  const localDisks = volumes(vm)
    .filter(([, volid]) => !source.storages.get(volid.split(':')[0]!)?.shared)
    .map(([key, volid, cdrom]) => ({ volid, ...(cdrom ? { cdrom: 1 } : { size: diskSize(String(vm.config[key])) }) }));
  const mapped = Object.entries(vm.config)
    .filter(([k, v]) => /^(usb|hostpci)\d+$/.test(k) && /(?:^|,)mapping=/.test(String(v)))
    .map(([k]) => k);
  const all = [...localDevices(vm), ...mapped].sort();
  const extras = req.sim.version.migratePreconditionExtras;
  return {
    running: isUp(vm.power) ? 1 : 0,
    allowed_nodes: allowed,
    not_allowed_nodes: notAllowed,
    local_disks: localDisks,
    local_resources: all,
    ...(extras.includes('mapped-resources') ? { 'mapped-resources': mapped } : {}),
    ...(extras.includes('mapped-resource-info') ? { 'mapped-resource-info': {} } : {}),
    ...(extras.includes('has-dbus-vmstate') ? { 'has-dbus-vmstate': 0 } : {}),
  };
}

export const vmMigrateRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/qemu/{vmid}/migrate',
    params: { ...vmPathParams, target: optStr },
    check: (req) => requireVm(req, ['VM.Migrate']),
    handle: precondition,
  },
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/migrate',
    params: {
      ...vmPathParams,
      target: str,
      online: optBool,
      'with-local-disks': optBool,
      'with-conntrack-state': optBool,
      bwlimit: optInt,
    },
    check: (req) => requireVm(req, ['VM.Migrate']),
    handle: migrate,
  },
];

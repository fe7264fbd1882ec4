/**
 * Clone and resize. A clone answers at once with a UPID and leaves a
 * nameless entry with `lock: clone` and `status: unknown` until its task
 * ends (F8); a taken VMID fails synchronously (F4); a storage without image
 * support is refused up front (F15). The clone keeps the description
 * verbatim (F10) and the template's `meta` (F11). Resize is a task; the
 * same size is a no-op and a shrink fails inside the task (F20).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Route, RouteRequest } from '../context';
import { diskEntries, diskSize, formatSize, optionOf, parseSize, withOption } from '../disks';
import { fieldText, noSuchStorage, paramError, pveError, textError } from '../errors';
import { int, optBool, optInt, optStr } from '../params';
import { TaskFailure } from '../tasks';
import { exitStatus, message } from '../texts';
import type { SimVm } from '../state';
import { lockHeldByRunningTask, requireVm, vmOf, vmPathParams } from './vm-common';

function newMac(): string {
  return ['BC', '24', '11', ...[...randomBytes(3)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'))].join(':');
}

/** The clone's config: the source's, with fresh disks, MAC and identity, and the request's name and description. */
function clonedConfig(
  source: Record<string, string | number>,
  newid: number,
  params: Record<string, string>,
  isFileStorage: (storage: string) => boolean,
): Record<string, string | number> {
  const out: Record<string, string | number> = { ...source };
  let disk = 0;
  for (const [key, value] of diskEntries(source)) {
    const storage = params.storage ?? value.split(':')[0]!;
    // File storages (dir, nfs) name volumes `<vmid>/vm-<vmid>-disk-<n>.<fmt>` (pve-storage Plugin.pm), block storages `vm-<vmid>-disk-<n>`.
    const name = isFileStorage(storage) ? `${newid}/vm-${newid}-disk-${disk++}.${params.format ?? 'raw'}` : `vm-${newid}-disk-${disk++}`;
    out[key] = `${storage}:${name},${value.split(',').slice(1).join(',')}`.replace(/,$/, '');
  }
  const net0 = source.net0;
  if (typeof net0 === 'string') out.net0 = net0.replace(/^(\w+)=[0-9A-Fa-f:]{17}/, (_, model: string) => `${model}=${newMac()}`);
  if (source.vmgenid !== undefined) out.vmgenid = randomUUID();
  if (source.smbios1 !== undefined) out.smbios1 = `uuid=${randomUUID()}`;
  out.name = params.name ?? `Copy-of-VM-${String(source.name ?? 'unknown')}`;
  if (params.description !== undefined) out.description = params.description;
  return out;
}

/**
 * The `storage` checks of qemu-server's clone_vm ($load_and_check, issue 11):
 * images content on the local node (F15), then, for another node, the
 * storage must exist there (pve-storage storage_check_node: "storage '…' is
 * not available on node '…'") and be shared ("can't clone to non-shared
 * storage '…'").
 */
function checkStorage(req: RouteRequest, sourceNode: string, crossNode: string | undefined): void {
  const id = req.params.storage;
  if (id === undefined) return;
  const { state } = req.sim;
  // storage_check_enabled($storecfg, $storage) runs on the node in the path (the VM's node), where the API handler runs.
  const s = state.node(sourceNode)?.storages.get(id);
  if (!s) {
    if (state.storageNodes(id).length > 0)
      throw textError('storageNotOnNode', 500, { "'local-lvm'": `'${id}'`, "'pv1-2'": `'${sourceNode}'` });
    throw noSuchStorage();
  }
  if (!s.content.split(',').includes('images')) throw paramError({ storage: fieldText('storageNoImages', { "'local'": `'${id}'` }) });
  if (!crossNode) return;
  if (!state.node(crossNode)?.storages.has(id))
    throw textError('storageNotOnNode', 500, { "'local-lvm'": `'${id}'`, "'pv1-2'": `'${crossNode}'` });
  if (!s.shared) throw textError('cloneNonSharedStorage', 500, { "'local-lvm'": `'${id}'` });
}

/** qemu-server's $check_storage_access_clone: 0 as soon as a disk, or a CD-ROM other than `none`/`cdrom`, sits on a non-shared storage. */
function usesOnlySharedStorage(req: RouteRequest, source: SimVm): boolean {
  const node = req.sim.state.node(source.node);
  for (const [key, value] of Object.entries(source.config)) {
    if (!/^(?:ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/.test(key) || typeof value !== 'string') continue;
    const volid = value.split(',')[0]!;
    if (volid === 'none' || volid === 'cdrom' || !volid.includes(':')) continue;
    if (!node?.storages.get(volid.split(':')[0]!)?.shared) return false;
  }
  return true;
}

function isFull(req: RouteRequest, source: SimVm): boolean {
  // `my $full = $param->{full} // !PVE::QemuConfig->is_template($conf);`
  const full = req.params.full;
  return full === undefined ? !source.template : full === '1' || full === 'true' || full === 'yes' || full === 'on';
}

/**
 * The synchronous checks, in clone_vm's order: target node, storage,
 * linked-clone parameters, storage locality, then the new VMID (F4).
 * A `target` equal to the node in the path is dropped, as clone_vm does
 * (`undef $target` when it is the local node).
 */
function clone(req: RouteRequest): string {
  const source = vmOf(req);
  const newid = Number(req.params.newid);
  const crossNode =
    req.params.target !== undefined && req.params.target !== source.node && req.params.target !== 'localhost'
      ? req.params.target
      : undefined;
  const target = crossNode ?? source.node;
  const { state } = req.sim;
  if (crossNode && !state.node(crossNode)) throw textError('unknownNode', 500, { 'pv9-9': crossNode });
  checkStorage(req, source.node, crossNode);
  const full = isFull(req, source);
  if (req.params.storage !== undefined && !full) throw textError('linkedCloneStorage', 500);
  if (req.params.format !== undefined && !full) throw textError('linkedCloneFormat', 500);
  if (req.params.storage) req.sim.tokens.requireAll(req.tokenId, `/storage/${req.params.storage}`, ['Datastore.AllocateSpace']);
  if (crossNode && !usesOnlySharedStorage(req, source)) throw textError('cloneLocalStorage', 500, { "'pv1-2'": `'${crossNode}'` });
  if (state.vm(newid)) throw textError('newidInUse', 500, { '199999': newid });
  const vm = state.addVm(target, { vmid: newid, config: {} });
  vm.cloning = true;
  vm.lock = 'clone';
  const task = req.sim.tasks.start(
    source.node,
    'qmclone',
    source.vmid,
    { tokenId: req.tokenId },
    async (t) => {
      const { physics } = req.sim;
      const copies = full ? physics.cloneCopies(source, target, req.params.storage) : [];
      for (const [key, value] of diskEntries(source.config))
        t.log.push(`create ${full ? 'full' : 'linked'} clone of drive ${key} (${value.split(',')[0]})`);
      // A fixed taskDurations.qmclone keeps the old fixed timer; else overhead + the copies on shared bandwidth (physics.ts).
      if (physics.fixedMs.qmclone !== undefined) await req.sim.clock.sleep(physics.fixedMs.qmclone);
      else {
        if (physics.overheadMs.qmclone > 0) await req.sim.clock.sleep(physics.overheadMs.qmclone);
        await physics.copy(copies);
      }
      t.log.push(`transferred ${formatSize(diskEntries(source.config).reduce((n, [, v]) => n + diskSize(v), 0))} (100.00%)`);
      const type = (id: string) => state.node(target)?.storages.get(id)?.type;
      vm.config = clonedConfig(source.config, newid, req.params, (id) => type(id) === 'dir' || type(id) === 'nfs');
      if (source.dataBytes) vm.dataBytes = { ...source.dataBytes };
      vm.cloning = false;
      delete vm.lock;
      delete vm.lockTask;
    },
    () => state.removeVm(newid),
  );
  vm.lockTask = task.upid;
  return task.upid;
}

/** PVE 7.4 (versions.ts, resizeIsTask): the same checks and growth inside the request, errors as 500s, `{"data":null}` at the end. */
async function resizeInRequest(req: RouteRequest): Promise<null> {
  const vm = vmOf(req);
  const { disk, size } = req.params as { disk: string; size: string };
  if (vm.lock) throw textError('locked', 500, { '(clone)': `(${vm.lock})` });
  const value = vm.config[disk];
  if (typeof value !== 'string') throw pveError(500, exitStatus('noSuchDisk', { scsi5: disk }));
  const current = diskSize(value);
  const delta = parseSize(size.replace(/^\+/, '')) ?? 0;
  const wanted = size.startsWith('+') ? current + delta : delta;
  if (wanted < current) throw pveError(500, exitStatus('shrink'));
  if (wanted === current) return null;
  await req.sim.clock.sleep(req.sim.durations.resize);
  vm.config[disk] = withOption(value, 'size', formatSize(wanted));
  return null;
}

function resize(req: RouteRequest): string | Promise<null> {
  if (!req.sim.version.resizeIsTask) return resizeInRequest(req);
  const vm = vmOf(req);
  const { disk, size } = req.params as { disk: string; size: string };
  const task = req.sim.tasks.start(vm.node, 'qmresize', vm.vmid, { tokenId: req.tokenId }, async (t) => {
    if (vm.lock && !lockHeldByRunningTask(req, vm)) throw new TaskFailure(message('locked', { '(clone)': `(${vm.lock})` }));
    const value = vm.config[disk];
    if (typeof value !== 'string') throw new TaskFailure(exitStatus('noSuchDisk', { scsi5: disk }));
    const current = diskSize(value);
    const delta = parseSize(size.replace(/^\+/, '')) ?? 0;
    const wanted = size.startsWith('+') ? current + delta : delta;
    if (wanted < current) throw new TaskFailure(exitStatus('shrink'));
    await req.sim.clock.sleep(req.sim.durations.resize); // Proxmox names this task qmresize
    if (wanted > current) {
      vm.config[disk] = withOption(value, 'size', formatSize(wanted));
      t.log.push(`  Size of logical volume ${optionOf(value, 'size') ?? ''} changed to ${formatSize(wanted)}.`);
    }
  });
  return task.upid;
}

export const vmCloneRoutes: Route[] = [
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/clone',
    params: {
      ...vmPathParams,
      newid: int,
      name: {
        type: 'string',
        optional: true,
        pattern: /(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])/,
      },
      description: optStr,
      full: optBool,
      storage: optStr,
      target: optStr,
      pool: optStr,
      format: { type: 'string', optional: true, enum: ['raw', 'qcow2', 'vmdk'] },
      snapname: optStr,
      bwlimit: optInt,
    },
    check: (req) => {
      requireVm(req, ['VM.Clone']);
      req.sim.tokens.requireAll(req.tokenId, `/vms/${req.params.newid}`, ['VM.Allocate']);
    },
    handle: clone,
  },
  {
    method: 'PUT',
    path: '/nodes/{node}/qemu/{vmid}/resize',
    params: {
      ...vmPathParams,
      disk: { type: 'string', pattern: /(?:ide[0-3]|scsi(?:[0-9]|[12][0-9]|30)|virtio(?:[0-9]|1[0-5])|sata[0-5]|efidisk0|tpmstate0)/ },
      size: { type: 'string', pattern: /\+?\d+(?:\.\d+)?[KMGT]?/ },
      digest: optStr,
      skiplock: optBool,
    },
    check: (req) => requireVm(req, ['VM.Config.Disk']),
    handle: resize,
  },
];

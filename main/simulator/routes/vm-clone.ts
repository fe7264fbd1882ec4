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
import { fieldText, noSuchStorage, paramError, textError } from '../errors';
import { int, optBool, optInt, optStr } from '../params';
import { TaskFailure } from '../tasks';
import { exitStatus, message } from '../texts';
import { lockHeldByRunningTask, requireVm, vmOf, vmPathParams } from './vm-common';

function newMac(): string {
  return ['BC', '24', '11', ...[...randomBytes(3)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'))].join(':');
}

/** The clone's config: the source's, with fresh disks, MAC and identity, and the request's name and description. */
function clonedConfig(
  source: Record<string, string | number>,
  newid: number,
  params: Record<string, string>,
): Record<string, string | number> {
  const out: Record<string, string | number> = { ...source };
  let disk = 0;
  for (const [key, value] of diskEntries(source)) {
    const storage = params.storage ?? value.split(':')[0]!;
    out[key] = `${storage}:vm-${newid}-disk-${disk++},${value.split(',').slice(1).join(',')}`.replace(/,$/, '');
  }
  const net0 = source.net0;
  if (typeof net0 === 'string') out.net0 = net0.replace(/^(\w+)=[0-9A-Fa-f:]{17}/, (_, model: string) => `${model}=${newMac()}`);
  if (source.vmgenid !== undefined) out.vmgenid = randomUUID();
  if (source.smbios1 !== undefined) out.smbios1 = `uuid=${randomUUID()}`;
  out.name = params.name ?? `Copy-of-VM-${String(source.name ?? 'unknown')}`;
  if (params.description !== undefined) out.description = params.description;
  return out;
}

function checkStorage(req: RouteRequest, targetNode: string): void {
  const id = req.params.storage;
  if (id === undefined) return;
  const s = req.sim.state.node(targetNode)?.storages.get(id);
  if (!s) throw noSuchStorage();
  if (!s.content.split(',').includes('images')) throw paramError({ storage: fieldText('storageNoImages', { "'local'": `'${id}'` }) });
}

function clone(req: RouteRequest): string {
  const source = vmOf(req);
  const newid = Number(req.params.newid);
  const target = req.params.target ?? source.node;
  if (req.params.storage) req.sim.tokens.requireAll(req.tokenId, `/storage/${req.params.storage}`, ['Datastore.AllocateSpace']);
  if (req.sim.state.vm(newid)) throw textError('newidInUse', 500, { '199999': newid });
  if (!req.sim.state.node(target)) throw textError('unknownNode', 500, { 'pv9-9': target });
  checkStorage(req, target);
  const { state } = req.sim;
  const vm = state.addVm(target, { vmid: newid, config: {} });
  vm.cloning = true;
  vm.lock = 'clone';
  const task = req.sim.tasks.start(
    source.node,
    'qmclone',
    source.vmid,
    { tokenId: req.tokenId },
    async (t) => {
      for (const [key, value] of diskEntries(source.config)) t.log.push(`create full clone of drive ${key} (${value.split(',')[0]})`);
      await req.sim.clock.sleep(req.sim.durations.qmclone);
      t.log.push(`transferred ${formatSize(diskEntries(source.config).reduce((n, [, v]) => n + diskSize(v), 0))} (100.00%)`);
      vm.config = clonedConfig(source.config, newid, req.params);
      vm.cloning = false;
      delete vm.lock;
      delete vm.lockTask;
    },
    () => state.removeVm(newid),
  );
  vm.lockTask = task.upid;
  return task.upid;
}

function resize(req: RouteRequest): string {
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

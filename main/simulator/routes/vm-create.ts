/**
 * Issue 14: POST /nodes/{node}/qemu, a VM created with `import-from` (the
 * step of a template build after download-url.ts). qemu-server
 * src/PVE/API2/Qemu.pm `create_vm` ($check_storage_access,
 * $check_drive_param, $check_vm_modify_config_perm,
 * $check_vm_create_serial_perm); a `qmcreate` task under `lock: create`,
 * which on failure removes the VM.
 *
 * Texts: the sim_* fixtures named in main/simulator/texts.ts (each cites its source).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Route, RouteRequest } from '../context';
import { formatSize } from '../disks';
import { fieldText, paramError, pveError, textError } from '../errors';
import { simImages } from '../images';
import { int, optBool, optInt, optStr, str, type ParamSpec } from '../params';
import { TaskFailure } from '../tasks';
import { exitStatus } from '../texts';
import { CAPTURED_FILE, contents, FILE_BASED, storageOn } from './storage-common';
import { requireVm } from './vm-common';

const DRIVE = /^(?:ide[0-3]|sata[0-5]|scsi(?:[0-9]|[12][0-9]|30)|virtio(?:[0-9]|1[0-5])|efidisk0|tpmstate0)$/;
const NEW_DISK = /^([a-zA-Z][a-zA-Z0-9\-_.]*):(\d+(?:\.\d+)?)$/;

const CPU = new Set(['cores', 'cpu', 'sockets', 'vcpus', 'numa', 'cpulimit', 'cpuunits']);
const MEMORY = new Set(['memory', 'balloon', 'shares']);
const HWTYPE = new Set(['machine', 'scsihw', 'vga', 'smbios1', 'tablet', 'acpi', 'kvm', 'hotplug']);
const OPTIONS = new Set(['agent', 'bios', 'description', 'name', 'ostype', 'onboot', 'protection', 'startup', 'template']);
const DISKOPT = new Set(['boot', 'bootdisk']);

/** $check_vm_modify_config_perm (and serial sockets, $check_vm_create_serial_perm): the privilege each key needs on /vms/{vmid}. */
function privilegeFor(key: string, value: string): string | undefined {
  if (DRIVE.test(key) || key === 'vmid' || key === 'node' || key === 'tags' || key === 'pool' || key === 'storage') return undefined;
  if (/^serial\d$/.test(key)) return value === 'socket' ? 'VM.Config.HWType' : 'Sys.Root';
  if (CPU.has(key)) return 'VM.Config.CPU';
  if (MEMORY.has(key)) return 'VM.Config.Memory';
  if (HWTYPE.has(key)) return 'VM.Config.HWType';
  if (OPTIONS.has(key)) return 'VM.Config.Options';
  if (DISKOPT.has(key)) return 'VM.Config.Disk';
  if (/^net\d+$/.test(key)) return 'VM.Config.Network';
  return 'Sys.Root';
}

function option(value: string, key: string): string | undefined {
  return value
    .split(',')
    .map((p) => p.split('='))
    .find(([k]) => k === key)?.[1];
}

interface ImportSource {
  storage: string;
  vtype: string;
  name: string;
}

function parseSource(volid: string): ImportSource | undefined {
  const m = /^([a-zA-Z][a-zA-Z0-9\-_.]*):(?:(iso|import|images|vztmpl|snippets|backup)\/)?(.+)$/.exec(volid);
  if (!m) return undefined;
  return { storage: m[1]!, vtype: m[2] ?? 'images', name: m[3]! };
}

function checkCreate(req: RouteRequest): void {
  const { sim, tokenId, params } = req;
  const vmid = params.vmid!;
  sim.tokens.requireAll(tokenId, `/vms/${vmid}`, ['VM.Allocate']);
  // $check_storage_access: new disks need AllocateSpace and images content; import sources their own access.
  for (const [key, value] of Object.entries(params)) {
    if (!DRIVE.test(key) || value.includes('media=cdrom')) continue;
    const file = value.split(',')[0]!;
    const m = NEW_DISK.exec(file);
    if (m) {
      sim.tokens.requireAll(tokenId, `/storage/${m[1]}`, ['Datastore.AllocateSpace']);
      const s = storageOn(req, m[1]!);
      if (!contents(s).includes('images'))
        throw paramError({ storage: fieldText('createStorageNoImages', { "'local'": `'${s.storage}'` }) });
    }
    const from = option(value, 'import-from');
    if (from) {
      const src = parseSource(from);
      if (src) {
        if (src.vtype !== 'images' && src.vtype !== 'import')
          throw paramError({
            [key]: fieldText('createImportWrongType', { 'local:iso/debian.iso': from, "'iso'": `'${src.vtype}'`, scsi0: key }),
          });
        // pve-storage check_volume_access: Datastore.Allocate, or for import/iso/vztmpl AllocateSpace|Audit.
        if (!sim.tokens.holds(tokenId, `/storage/${src.storage}`, 'Datastore.Allocate'))
          sim.tokens.requireAny(tokenId, `/storage/${src.storage}`, ['Datastore.AllocateSpace', 'Datastore.Audit']);
      } else if (tokenId !== 'root@pam') {
        throw pveError(500, 'Only root can pass arbitrary filesystem paths.');
      }
    }
  }
  for (const [key, value] of Object.entries(params)) {
    const privilege = privilegeFor(key, value);
    if (privilege === 'Sys.Root') throw pveError(500, `only root can set '${key}' config`);
    if (privilege) requireVm({ ...req, path: { ...req.path, vmid } }, [privilege]);
  }
  // $check_drive_param: import-from needs the `<storage>:0` form.
  for (const [key, value] of Object.entries(params)) {
    if (!DRIVE.test(key) || !option(value, 'import-from')) continue;
    const m = NEW_DISK.exec(value.split(',')[0]!);
    if (!m || Number(m[2]) !== 0) throw paramError({ [key]: fieldText('createImportSyntax', { scsi0: key }) });
  }
}

function newMac(): string {
  return ['BC', '24', '11', ...[...randomBytes(3)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'))].join(':');
}

function createVm(req: RouteRequest): string {
  const { sim, params } = req;
  const node = req.path.node!;
  const vmid = Number(params.vmid);
  const { state } = sim;
  if (state.vm(vmid)) throw textError('createVmidExists', 500, { '199999': vmid, "'pv1-1'": `'${state.vm(vmid)!.node}'` });
  const vm = state.addVm(node, { vmid, config: {} });
  vm.lock = 'create';
  const images = simImages(sim);
  const task = sim.tasks.start(
    node,
    'qmcreate',
    vmid,
    { tokenId: req.tokenId },
    async (t) => {
      const config: Record<string, string | number> = {};
      const dataBytes: Record<string, number> = {};
      let n = 0;
      const isFile = (id: string) => FILE_BASED.has(state.node(node)?.storages.get(id)?.type ?? '');
      const volName = (id: string, fmt: string) => (isFile(id) ? `${vmid}/vm-${vmid}-disk-${n++}.${fmt}` : `vm-${vmid}-disk-${n++}`);
      for (const [key, value] of Object.entries(params).sort(([a], [b]) =>
        a === 'efidisk0' ? -1 : b === 'efidisk0' ? 1 : a.localeCompare(b),
      )) {
        if (key === 'vmid' || key === 'node') continue;
        if (!DRIVE.test(key) || value.includes('media=cdrom')) {
          config[key] = /^net\d+$/.test(key) ? value.replace(/^(\w+)(?=,|$)/, (model) => `${model}=${newMac()}`) : value;
          continue;
        }
        const m = NEW_DISK.exec(value.split(',')[0]!)!;
        const target = m[1]!;
        const rest = value
          .split(',')
          .slice(1)
          .filter((p) => !p.startsWith('import-from='));
        const from = option(value, 'import-from');
        if (key === 'efidisk0') {
          const volid = `${target}:${volName(target, 'raw')}`;
          config[key] = [volid, ...rest, 'size=4M'].join(',');
          dataBytes[key] = 528 * 1024;
          t.log.push(`${key}: successfully created disk '${config[key]}'`);
          continue;
        }
        if (from) {
          const src = parseSource(from)!;
          const source = src.vtype === 'import' ? images.volume(node, src.storage, src.name) : undefined;
          if (!source)
            throw new TaskFailure(exitStatus('createSourceMissing', { '199999': vmid, [`'local:import/${CAPTURED_FILE}'`]: `'${from}'` }));
          t.log.push(`transferred 0.0 B of ${formatSize(source.virtualBytes)} (0.00%)`);
          await sim.physics.flows.transfer(source.bytes, [sim.physics.storageKey(node, src.storage), sim.physics.storageKey(node, target)]);
          t.log.push(`transferred ${formatSize(source.virtualBytes)} of ${formatSize(source.virtualBytes)} (100.00%)`);
          const volid = `${target}:${volName(target, 'raw')}`;
          config[key] = [volid, ...rest, `size=${formatSize(source.virtualBytes)}`].join(',');
          dataBytes[key] = source.bytes;
          t.log.push(`${key}: successfully created disk '${config[key]}'`);
          continue;
        }
        const volid = `${target}:${volName(target, 'raw')}`;
        config[key] = [volid, ...rest, `size=${m[2]}G`].join(',');
        t.log.push(`${key}: successfully created disk '${config[key]}'`);
      }
      config.meta = `creation-qemu=11.0.3,ctime=${Math.floor(Date.now() / 1000)}`;
      config.vmgenid = randomUUID();
      config.smbios1 = `uuid=${randomUUID()}`;
      vm.config = config;
      vm.dataBytes = dataBytes;
      delete vm.lock;
      delete vm.lockTask;
    },
    () => state.removeVm(vmid), // the qmcreate worker frees the volumes it made and unlinks the config
  );
  vm.lockTask = task.upid;
  return task.upid;
}

const drive: ParamSpec = { type: 'string', optional: true };

export const vmCreateRoutes: Route[] = [
  {
    method: 'POST',
    path: '/nodes/{node}/qemu',
    params: {
      node: str,
      vmid: int,
      name: {
        type: 'string',
        optional: true,
        pattern: /(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])/,
      },
      description: optStr,
      cores: optInt,
      sockets: optInt,
      memory: optStr,
      ostype: {
        type: 'string',
        optional: true,
        enum: ['other', 'wxp', 'w2k', 'w2k3', 'w2k8', 'wvista', 'win7', 'win8', 'win10', 'win11', 'l24', 'l26', 'solaris'],
      },
      bios: { type: 'string', optional: true, enum: ['seabios', 'ovmf'] },
      machine: optStr,
      scsihw: { type: 'string', optional: true, enum: ['lsi', 'lsi53c810', 'virtio-scsi-pci', 'virtio-scsi-single', 'megasas', 'pvscsi'] },
      agent: optStr,
      vga: optStr,
      boot: optStr,
      efidisk0: drive,
      tags: optStr,
      onboot: optBool,
      pool: optStr,
      storage: optStr,
      start: optBool,
    },
    indexed: [
      [/^(?:scsi(?:[0-9]|[12][0-9]|30)|sata[0-5]|ide[0-3]|virtio(?:[0-9]|1[0-5]))$/, drive],
      [/^net\d+$/, drive],
      [/^serial[0-3]$/, { type: 'string', optional: true, pattern: /(?:\/dev\/.+|socket)/ }],
    ],
    check: checkCreate,
    handle: createVm,
  },
];

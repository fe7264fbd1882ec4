/**
 * Issue 14: building a template from a cloud image over the API.
 *
 * - POST /nodes/{node}/storage/{storage}/download-url: pve-storage
 *   src/PVE/API2/Storage/Status.pm `download_url` (checks, texts, the
 *   `download` task named after the file) and pve-common PVE::Tools
 *   `download_file_from_url` (the log: wget's `--progress=dot:giga` rows,
 *   `calculating checksum...OK, checksum verified`, the existing-file cases;
 *   a failure leaves no file). Takes size / min(storage bandwidth, download
 *   link) on simulated time; a full storage fails after writing what fits.
 * - POST /nodes/{node}/qemu: qemu-server src/PVE/API2/Qemu.pm `create_vm`
 *   with `import-from` ($check_storage_access, $check_drive_param,
 *   $check_vm_modify_config_perm, $check_vm_create_serial_perm); a
 *   `qmcreate` task under `lock: create`, which on failure removes the VM.
 * - POST /nodes/{node}/qemu/{vmid}/template: qemu-server `template`, a
 *   `qmtemplate` task that renames the disks to base-… volumes.
 * - GET /cluster/nextid: pve-manager PVE/API2/Cluster.pm `nextid`.
 *
 * Texts: the sim_* fixtures named in main/simulator/texts.ts (each cites its source).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Route, RouteRequest } from '../context';
import { diskEntries, formatSize } from '../disks';
import { fieldText, forbidden, noSuchStorage, paramError, pveError, textError } from '../errors';
import { simImages, storagePath, wgetRate, wgetRow } from '../images';
import { int, optBool, optInt, optStr, str, type ParamSpec } from '../params';
import type { SimVm } from '../state';
import { TaskFailure } from '../tasks';
import { exitStatus, fieldError } from '../texts';
import type { StorageDefinition } from '../types';
import { storageUsage } from '../views';
import { requireVm, vmOf } from './vm-common';

const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
type Algo = (typeof CHECKSUM_ALGORITHMS)[number];
const ROW = 32 * 1024 * 1024;
const FILE_BASED = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'btrfs', 'glusterfs']);
const CAPTURED_HEX_GOT = 'd41d8cd98f00b204e9800998ecf8427e';
const CAPTURED_HEX_EXPECT = '0cc175b9c0f1b6a831c399e269772661';
const CAPTURED_FILE = 'debian-12-genericcloud-amd64.qcow2';

function storageOn(req: RouteRequest, id: string): StorageDefinition {
  const s = req.sim.state.node(req.path.node!)?.storages.get(id);
  if (!s) throw noSuchStorage();
  return s;
}

const contents = (s: StorageDefinition) => s.content.split(',');

/** pve-storage `normalize_content_filename`: any path part goes, unsafe characters become `_`. */
function normalize(filename: string): string {
  return (filename.split('/').pop() ?? filename).replace(/[^a-zA-Z0-9\-.+=_]/g, '_');
}

/** download_url's `check`: Datastore.AllocateTemplate on the storage and (Sys.Audit + Sys.Modify on / or Sys.AccessNetwork on the node). */
function checkDownload(req: RouteRequest): void {
  const { sim, tokenId, path, params } = req;
  // Parameter verification first (server.ts ran it against the newest enum): the release's own enum.
  if (!sim.version.downloadUrlContents.includes(params.content!))
    throw paramError({
      content: fieldText('paramEnum', { vms: params.content!, 'vm, storage, node, sdn': sim.version.downloadUrlContents.join(', ') }),
    });
  sim.tokens.requireAll(tokenId, `/storage/${path.storage}`, ['Datastore.AllocateTemplate']);
  const root = sim.tokens.holds(tokenId, '/', 'Sys.Audit') && sim.tokens.holds(tokenId, '/', 'Sys.Modify');
  if (!root && !sim.tokens.holds(tokenId, `/nodes/${path.node}`, 'Sys.AccessNetwork'))
    throw forbidden(`/nodes/${path.node}`, 'Sys.AccessNetwork');
}

function downloadUrl(req: RouteRequest): string {
  const { sim, params } = req;
  const node = req.path.node!;
  const s = storageOn(req, req.path.storage!);
  if (!FILE_BASED.has(s.type)) throw textError('downloadNotFileBased', 500, { "'lvmthin'": `'${s.type}'` });
  const content = params.content!;
  if (!contents(s).includes(content))
    throw textError('downloadContentNotAllowed', 500, { "'local'": `'${s.storage}'`, "'import'": `'${content}'` });
  const filename = normalize(params.filename!);
  if (content === 'import') {
    const ext = sim.version.importDiskImages ? /^[a-zA-Z0-9\-.+=_]+\.(?:ova|qcow2|raw|vmdk)$/ : /^[a-zA-Z0-9\-.+=_]+\.ova$/;
    if (!ext.test(filename)) throw paramError({ filename: fieldError('downloadBadExtension').text });
  } else if (content === 'iso' ? !/\.(?:iso|img)$/i.test(filename) : !/\.tar\.(?:gz|xz|zst)$/.test(filename)) {
    throw paramError({ filename: 'wrong file extension' });
  }
  const algorithm = params['checksum-algorithm'] as Algo | undefined;
  const expected = params.checksum?.toLowerCase();
  const dir = `${storagePath(s.storage, s.type)}/${content === 'import' ? 'import' : content === 'iso' ? 'template/iso' : 'template/cache'}`;
  const dest = `${dir}/${filename}`;
  const images = simImages(sim);
  const url = params.url!;

  const task = sim.tasks.start(node, 'download', filename, { tokenId: req.tokenId }, async (t) => {
    const tmp = `${dest}.tmp_dwnl.${t.pid}`;
    const fail = (name: 'downloadChecksumMismatch' | 'downloadExistsMismatch', got: string) =>
      new TaskFailure(exitStatus(name, { [CAPTURED_HEX_GOT]: got, [CAPTURED_HEX_EXPECT]: expected ?? '' }));
    t.log.push(`downloading ${url} to ${dest}`);
    const existing = content === 'import' ? images.volume(node, s.storage, filename) : undefined;
    if (existing) {
      // download_file_from_url: an existing file is checked, never overwritten (download-url sets no allow_overwrite).
      if (!algorithm || !expected) throw new TaskFailure(exitStatus('downloadExists', { [`/var/lib/vz/import/${CAPTURED_FILE}`]: dest }));
      const got = existing.checksums[algorithm] ?? images.checksum(existing.url, algorithm);
      if (got !== expected) {
        t.log.push('calculating checksum of existing file...');
        throw fail('downloadExistsMismatch', got);
      }
      t.log.push('calculating checksum of existing file...OK, got correct file already, no need to download');
      return;
    }
    const host = new URL(url).hostname;
    const stamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
    t.log.push(`--${stamp()}--  ${url}`);
    const remote = images.remote.get(url);
    if (!remote) {
      t.log.push(`Resolving ${host} (${host})... failed: Name or service not known.`);
      throw new TaskFailure(exitStatus('downloadUnreachable', { "'cloud.debian.org'": `'${host}'` }));
    }
    t.log.push(
      `Resolving ${host} (${host})... 192.0.2.10`,
      `Connecting to ${host} (${host})|192.0.2.10|:443... connected.`,
      'HTTP request sent, awaiting response... 200 OK',
      `Length: ${remote.bytes} (${formatSize(Math.round(remote.bytes / 1024 ** 2) * 1024 ** 2)}) [application/octet-stream]`,
      `Saving to: '${tmp}'`,
      '',
    );
    const avail = storageUsage(s).avail;
    const fits = Math.min(remote.bytes, Math.max(0, avail));
    const { physics, clock } = sim;
    const started = clock.now();
    for (let offset = 0; offset < fits; offset += ROW) {
      const chunk = Math.min(ROW, fits - offset);
      const t0 = clock.now();
      await Promise.all([
        physics.flows.transfer(chunk, [physics.storageKey(node, s.storage)]),
        clock.sleep((chunk / images.downloadBytesPerSec) * 1000),
      ]);
      const rate = chunk / Math.max(0.001, (clock.now() - t0) / 1000);
      const last = offset + chunk >= remote.bytes;
      const tail = last ? `=${((clock.now() - started) / 1000).toFixed(1)}s` : ` ${Math.round((remote.bytes - offset - chunk) / rate)}s`;
      t.log.push(wgetRow(offset, chunk, remote.bytes, rate, tail));
    }
    if (fits < remote.bytes)
      throw new TaskFailure(exitStatus('downloadNoSpace', { [`/var/lib/vz/import/${CAPTURED_FILE}.tmp_dwnl.1118208`]: tmp }));
    const seconds = Math.max(0.001, (clock.now() - started) / 1000);
    t.log.push('', `${stamp()} (${wgetRate(remote.bytes / seconds)}B/s) - '${tmp}' saved [${remote.bytes}/${remote.bytes}]`, '');
    if (algorithm && expected) {
      const got = images.checksum(url, algorithm);
      if (got !== expected) {
        t.log.push('calculating checksum...');
        throw fail('downloadChecksumMismatch', got);
      }
      t.log.push('calculating checksum...OK, checksum verified');
    }
    if (content !== 'import') {
      // An ISO or container template: listed as such, with a small stand-in for its bytes (only import volumes are modelled in full).
      if (content === 'iso') sim.state.putIso(node, s.storage, filename, new Uint8Array(64 * 1024));
      t.log.push(`download of '${url}' to '${dest}' finished`);
      return;
    }
    images.put(node, s.storage, {
      filename,
      bytes: remote.bytes,
      virtualBytes: remote.virtualBytes,
      format: remote.format,
      checksums: { ...remote.checksums },
      url,
      ctime: Math.floor(Date.now() / 1000),
    });
    s.usedBytes = storageUsage(s).used + remote.bytes;
    t.log.push(`download of '${url}' to '${dest}' finished`);
  });
  return task.upid;
}

// ---- VM create with import-from -------------------------------------------------------------

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

// ---- template -----------------------------------------------------------------------------------

function convert(req: RouteRequest): string {
  const vm: SimVm = vmOf(req);
  if (vm.lock) throw textError('locked', 500, { '(clone)': `(${vm.lock})` });
  if (vm.template) throw textError('templateTwice', 500);
  if (vm.power !== 'stopped') throw textError('templateRunning', 500);
  const task = req.sim.tasks.start(vm.node, 'qmtemplate', vm.vmid, { tokenId: req.tokenId }, async () => {
    await req.sim.clock.sleep(500);
    for (const [key, value] of diskEntries(vm.config)) vm.config[key] = value.replace(/\bvm-(\d+)-disk-/g, 'base-$1-disk-');
    vm.template = true;
  });
  return task.upid;
}

// ---- nextid -------------------------------------------------------------------------------------

function nextId(req: RouteRequest): string {
  const { state } = req.sim;
  if (req.params.vmid !== undefined) {
    const vmid = Number(req.params.vmid);
    if (state.vm(vmid)) throw paramError({ vmid: fieldText('nextidTaken', { '199999': vmid }) });
    return String(vmid);
  }
  // The vmlist is keyed by strings: JSON answers "100", as Proxmox does.
  return String(state.nextFreeVmid(100));
}

const drive: ParamSpec = { type: 'string', optional: true };

export const templateBuildRoutes: Route[] = [
  {
    method: 'POST',
    path: '/nodes/{node}/storage/{storage}/download-url',
    params: {
      node: str,
      storage: str,
      url: { type: 'string', pattern: /https?:\/\/.*/ },
      content: { type: 'string', enum: ['iso', 'vztmpl', 'import'] },
      filename: str,
      checksum: optStr,
      'checksum-algorithm': { type: 'string', optional: true, enum: CHECKSUM_ALGORITHMS },
      compression: optStr,
      'verify-certificates': optBool,
    },
    check: checkDownload,
    handle: downloadUrl,
  },
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
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/template',
    params: { node: str, vmid: int, disk: optStr },
    check: (req) => requireVm(req, ['VM.Allocate']),
    handle: convert,
  },
  {
    method: 'GET',
    path: '/cluster/nextid',
    params: { vmid: optInt },
    handle: nextId,
  },
];

/** The import volumes of a storage as its content listing shows them (`content: import`, format from the extension). */
export function importContent(req: RouteRequest, s: StorageDefinition): Record<string, unknown>[] {
  return simImages(req.sim)
    .list(req.path.node!, s.storage)
    .map((v) => ({ volid: `${s.storage}:import/${v.filename}`, content: 'import', format: v.format, size: v.bytes, ctime: v.ctime }));
}

/** A volume delete of `<storage>:import/<file>`: whether it named one (then it is gone and its space freed). */
export function deleteImportVolume(req: RouteRequest, s: StorageDefinition, volume: string): boolean {
  const rel = volume.startsWith(`${s.storage}:`) ? volume.slice(s.storage.length + 1) : volume;
  if (!rel.startsWith('import/')) return false;
  const gone = simImages(req.sim).remove(req.path.node!, s.storage, rel.slice('import/'.length));
  if (gone) s.usedBytes = Math.max(0, storageUsage(s).used - gone.bytes);
  return gone !== undefined;
}

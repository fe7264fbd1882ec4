/**
 * VM config read and write. A write is synchronous and refused under any
 * lock (F7); tags are folded and checked (F9); attaching ide2 appends it to
 * the boot order (F19); the description is kept verbatim (F10).
 *
 * Issue 23, as qemu-server keeps notes and tags: tags sorted (case folded),
 * without repeats, joined by `;` (pve-guest-common GuestHelpers.pm
 * get_unique_tags, with datacenter.cfg's default tag-style); the description
 * read back without trailing whitespace (QemuServer.pm parse_vm_config
 * `$descr =~ s/\s+$//`), at most 8192 characters (JSONSchema.pm "value may
 * only be 8192 characters long"); a `digest` that is not the config's is
 * refused (pve-common Tools.pm assert_if_modified).
 */
import { createHash } from 'node:crypto';
import type { Route, RouteRequest } from '../context';
import { fieldText, paramError, pveError, vmLocked } from '../errors';
import { isTrue, optBool, optInt, optStr, type ParamSpec } from '../params';
import { isUp, type SimVm } from '../state';
import { snapshotConfigAnswer } from '../snapshots';
import { requireVm, vmOf, vmPathParams } from './vm-common';

const TAG = /^[a-z0-9_][a-z0-9_\-+.]*$/;
const INTEGER_KEYS = new Set([
  'cores',
  'sockets',
  'vcpus',
  'cpuunits',
  'balloon',
  'shares',
  'onboot',
  'protection',
  'numa',
  'kvm',
  'acpi',
  'tablet',
]);

const CONFIG_PARAMS: Record<string, ParamSpec> = {
  ...vmPathParams,
  name: optStr,
  description: optStr,
  cores: optInt,
  sockets: optInt,
  vcpus: optInt,
  memory: optStr,
  balloon: optInt,
  agent: optStr,
  tags: optStr,
  boot: optStr,
  onboot: optBool,
  ostype: optStr,
  cpu: optStr,
  cpuunits: optInt,
  bios: optStr,
  machine: optStr,
  scsihw: optStr,
  vga: optStr,
  vmgenid: optStr,
  smbios1: optStr,
  numa: optBool,
  protection: optBool,
  hotplug: optStr,
  kvm: optBool,
  acpi: optBool,
  tablet: optBool,
  startup: optStr,
  digest: optStr,
  delete: optStr,
  revert: optStr,
  skiplock: optBool,
  ciuser: optStr,
  cipassword: optStr,
  citype: optStr,
  sshkeys: optStr,
  nameserver: optStr,
  searchdomain: optStr,
  efidisk0: optStr,
  tpmstate0: optStr,
  args: optStr,
  cpulimit: optStr,
};

const INDEXED: [RegExp, ParamSpec][] = [
  /^net\d+$/,
  /^ide[0-3]$/,
  /^scsi([0-9]|[12][0-9]|30)$/,
  /^virtio([0-9]|1[0-5])$/,
  /^sata[0-5]$/,
  /^serial[0-3]$/,
  /^ipconfig\d+$/,
  /^unused\d+$/,
].map((re) => [re, optStr]);

/** The privilege each key needs beyond the route's `check_any` (PVE checks per changed option). */
function privilegeFor(key: string, value: string): string {
  if (key === 'cores' || key === 'sockets' || key === 'vcpus' || key === 'cpu' || key === 'cpuunits' || key === 'cpulimit')
    return 'VM.Config.CPU';
  if (key === 'memory' || key === 'balloon') return 'VM.Config.Memory';
  if (/^net\d+$/.test(key)) return 'VM.Config.Network';
  if (/^(ide|scsi|virtio|sata)\d+$/.test(key)) return value.includes('media=cdrom') ? 'VM.Config.CDROM' : 'VM.Config.Disk';
  if (/^(ci|ipconfig|sshkeys|nameserver|searchdomain)/.test(key)) return 'VM.Config.Cloudinit';
  if (['bios', 'machine', 'scsihw', 'vga', 'serial0', 'efidisk0', 'tpmstate0'].includes(key)) return 'VM.Config.HWType';
  return 'VM.Config.Options';
}

/**
 * Issue 16: whether a running VM takes a changed key at once (qemu-server QemuServer.pm vmconfig_hotplug_pending,
 * `hotplug` default `network,disk,usb`): `cores`/`sockets` never (not hot-pluggable), `memory` only with `memory`
 * in `hotplug` and `numa: 1` (QemuServer/Memory.pm "NUMA needs to be enabled for memory hotplug"). Everything else
 * this simulator accepts (name, description, tags, agent, a CD-ROM's medium, net0) is taken at once.
 */
function appliesLive(vm: SimVm, key: string): boolean {
  if (key === 'cores' || key === 'sockets') return false;
  if (key !== 'memory') return true;
  const hotplug = String(vm.config.hotplug ?? '1');
  const features = hotplug === '0' ? [] : (hotplug === '1' ? 'network,disk,usb' : hotplug).split(',');
  return features.includes('memory') && String(vm.config.numa ?? '0') === '1';
}

function foldTags(raw: string): string {
  const tags = raw
    .split(/[;,\s]+/)
    .filter((t) => t.length > 0)
    .map((t) => t.toLowerCase());
  if (tags.some((t) => !TAG.test(t))) throw paramError({ tags: fieldText('tagInvalid') });
  return [...new Set(tags)].sort().join(';');
}

const MAX_DESCRIPTION = 8192;

function storedDescription(raw: string): string {
  if (raw.length > MAX_DESCRIPTION) throw paramError({ description: `value may only be ${MAX_DESCRIPTION} characters long` });
  return raw.replace(/\s+$/, '');
}

/** The digest a GET answers (pending values included), so a client's read-then-write compares like Proxmox's. */
export function viewOf(vm: SimVm): Record<string, unknown> {
  const out: Record<string, unknown> = { ...vm.config, ...vm.pending };
  if (vm.parent) out.parent = vm.parent;
  if (vm.template) out.template = 1;
  if (vm.lock) out.lock = vm.lock;
  return out;
}

export function digestOf(config: Record<string, unknown>): string {
  return createHash('sha1').update(JSON.stringify(config)).digest('hex');
}

function writeConfig(req: RouteRequest): null {
  const vm = vmOf(req);
  const { node: _n, vmid: _v, digest, skiplock, delete: toDelete, ...changes } = req.params;
  for (const [key, value] of Object.entries(changes)) requireVm(req, [privilegeFor(key, value)]);
  if (vm.lock && !isTrue(skiplock)) throw vmLocked(vm.lock);
  if (digest && digest !== digestOf(viewOf(vm))) throw pveError(500, 'detected modified configuration - file changed by other user? Try again.');
  const removed = new Set((toDelete ?? '').split(/[,;\s]+/).filter(Boolean));
  const next = Object.fromEntries(Object.entries(vm.config).filter(([key]) => !removed.has(key)));
  for (const [key, value] of Object.entries(changes)) {
    const typed =
      key === 'tags' ? foldTags(value) : key === 'description' ? storedDescription(value) : INTEGER_KEYS.has(key) ? Number(value) : value;
    if (isUp(vm.power) && !appliesLive(vm, key)) (vm.pending ??= {})[key] = typed;
    else next[key] = typed;
  }
  const boot = String(next.boot ?? '');
  if (changes.ide2 && boot.startsWith('order=') && !boot.split(/[=;]/).includes('ide2')) next.boot = `${boot};ide2`;
  vm.config = next;
  return null;
}

export const vmConfigRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/qemu/{vmid}/config',
    params: { ...vmPathParams, current: optBool, snapshot: optStr },
    check: (req) => requireVm(req, ['VM.Audit']),
    handle: (req) => {
      const vm = vmOf(req);
      // Without `current=1` Proxmox answers the pending values (API2/Qemu.pm vm_config: "Get current values (instead of pending values)").
      const current = req.params.current === '1' || req.params.current === 'true';
      // `snapshot=<name>`: that section's config (QemuServer.pm vm_config "Fetch config values from given snapshot").
      if (req.params.snapshot !== undefined) return snapshotConfigAnswer(vm, req.params.snapshot);
      const out: Record<string, unknown> = current ? { ...vm.config } : viewOf(vm);
      if (current && vm.parent) out.parent = vm.parent;
      if (current && vm.template) out.template = 1;
      if (current && vm.lock) out.lock = vm.lock;
      // One digest of the file, whichever view is asked for.
      out.digest = digestOf(viewOf(vm));
      return out;
    },
  },
  {
    method: 'PUT',
    path: '/nodes/{node}/qemu/{vmid}/config',
    params: CONFIG_PARAMS,
    indexed: INDEXED,
    check: (req) =>
      requireVm(
        req,
        [
          'VM.Config.Disk',
          'VM.Config.CDROM',
          'VM.Config.CPU',
          'VM.Config.Memory',
          'VM.Config.Network',
          'VM.Config.HWType',
          'VM.Config.Options',
          'VM.Config.Cloudinit',
        ],
        'any',
      ),
    handle: writeConfig,
  },
];

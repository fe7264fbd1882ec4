/**
 * The template builder's privileges (issue 14), in one place: what each
 * request of a build needs and on which ACL path, as each endpoint's
 * `permissions` in the official API schema and its handler check them. The
 * preflight compares the token's effective privileges with these; the
 * simulator's routes check the same.
 *
 * - GET storage content (reuse check): `Datastore.Audit` or
 *   `Datastore.AllocateSpace` on /storage/<import> (pve-storage Content.pm index).
 * - POST …/download-url: `Datastore.AllocateTemplate` on /storage/<import>, and
 *   `Sys.AccessNetwork` on /nodes/<node> (pve-storage 8.1.0, 17e0b01 "fix #5254"),
 *   or the older `Sys.Audit` + `Sys.Modify` on / (schema: check => ['and', …, ['or', …]]).
 * - POST /nodes/<node>/qemu with import-from (qemu-server create_vm):
 *   `VM.Allocate` on /vms/<vmid>; per key ($check_vm_modify_config_perm):
 *   cores → VM.Config.CPU, memory → VM.Config.Memory, scsihw/vga/machine →
 *   VM.Config.HWType, serial0=socket → VM.Config.HWType ($check_vm_create_serial_perm),
 *   agent/bios/name/description/ostype → VM.Config.Options, boot → VM.Config.Disk,
 *   net0 → VM.Config.Network; new disks → Datastore.AllocateSpace on
 *   /storage/<target> ($check_storage_access); the import source →
 *   Datastore.Allocate, or Datastore.AllocateSpace|Datastore.Audit, on
 *   /storage/<import> (pve-storage check_volume_access, 357deeb); the bridge →
 *   SDN.Use on /sdn/zones/localnetwork/<bridge>[/<vlan>] (check_bridge_access).
 * - POST …/template: `VM.Allocate` on /vms/<vmid>.
 * - Reading the config back (and the ownership check before a cleanup): `VM.Audit`.
 * - Cleanup: DELETE /nodes/<node>/qemu/<vmid> → `VM.Allocate`; the image's
 *   delete → `Datastore.Allocate` on /storage/<import> (only when it is not kept).
 */

export interface BuilderNeed {
  /** The ACL path, with the build's values filled in. */
  path: string;
  /** Every one of these is needed... */
  all: readonly string[];
  /** ...or, when set, any one of these sets instead of `all` (download-url's `or`). */
  alternatives?: readonly (readonly string[])[];
  /** The role whose grant fixes a gap here, and where to grant it. */
  role: BuilderRole;
  grantPath: string;
  why: string;
}

export interface BuilderRole {
  role: string;
  privileges: readonly string[];
  why: string;
}

/** On `/`: the VM and storage privileges of a build (VM.Config.HWType is the one the proxy role lacks). */
export const TEMPLATE_BUILDER_ROLE: BuilderRole = {
  role: 'EgressDeskTemplateBuilder',
  privileges: [
    'VM.Allocate',
    'VM.Audit',
    'VM.Config.CPU',
    'VM.Config.Memory',
    'VM.Config.Disk',
    'VM.Config.Network',
    'VM.Config.Options',
    'VM.Config.HWType',
    'Datastore.Audit',
    'Datastore.AllocateSpace',
    'Datastore.AllocateTemplate',
    'Sys.Audit',
    'SDN.Use',
  ],
  why: 'create the template VM with its imported disk, serial console and network, convert it, and download images',
};

/**
 * On `/nodes/<node>`: download-url's network access. A grant on a more specific
 * path replaces what `/` gives there, so it repeats Sys.Audit (the node status
 * the app reads).
 */
export const IMAGE_DOWNLOAD_ROLE: BuilderRole = {
  role: 'EgressDeskImageDownload',
  privileges: ['Sys.Audit', 'Sys.AccessNetwork'],
  why: 'let the node download the image (download-url probes the node network, so Proxmox asks for Sys.AccessNetwork)',
};

/** On `/storage/<import>` when the image is not kept: deleting it needs Datastore.Allocate (repeats the rest, as the seed role does). */
export const IMAGE_STORAGE_ROLE: BuilderRole = {
  role: 'EgressDeskImageStorage',
  privileges: ['Datastore.Allocate', 'Datastore.AllocateTemplate', 'Datastore.AllocateSpace', 'Datastore.Audit'],
  why: 'download the image to this storage and delete it after the build',
};

export interface BuilderScope {
  node: string;
  importStorage: string;
  targetStorage: string;
  vmid: number;
  bridge: string;
  vlanTag?: number;
  /** The image is deleted after the build: Datastore.Allocate on the import storage. */
  deleteImage: boolean;
}

export function builderNeeds(s: BuilderScope): BuilderNeed[] {
  const importStorage = `/storage/${s.importStorage}`;
  const vm = `/vms/${s.vmid}`;
  const needs: BuilderNeed[] = [
    {
      path: vm,
      all: [
        'VM.Allocate',
        'VM.Audit',
        'VM.Config.CPU',
        'VM.Config.Memory',
        'VM.Config.Disk',
        'VM.Config.Network',
        'VM.Config.Options',
        'VM.Config.HWType',
      ],
      role: TEMPLATE_BUILDER_ROLE,
      grantPath: '/',
      why: 'create, read and convert the template VM',
    },
    {
      path: importStorage,
      all: s.deleteImage
        ? ['Datastore.AllocateTemplate', 'Datastore.Audit', 'Datastore.Allocate']
        : ['Datastore.AllocateTemplate', 'Datastore.Audit'],
      role: s.deleteImage ? IMAGE_STORAGE_ROLE : TEMPLATE_BUILDER_ROLE,
      grantPath: s.deleteImage ? importStorage : '/',
      why: s.deleteImage ? 'download, list, import and then delete the image' : 'download, list and import the image',
    },
    {
      path: `/nodes/${s.node}`,
      all: ['Sys.AccessNetwork'],
      alternatives: [['Sys.AccessNetwork']],
      role: IMAGE_DOWNLOAD_ROLE,
      grantPath: `/nodes/${s.node}`,
      why: 'download-url from this node',
    },
    {
      path: `/storage/${s.targetStorage}`,
      all: ['Datastore.AllocateSpace'],
      role: TEMPLATE_BUILDER_ROLE,
      grantPath: '/',
      why: 'allocate the template disk',
    },
    {
      path: `/sdn/zones/localnetwork/${s.bridge}${s.vlanTag !== undefined ? `/${s.vlanTag}` : ''}`,
      all: ['SDN.Use'],
      role: TEMPLATE_BUILDER_ROLE,
      grantPath: '/',
      why: `attach the template's NIC to ${s.bridge}`,
    },
  ];
  return needs;
}

/** `Sys.Audit` + `Sys.Modify` on `/`: the pre-8.1 way download-url accepts instead of Sys.AccessNetwork on the node. */
export const DOWNLOAD_ROOT_ALTERNATIVE = ['Sys.Audit', 'Sys.Modify'] as const;

/**
 * Built-in clusters. `minimal` is pv1-1 as Phase 0 found it (F19): the good
 * template 9001, the unsuitable 9000 (cloud-init drive, VLAN 4 on net0), a
 * template without net0, VM 100, and the seed storage proxy-seeds. `demo`
 * is a three-node cluster where every view has something true to show.
 */
import type { ClusterDefinition, NodeDefinition, StorageDefinition, VmDefinition } from './types';

const GiB = 1024 ** 3;
export const SEED_STORAGE = 'proxy-seeds';

export function storages(): StorageDefinition[] {
  return [
    { storage: 'local', type: 'dir', content: 'iso,vztmpl,backup', totalBytes: 100 * GiB },
    { storage: 'local-lvm', type: 'lvmthin', content: 'images,rootdir', totalBytes: 800 * GiB },
    { storage: SEED_STORAGE, type: 'dir', content: 'iso', totalBytes: 20 * GiB, usedBytes: 0 },
  ];
}

const bridges = [
  { iface: 'vmbr0', vlanAware: true, cidr: '192.168.0.8/24' },
  { iface: 'vmbr1', vlanAware: false },
];

/** The demo's SDN vnet (issue 24): a VLAN zone `lab` on every demo node, so Create lists a vnet beside the bridges. */
const demoVnets = [{ vnet: 'egress2', zone: 'lab', vlanAware: false, alias: 'VPN uplink' }];

const META = 'creation-qemu=11.0.3,ctime=1790145676';

/**
 * The good template. Its 3 GiB disk holds about 420 MiB of data (a Debian
 * cloud image); a full clone copies the data (physics.ts, calibrated on F16).
 * `storage` may be a file storage (dir, nfs), whose volumes are named
 * `<vmid>/base-<vmid>-disk-<n>.raw` as pve-storage's Plugin.pm does.
 */
export function goodTemplate(vmid = 9001, storage = 'local-lvm', fileStorage = false): VmDefinition {
  const volume = (n: number) => (fileStorage ? `${storage}:${vmid}/base-${vmid}-disk-${n}.raw` : `${storage}:base-${vmid}-disk-${n}`);
  return {
    vmid,
    template: true,
    dataBytes: { efidisk0: 528 * 1024, scsi0: 420 * 1024 ** 2 },
    config: {
      name: 'debian-13-template',
      meta: META,
      cores: 2,
      memory: '2048',
      agent: '1',
      bios: 'ovmf',
      machine: 'q35',
      ostype: 'l26',
      scsihw: 'virtio-scsi-pci',
      boot: 'order=scsi0',
      serial0: 'socket',
      vga: 'serial0',
      efidisk0: `${volume(0)},efitype=4m,pre-enrolled-keys=0,size=4M`,
      scsi0: `${volume(1)},size=3G`,
      net0: 'virtio=BC:24:11:5E:10:01,bridge=vmbr0',
      smbios1: 'uuid=6c1b3c5e-8f0e-4a51-9a55-0f1e2d3c4b5a',
      vmgenid: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
    },
  };
}

export function cloudInitTemplate(vmid = 9000): VmDefinition {
  return {
    vmid,
    template: true,
    config: {
      name: 'ubuntu-2604-template',
      meta: META,
      cores: 2,
      memory: '2048',
      agent: '1',
      ostype: 'l26',
      scsihw: 'virtio-scsi-pci',
      boot: 'order=scsi0',
      scsi0: `local-lvm:base-${vmid}-disk-0,size=32G`,
      ide2: `local-lvm:vm-${vmid}-cloudinit,media=cdrom`,
      net0: 'virtio=BC:24:11:5E:10:00,bridge=vmbr0,tag=4',
    },
  };
}

export function noNetTemplate(vmid = 9002): VmDefinition {
  return {
    vmid,
    template: true,
    config: {
      name: 'alpine-nonet-template',
      meta: META,
      cores: 1,
      memory: '512',
      ostype: 'l26',
      boot: 'order=scsi0',
      scsi0: `local-lvm:base-${vmid}-disk-0,size=2G`,
    },
  };
}

export function plainVm(vmid: number, name: string, power: VmDefinition['power'] = 'stopped'): VmDefinition {
  return {
    vmid,
    power,
    config: {
      name,
      cores: 2,
      memory: '2048',
      ostype: 'l26',
      boot: 'order=scsi0',
      scsi0: `local-lvm:vm-${vmid}-disk-0,size=32G`,
      net0: `virtio=BC:24:11:00:${(vmid % 256).toString(16).padStart(2, '0').toUpperCase()}:01,bridge=vmbr0`,
    },
  };
}

/** A VM the operator made: the mark in the description (spec 8), the tag, and the seed on ide2. */
export function proxyVm(vmid: number, name: string, uid: string, power: VmDefinition['power'] = 'running', vlan?: number): VmDefinition {
  return {
    vmid,
    power,
    config: {
      ...goodTemplate(vmid).config,
      name,
      cores: 1,
      memory: '1024',
      description: `proxy-operator-managed=true\nproxy-operator-uid=${uid}\nproxy-operator-created-at=2026-09-23T07:00:00Z`,
      tags: 'proxy_operator',
      ide2: `${SEED_STORAGE}:iso/${name}-seed.iso,media=cdrom`,
      boot: 'order=scsi0;ide2',
      efidisk0: `local-lvm:vm-${vmid}-disk-0,efitype=4m,pre-enrolled-keys=0,size=4M`,
      scsi0: `local-lvm:vm-${vmid}-disk-1,size=4G`,
      net0: `virtio=BC:24:11:48:${(vmid % 256).toString(16).padStart(2, '0').toUpperCase()}:46,bridge=vmbr0${vlan ? `,tag=${vlan}` : ''}`,
    },
  };
}

export function minimalCluster(): ClusterDefinition {
  return {
    nodes: [
      {
        node: 'pv1-1',
        storages: storages(),
        bridges,
        vms: [plainVm(100, 'ubuntu-vm-1'), cloudInitTemplate(), goodTemplate(), noNetTemplate()],
      },
    ],
  };
}

/**
 * A demo node's storages: `local` also holds disk images to import, as `pvesm set local --content
 * iso,vztmpl,backup,import` leaves it (pve-storage 8.4+), so the template builder can download there.
 */
function demoStorages(): StorageDefinition[] {
  return storages().map((s) => (s.storage === 'local' ? { ...s, content: `${s.content},import` } : s));
}

function demoNode(node: string, vms: VmDefinition[], online = true): NodeDefinition {
  const seeds = vms
    .filter((v) => typeof v.config.ide2 === 'string' && v.config.ide2.startsWith(SEED_STORAGE))
    .map((v) => `${String(v.config.name)}-seed.iso`);
  return {
    node,
    online,
    storages: demoStorages(),
    bridges,
    vnets: demoVnets,
    vms,
    isos: { [SEED_STORAGE]: seeds, local: ['debian-13.1.0-amd64-netinst.iso'] },
  };
}

/**
 * The demo's NAS: one NFS export every node mounts (storage.cfg `shared 1`),
 * holding the template every node clones from. A 1 GbE link: about 110 MB/s.
 */
export const DEMO_SHARED_STORAGE: StorageDefinition = {
  storage: 'nas-nfs',
  type: 'nfs',
  content: 'images,iso',
  totalBytes: 4 * 1024 * GiB,
  usedBytes: 1200 * GiB,
  shared: true,
};

/** The demo's mid-clone VM; startSimulator starts a long clone onto it. */
export const DEMO_MID_CLONE = { node: 'pv1-1', template: 9001, newid: 150_004, name: 'proxy-k4m2q7zt3xw9bv5npa' } as const;

/** The demo's one orphan seed (no VM uses it), on pv1-1. */
export const DEMO_ORPHAN_SEED = 'proxy-orphan0000000000000-seed.iso';
export const DEMO_ORPHAN_NODE = 'pv1-1';

/**
 * Issue 25: the demo's snapshots, on 150001 (LVM-thin): one an admin took in the Proxmox UI, then one of the app's
 * own (its name's shape, rules/snapshots.ts in the core). The current state descends from the app's.
 */
export const DEMO_SNAPSHOTS = [
  { name: 'before-apt-upgrade', snaptime: 1795857120, description: 'Taken by hand before apt full-upgrade (kernel 6.12)' },
  {
    name: 'egressdesk-20261201-101500-reconfigure',
    snaptime: 1796120100,
    description: 'Taken by Egress Desk before a reconfigure: 1 core → 2 cores',
  },
];

/** Issue 25: a proxy whose boot disk is a raw file on the NAS, which Proxmox cannot snapshot (Plugin.pm: qcow2 only). */
function onRawNfs(vm: VmDefinition): VmDefinition {
  return { ...vm, config: { ...vm.config, scsi0: `${DEMO_SHARED_STORAGE.storage}:${vm.vmid}/vm-${vm.vmid}-disk-1.raw,size=4G` } };
}

export function demoCluster(): ClusterDefinition {
  const pv1 = demoNode('pv1-1', [
    goodTemplate(9001, DEMO_SHARED_STORAGE.storage, true),
    cloudInitTemplate(),
    noNetTemplate(),
    plainVm(100, 'ubuntu-vm-1', 'running'),
    { ...proxyVm(150_001, 'proxy-a7k2m9x4q1w8e5r3t6', '3f9c2a1e-7b4d-4e8a-9c6f-1a2b3c4d5e6f', 'running', 4), snapshots: DEMO_SNAPSHOTS },
    proxyVm(150_002, 'proxy-b3n8v5c2x7z4l9k1j6', '8e7d6c5b-4a39-4281-b7f6-e5d4c3b2a190', 'running', 4),
    { ...plainVm(150_099, 'proxy-lookalike-not-ours', 'running') },
  ]);
  pv1.isos![SEED_STORAGE]!.push(DEMO_ORPHAN_SEED);
  const pv2 = demoNode('pv1-2', [
    goodTemplate(9101),
    proxyVm(150_003, 'proxy-c9h4g1f6d3s8a2p7o5', 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', 'running'),
    onRawNfs(proxyVm(150_005, 'proxy-d2w6e1r9t4y7u3i8o0', 'd4c3b2a1-9f8e-4d7c-6b5a-4f3e2d1c0b9a', 'stopped')),
    plainVm(200, 'home-assistant', 'running'),
  ]);
  const pv3 = demoNode(
    'pv1-3',
    [
      proxyVm(150_006, 'proxy-e5r8t2y6u9i3o7p1a4', 'e5f6a7b8-c9d0-4e1f-a2b3-c4d5e6f7a8b9', 'running'),
      plainVm(300, 'backup-box', 'running'),
    ],
    false,
  );
  // Each node keeps its own local, local-lvm and proxy-seeds (node-local, not shared); nas-nfs is one storage for all.
  return { clusterName: 'homelab', nodes: [pv1, pv2, pv3], storages: [{ ...DEMO_SHARED_STORAGE }] };
}

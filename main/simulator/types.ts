/**
 * The simulator's public data types: what a cluster definition holds, the
 * options of startSimulator and the handle it returns.
 */
import type { Logger } from '../log/logger';
import type { PveVersion } from './versions';

export type TaskKind =
  | 'qmclone'
  | 'imgcopy'
  | 'resize'
  | 'qmstart'
  | 'qmstop'
  | 'qmdestroy'
  | 'imgdel'
  | 'qmigrate'
  // Issue 16: a guest's clean shutdown (ACPI or agent), a reboot's shutdown half, a resume.
  | 'qmshutdown'
  | 'qmreboot'
  | 'qmresume'
  // Issue 25: snapshots (qemu-server API2/Qemu.pm snapshot, rollback, delsnapshot fork these).
  | 'qmsnapshot'
  | 'qmrollback'
  | 'qmdelsnapshot';

/** How a VM looks to an observer: paused lists as running (F14), hibernated is stopped with `lock: suspended`. */
export type VmPowerState = 'running' | 'stopped' | 'paused' | 'prelaunch' | 'hibernated';

export interface StorageDefinition {
  storage: string;
  /** Issue 25 adds `lvm` (thick), `zfspool` and `rbd`, for what can snapshot (snapshots.ts). */
  type: 'lvmthin' | 'dir' | 'nfs' | 'lvm' | 'zfspool' | 'rbd';
  /**
   * storage.cfg's `snapshot-as-volume-chain` (pve-storage 9.0 on, LVMPlugin/DirPlugin/NFSPlugin options): qcow2
   * volumes on `lvm`, snapshots as a chain of volumes. The simulator reads the format from the volume's name, as
   * LVMPlugin parse_volname does (`.qcow2` suffix), so the option only says which storages may hold such volumes.
   */
  snapshotAsVolumeChain?: boolean;
  /** Comma list as Proxmox writes it: `images,rootdir`, `iso,vztmpl,backup`, `iso`. */
  content: string;
  totalBytes: number;
  usedBytes?: number;
  /**
   * As storage.cfg's `shared` (pve-storage, default 0): one storage every node
   * sees with the same content and usage. Without it the storage is local:
   * each node has its own copy with its own content and usage.
   */
  shared?: boolean;
  /** storage.cfg's `nodes`: where a cluster-level storage exists (default every node). Ignored in a node's own list. */
  nodes?: string[];
  /** Sustained throughput in bytes/s for copies and uploads; default by type (see physics.ts, DEFAULT_BANDWIDTH). */
  bandwidthBytesPerSec?: number;
}

export interface BridgeDefinition {
  iface: string;
  vlanAware: boolean;
  cidr?: string;
  /** An Open vSwitch bridge (`type: OVSBridge`) instead of a Linux bridge. */
  ovs?: boolean;
  comments?: string;
}

/** An SDN vnet local to a node (its zone includes the node): pve-network src/PVE/Network/SDN.pm get_local_vnets. */
export interface VnetDefinition {
  vnet: string;
  zone: string;
  vlanAware?: boolean;
  /** The vnet's alias, listed as `comments`. */
  alias?: string;
}

export interface VmDefinition {
  vmid: number;
  /** Config as Proxmox stores it; numbers are kept as numbers where Proxmox answers numbers (`cores`). */
  config: Record<string, string | number>;
  template?: boolean;
  power?: VmPowerState;
  /** A lock with no task behind it (a `backup` that never clears, …). */
  lock?: string;
  /** The guest's IPv4 the agent will report; derived from the VMID and VLAN when absent. */
  ip?: string;
  /**
   * `reports-ip` (default), `no-ip` (agent up, no routable address yet), `never` (agent never starts),
   * `command-disabled` (agent up, network-get-interfaces blocked in its config: the 200 refusal, see versions.ts).
   */
  agent?: 'reports-ip' | 'no-ip' | 'never' | 'command-disabled';
  /**
   * What else the guest's network has (routes/vm-agent.ts): Docker (docker0 and a container's veth, listed after the
   * NICs), or IPv6 only (net0's NIC has a global IPv6 from a router advertisement and no IPv4). Every net1…net5 of the
   * config is a NIC of its own in any case.
   */
  guest?: { docker?: boolean; ipv6Only?: boolean };
  /** The guest ignores a shutdown request (ACPI or agent): shutdown and reboot time out (issue 16). */
  ignoresAcpi?: boolean;
  /** Bytes written per disk slot (thin volumes); a full clone copies these, as zeros cost nothing (F16). Default: the disk's size. */
  dataBytes?: Record<string, number>;
  /**
   * Snapshots taken before the dataset (issue 25), oldest first, each a `[snapname]` section of the config as it
   * is now (__snapshot_copy_config), chained by `parent`; the current state descends from the last one.
   */
  snapshots?: { name: string; snaptime: number; description?: string }[];
}

export interface NodeDefinition {
  node: string;
  online?: boolean;
  storages: StorageDefinition[];
  bridges: BridgeDefinition[];
  /** SDN vnets on this node (issue 24); none by default. */
  vnets?: VnetDefinition[];
  vms: VmDefinition[];
  /** ISO files present at start: storage id to file names. */
  isos?: Record<string, string[]>;
}

export interface ClusterDefinition {
  /** Absent for a single node that is not in a cluster (like pv1-1). */
  clusterName?: string;
  nodes: NodeDefinition[];
  /** storage.cfg: storages defined once for the cluster, added to each node in their `nodes` (default all). */
  storages?: StorageDefinition[];
}

/** Privileges granted per ACL path; a grant on a more specific path replaces the inherited one. */
export type AclGrants = Record<string, readonly string[]>;

export interface TokenDefinition {
  /** `user@realm!tokenid`. */
  tokenId: string;
  /** Generated when absent. */
  secret?: string;
  acl: AclGrants;
}

export interface TokenCredentials {
  tokenId: string;
  secret: string;
}

export interface SimulatorOptions {
  dataset?: 'demo' | 'minimal' | ClusterDefinition;
  /** 1 = realistic seconds, 0.001 = tests in milliseconds. */
  timeScale?: number;
  /** Task durations in ms at timeScale 1. */
  taskDurations?: Partial<Record<TaskKind, number>>;
  /** The guest agent reports an address this long (ms at timeScale 1) after start. */
  agentDelayMs?: number;
  /** Extra or replacement tokens by name; `admin`, `operator`, `noSeedAllocate` and `auditor` always exist unless replaced. */
  tokens?: Record<string, TokenDefinition>;
  /** 0 = random. */
  port?: number;
  /** `ca` (default): a leaf signed by a fresh CA; `self-signed`: a leaf with no CA, like a fresh node. */
  certificate?: 'ca' | 'self-signed';
  logger?: Logger;
  /** The Proxmox VE release to answer as (versions.ts): `'9.2'` (default, the captured host), `'8.4'` or `'7.4'`. */
  version?: PveVersion;
  /** Bandwidth, task overheads and pveproxy's workers (docs/simulator.md, Physics). */
  physics?: PhysicsOptions;
}

export interface PhysicsOptions {
  /** Bytes/s per storage type when a storage does not set `bandwidthBytesPerSec`. */
  bandwidthByType?: Partial<Record<StorageDefinition['type'], number>>;
  /** Fixed simulated ms a byte-bound task spends besides copying (fork, locks, volume allocation, config writes). */
  taskOverheadMs?: Partial<Record<'qmclone' | 'imgcopy' | 'qmigrate', number>>;
  /** pveproxy workers per node (default 3, pveproxy.pm `max_workers`). */
  workers?: number;
  /** Simulated ms one request holds a worker (default 5). */
  requestCostMs?: number;
  /** The node whose URL serves the API; cluster-wide calls count against it (default the first node). */
  apiNode?: string;
}

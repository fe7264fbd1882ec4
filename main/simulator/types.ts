/**
 * The simulator's public data types: what a cluster definition holds, the
 * options of startSimulator and the handle it returns.
 */
import type { Logger } from '../log/logger';

export type TaskKind = 'qmclone' | 'imgcopy' | 'resize' | 'qmstart' | 'qmstop' | 'qmdestroy' | 'imgdel';

/** How a VM looks to an observer: paused lists as running (F14), hibernated is stopped with `lock: suspended`. */
export type VmPowerState = 'running' | 'stopped' | 'paused' | 'prelaunch' | 'hibernated';

export interface StorageDefinition {
  storage: string;
  type: 'lvmthin' | 'dir' | 'nfs';
  /** Comma list as Proxmox writes it: `images,rootdir`, `iso,vztmpl,backup`, `iso`. */
  content: string;
  totalBytes: number;
  usedBytes?: number;
  shared?: boolean;
}

export interface BridgeDefinition {
  iface: string;
  vlanAware: boolean;
  cidr?: string;
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
  /** `reports-ip` (default), `no-ip` (agent up, no routable address yet), `never` (agent never starts). */
  agent?: 'reports-ip' | 'no-ip' | 'never';
}

export interface NodeDefinition {
  node: string;
  online?: boolean;
  storages: StorageDefinition[];
  bridges: BridgeDefinition[];
  vms: VmDefinition[];
  /** ISO files present at start: storage id to file names. */
  isos?: Record<string, string[]>;
}

export interface ClusterDefinition {
  /** Absent for a single node that is not in a cluster (like pv1-1). */
  clusterName?: string;
  nodes: NodeDefinition[];
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
}

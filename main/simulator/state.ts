/**
 * The simulated cluster: nodes, their storages and ISO files, and every
 * guest. Routes read and change it; tests inspect and change it directly
 * (add a VM, set one paused, take a node down).
 */
import type { BridgeDefinition, ClusterDefinition, StorageDefinition, VmDefinition, VmPowerState, VnetDefinition } from './types';
import type { SimClock } from './clock';
import { snapshotConfigOf } from './snapshot-config';

export interface SimVm {
  vmid: number;
  node: string;
  template: boolean;
  /** The config without `lock` and `digest`, which are derived. */
  config: Record<string, string | number>;
  power: VmPowerState;
  lock?: string;
  /** The UPID of the task holding `lock`, while it runs; a lock without one is a bare config property. */
  lockTask?: string;
  /** Simulated ms at the last start, for uptime and the agent's delay. */
  startedAt?: number;
  ip?: string;
  agent: NonNullable<VmDefinition['agent']>;
  guest?: VmDefinition['guest'];
  /** A clone in progress: listed without a name and with `status: unknown` (F8). */
  cloning: boolean;
  /** The guest ignores shutdown requests (VmDefinition.ignoresAcpi). */
  ignoresAcpi?: boolean;
  /** Bytes written per disk slot; what a full clone copies (physics.ts). */
  dataBytes?: Record<string, number>;
  /**
   * Config changes a running VM could not take live (issue 16: `cores`, `memory` without memory hotplug), applied at
   * its next start (qemu-server vmconfig_hotplug_pending leaves them in `[PENDING]`; vm_start applies them).
   */
  pending?: Record<string, string | number>;
  /** Simulated ms when it was created while the simulator ran; absent for the dataset's VMs (older than any history). */
  createdAt?: number;
  /** Every change between up and down since the simulator started, oldest first: the RRD model's power history. */
  powerLog: { at: number; up: boolean }[];
  /** The config's `[snapname]` sections (issue 25, snapshots.ts), by name. */
  snapshots?: Record<string, SimSnapshot>;
  /** The config's `parent`: the snapshot the current state descends from (AbstractConfig.pm __snapshot_commit). */
  parent?: string;
}

/** One `[snapname]` section: the config as it was (__snapshot_copy_config), with snaptime, description, parent. */
export interface SimSnapshot {
  config: Record<string, string | number>;
  /** Epoch seconds. */
  snaptime: number;
  description?: string;
  parent?: string;
  /** The RAM state volume, for a snapshot taken with `vmstate=1` of a running VM. */
  vmstate?: string;
  /** `prepare` while the create runs, `delete` while a delete runs. */
  snapstate?: 'prepare' | 'delete';
}

export interface SimIso {
  filename: string;
  bytes: Uint8Array;
  ctime: number;
}

export interface SimNode {
  node: string;
  online: boolean;
  storages: Map<string, StorageDefinition>;
  bridges: BridgeDefinition[];
  vnets: VnetDefinition[];
  /** storage id → file name → file. */
  isos: Map<string, Map<string, SimIso>>;
}

export class ClusterState {
  readonly clusterName: string | undefined;
  readonly nodes = new Map<string, SimNode>();
  readonly vms = new Map<number, SimVm>();
  /** False while the dataset's VMs are added. */
  private loaded = false;

  constructor(
    definition: ClusterDefinition,
    private readonly clock: SimClock,
  ) {
    this.clusterName = definition.clusterName;
    // A shared storage is one object and one ISO folder on every node; a local one is a copy per node (issue 11).
    const sharedDefs = new Map<string, StorageDefinition>();
    const sharedIsos = new Map<string, Map<string, SimIso>>();
    for (const n of definition.nodes) {
      const defs = [...n.storages, ...(definition.storages ?? []).filter((s) => !s.nodes || s.nodes.includes(n.node))];
      const storages = new Map<string, StorageDefinition>();
      const isos = new Map<string, Map<string, SimIso>>();
      for (const def of defs) {
        // pve-storage Plugin.pm parse_config: a type in @SHARED_STORAGE (nfs, cifs, rbd, …) is always `shared 1`.
        const d = def.type === 'nfs' && !def.shared ? { ...def, shared: true } : def;
        const s = d.shared ? (sharedDefs.get(d.storage) ?? sharedDefs.set(d.storage, d).get(d.storage)!) : { ...d };
        storages.set(s.storage, s);
        if (!s.content.split(',').includes('iso')) continue;
        if (s.shared && !sharedIsos.has(s.storage)) sharedIsos.set(s.storage, new Map());
        isos.set(s.storage, s.shared ? sharedIsos.get(s.storage)! : new Map());
      }
      const node: SimNode = { node: n.node, online: n.online ?? true, storages, bridges: n.bridges, vnets: n.vnets ?? [], isos };
      this.nodes.set(n.node, node);
      for (const [storage, files] of Object.entries(n.isos ?? {}))
        for (const f of files) this.putIso(n.node, storage, f, new Uint8Array(45056));
      for (const vm of n.vms) this.addVm(n.node, vm);
    }
    this.loaded = true;
  }

  node(name: string): SimNode | undefined {
    return this.nodes.get(name);
  }

  vm(vmid: number): SimVm | undefined {
    return this.vms.get(vmid);
  }

  addVm(node: string, def: VmDefinition): SimVm {
    if (!this.nodes.has(node)) throw new Error(`no node ${node} in the simulated cluster`);
    if (this.vms.has(def.vmid)) throw new Error(`VMID ${def.vmid} is taken`);
    const vm: SimVm = {
      vmid: def.vmid,
      node,
      template: def.template ?? false,
      config: { ...def.config },
      power: def.power ?? 'stopped',
      agent: def.agent ?? 'reports-ip',
      cloning: false,
      powerLog: [],
    };
    // A VM added after the dataset is new: Proxmox has no history of it yet (rrd-model.ts).
    if (this.loaded) {
      vm.createdAt = this.clock.now();
      vm.powerLog.push({ at: vm.createdAt, up: isUp(vm.power) });
    }
    if (def.lock) vm.lock = def.lock;
    if (def.ip) vm.ip = def.ip;
    if (def.guest) vm.guest = { ...def.guest };
    if (def.dataBytes) vm.dataBytes = { ...def.dataBytes };
    if (def.ignoresAcpi) vm.ignoresAcpi = true;
    // AbstractConfig.pm __snapshot_commit: each section's parent is the one before; the current config's is the last.
    for (const s of def.snapshots ?? []) {
      vm.snapshots = {
        ...vm.snapshots,
        [s.name]: {
          config: snapshotConfigOf(vm.config),
          snaptime: s.snaptime,
          ...(s.description ? { description: s.description } : {}),
          ...(vm.parent ? { parent: vm.parent } : {}),
        },
      };
      vm.parent = s.name;
    }
    if (vm.power === 'hibernated') vm.lock = 'suspended';
    if (isUp(vm.power)) vm.startedAt = this.clock.now() - 3_600_000;
    this.vms.set(def.vmid, vm);
    return vm;
  }

  removeVm(vmid: number): boolean {
    return this.vms.delete(vmid);
  }

  /** Sets how a VM looks: paused lists as running, hibernated is stopped with `lock: suspended`. */
  setPower(vmid: number, power: VmPowerState): void {
    const vm = this.mustVm(vmid);
    if (isUp(power) && !isUp(vm.power)) {
      vm.startedAt = this.clock.now();
      if (vm.pending) Object.assign(vm.config, vm.pending);
      delete vm.pending;
    }
    if (!isUp(power)) delete vm.startedAt;
    if (isUp(power) !== isUp(vm.power)) vm.powerLog.push({ at: this.clock.now(), up: isUp(power) });
    if (power === 'hibernated') vm.lock = 'suspended';
    else if (vm.lock === 'suspended') delete vm.lock;
    vm.power = power;
  }

  setLock(vmid: number, lock: string | undefined): void {
    const vm = this.mustVm(vmid);
    if (lock) vm.lock = lock;
    else delete vm.lock;
  }

  setNodeOnline(node: string, online: boolean): void {
    const n = this.nodes.get(node);
    if (!n) throw new Error(`no node ${node} in the simulated cluster`);
    n.online = online;
  }

  putIso(node: string, storage: string, filename: string, bytes: Uint8Array): void {
    const n = this.nodes.get(node);
    if (!n) throw new Error(`no node ${node} in the simulated cluster`);
    const files = n.isos.get(storage) ?? new Map<string, SimIso>();
    n.isos.set(storage, files);
    files.set(filename, { filename, bytes, ctime: Math.floor(Date.now() / 1000) });
  }

  removeIso(node: string, storage: string, filename: string): boolean {
    return this.nodes.get(node)?.isos.get(storage)?.delete(filename) ?? false;
  }

  iso(node: string, storage: string, filename: string): SimIso | undefined {
    return this.nodes.get(node)?.isos.get(storage)?.get(filename);
  }

  /** The nodes where a storage id exists (storage.cfg's `nodes`), in cluster order. */
  storageNodes(storage: string): string[] {
    return [...this.nodes.values()].filter((n) => n.storages.has(storage)).map((n) => n.node);
  }

  /** The lowest free VMID at or above `from`. */
  nextFreeVmid(from = 100): number {
    let id = from;
    while (this.vms.has(id)) id++;
    return id;
  }

  private mustVm(vmid: number): SimVm {
    const vm = this.vms.get(vmid);
    if (!vm) throw new Error(`no VM ${vmid} in the simulated cluster`);
    return vm;
  }
}

export function isUp(power: VmPowerState): boolean {
  return power === 'running' || power === 'paused' || power === 'prelaunch';
}

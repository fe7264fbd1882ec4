/**
 * Issue 11's disk physics: byte-bound tasks (a full clone's disk copies, an
 * ISO import) take bytes / bandwidth on simulated time, and copies that
 * share a storage share its bandwidth fairly (processor sharing, max-min
 * fair: every active copy's rate is recomputed whenever one starts or ends).
 *
 * A copy loads every storage it touches: the source storage (read) and the
 * target storage (write). A storage is one resource per node when it is
 * local and one resource for the whole cluster when it is shared (NFS), as
 * storage.cfg's `shared` flag means (pve-storage). A copy inside one storage
 * counts once against it: the figure is the storage's copy throughput.
 *
 * Docs: docs/simulator.md, "Physics".
 */
import type { SimClock } from './clock';
import { diskEntries, diskSize } from './disks';
import type { ClusterState, SimVm } from './state';
import type { PhysicsOptions, StorageDefinition, TaskKind } from './types';

const MB = 1_000_000;

/**
 * Home-lab throughput estimates (not from Proxmox's source; configurable per
 * storage with `bandwidthBytesPerSec` or per type with `physics.bandwidthByType`):
 * - lvmthin and dir: a SATA SSD, about 450 MB/s sequential (SATA III carries
 *   600 MB/s on the wire; consumer SATA SSDs sustain roughly 450 to 550 MB/s).
 *   `dir` is the boot disk's /var/lib/vz in a default install.
 * - nfs: a NAS on 1 GbE, about 110 MB/s (125 MB/s line rate less TCP/IP and
 *   NFS overhead). A 7200 rpm HDD would be about 150 MB/s.
 */
export const DEFAULT_BANDWIDTH: Record<StorageDefinition['type'], number> = {
  lvmthin: 450 * MB,
  dir: 450 * MB,
  nfs: 110 * MB,
  // Issue 25 (snapshots only; no copy is calibrated on them): a thick LV as a thin one, local ZFS as an SSD, Ceph on 10 GbE.
  lvm: 450 * MB,
  zfspool: 450 * MB,
  rbd: 300 * MB,
};

/**
 * Simulated ms a byte-bound task spends besides copying: the worker fork,
 * the config locks, one volume allocation per disk and the config writes
 * (qemu-server clone_vm's $clonefn). Calibrated on the execution log: a
 * full clone of the 3 GiB template (about 420 MiB of data) onto local-lvm
 * finished "within about two seconds" (F16) and "about 3 s" in the
 * end-to-end run, so overhead + data / 450 MB/s is about 2.5 s.
 */
export const DEFAULT_TASK_OVERHEAD_MS: Record<'qmclone' | 'imgcopy' | 'qmigrate', number> = { qmclone: 1500, imgcopy: 1000, qmigrate: 2000 };

interface Flow {
  remaining: number;
  resources: string[];
  rate: number;
  done: () => void;
}

/** Max-min fair sharing of per-resource bandwidth among active transfers, on simulated time. */
export class FairShare {
  private readonly flows = new Set<Flow>();
  private last: number;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly clock: SimClock,
    private readonly capacity: (resource: string) => number,
  ) {
    this.last = clock.now();
  }

  /** Resolves once `bytes` have moved through every resource (a storage key) at the fair rate. */
  transfer(bytes: number, resources: string[]): Promise<void> {
    if (bytes <= 0) return Promise.resolve();
    this.advance();
    return new Promise((resolve) => {
      this.flows.add({ remaining: bytes, resources: [...new Set(resources)], rate: 0, done: resolve });
      this.settle();
    });
  }

  /** The active transfers' current rates in bytes/s, for tests and the bench. */
  rates(): { resources: string[]; rate: number; remaining: number }[] {
    this.advance();
    return [...this.flows].map((f) => ({ resources: f.resources, rate: f.rate, remaining: f.remaining }));
  }

  private advance(): void {
    const now = this.clock.now();
    const seconds = (now - this.last) / 1000;
    this.last = now;
    for (const f of this.flows) f.remaining -= f.rate * seconds;
  }

  /** Ends finished transfers, recomputes every rate, and sets one timer for the next end. */
  private settle(): void {
    for (const f of this.flows) {
      // Finished, or within 1 simulated ms of it (a timer may fire a hair early in simulated terms).
      if (f.rate > 0 ? f.remaining <= Math.max(1, f.rate / 1000) : f.remaining <= 0) {
        this.flows.delete(f);
        f.done();
      }
    }
    this.allocate();
    this.cancel?.();
    this.cancel = undefined;
    if (this.flows.size === 0) return;
    let next = Infinity;
    for (const f of this.flows) next = Math.min(next, (f.remaining / f.rate) * 1000);
    this.cancel = this.clock.after(next, () => {
      this.advance();
      this.settle();
    });
  }

  /** Progressive filling: raise every unfrozen rate together until a resource is full, freeze its flows, repeat. */
  private allocate(): void {
    const left = new Map<string, number>();
    for (const f of this.flows) {
      f.rate = 0;
      for (const r of f.resources) left.set(r, this.capacity(r));
    }
    let open = [...this.flows];
    while (open.length > 0) {
      let step = Infinity;
      for (const [r, cap] of left) {
        const users = open.filter((f) => f.resources.includes(r)).length;
        if (users > 0) step = Math.min(step, cap / users);
      }
      for (const f of open) {
        f.rate += step;
        for (const r of f.resources) left.set(r, left.get(r)! - step);
      }
      const full = new Set([...left].filter(([, cap]) => cap <= 1e-6).map(([r]) => r));
      const before = open.length;
      open = open.filter((f) => !f.resources.some((r) => full.has(r)));
      if (open.length === before) break; // cannot happen with finite capacities; a guard against a loop
    }
  }
}

/** One disk copy of a clone: its slot, the bytes it moves and the storages it loads. */
export interface DiskCopy {
  disk: string;
  bytes: number;
  from: string;
  to: string;
}

/** The model's parameters and the physical floor of each byte-bound task. */
export class Physics {
  readonly flows: FairShare;
  readonly overheadMs: Record<'qmclone' | 'imgcopy' | 'qmigrate', number>;
  private readonly byType: Record<StorageDefinition['type'], number>;

  constructor(
    private readonly state: ClusterState,
    clock: SimClock,
    options: PhysicsOptions = {},
    /** Durations a caller fixed with `taskDurations`: they replace the model for that kind (backwards compatible). */
    readonly fixedMs: Partial<Record<TaskKind, number>> = {},
  ) {
    this.byType = { ...DEFAULT_BANDWIDTH, ...options.bandwidthByType };
    this.overheadMs = { ...DEFAULT_TASK_OVERHEAD_MS, ...options.taskOverheadMs };
    this.flows = new FairShare(clock, (key) => Math.max(1, this.bandwidthOfKey(key)));
  }

  /** The resource a storage is on a node: `node/storage` when local, `*\/storage` when shared. */
  storageKey(node: string, storage: string): string {
    const s = this.state.node(node)?.storages.get(storage);
    return s?.shared ? `*/${storage}` : `${node}/${storage}`;
  }

  /** Bytes/s of a storage as seen from a node (the storage's own figure, else its type's). */
  bandwidth(node: string, storage: string): number {
    const s =
      this.state.node(node)?.storages.get(storage) ??
      [...this.state.nodes.values()].find((n) => n.storages.has(storage))?.storages.get(storage);
    if (!s) return this.byType.dir;
    return s.bandwidthBytesPerSec ?? this.byType[s.type];
  }

  private bandwidthOfKey(key: string): number {
    const [node, storage] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    return this.bandwidth(node === '*' ? (this.state.storageNodes(storage)[0] ?? '') : node, storage);
  }

  /** A full clone's copies, in clone_vm's order (sorted drive keys, one clone_disk after another). */
  cloneCopies(source: SimVm, targetNode: string, storage?: string): DiskCopy[] {
    return diskEntries(source.config)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([disk, value]) => {
        const from = value.split(':')[0]!;
        return {
          disk,
          bytes: source.dataBytes?.[disk] ?? diskSize(value),
          from: this.storageKey(source.node, from),
          to: this.storageKey(targetNode, storage ?? from),
        };
      });
  }

  /**
   * An offline migration's copies (QemuMigrate scan_local_volumes, then one
   * storage_migrate per local volume, sorted): every disk on a local storage
   * moves to the same storage id on the target node; a disk on a shared
   * storage stays where it is and copies nothing.
   */
  migrateCopies(vm: SimVm, targetNode: string): DiskCopy[] {
    return diskEntries(vm.config)
      .sort(([a], [b]) => a.localeCompare(b))
      .filter(([, value]) => !this.state.node(vm.node)?.storages.get(value.split(':')[0]!)?.shared)
      .map(([disk, value]) => {
        const storage = value.split(':')[0]!;
        return {
          disk,
          bytes: vm.dataBytes?.[disk] ?? diskSize(value),
          from: this.storageKey(vm.node, storage),
          to: this.storageKey(targetNode, storage),
        };
      });
  }

  /**
   * The floor of an offline migration on an idle cluster, in simulated
   * seconds: overhead + Σ local disk data / min(source, target bandwidth),
   * the slower of the two storages. A fixed `taskDurations.qmigrate` replaces it.
   */
  migrateSeconds(vmid: number, targetNode: string): number {
    if (this.fixedMs.qmigrate !== undefined) return this.fixedMs.qmigrate / 1000;
    const vm = this.state.vm(vmid);
    if (!vm) throw new Error(`no VM ${vmid} in the simulated cluster`);
    let seconds = this.overheadMs.qmigrate / 1000;
    for (const c of this.migrateCopies(vm, targetNode))
      seconds += c.bytes / Math.min(this.bandwidthOfKey(c.from), this.bandwidthOfKey(c.to));
    return seconds;
  }

  /** Runs a full clone's copies one after another on the shared bandwidth. */
  async copy(copies: DiskCopy[]): Promise<void> {
    for (const c of copies) await this.flows.transfer(c.bytes, [c.from, c.to]);
  }

  /**
   * The floor of a full clone on an idle cluster, in simulated seconds:
   * overhead + Σ disk data / min(source, target bandwidth). A fixed
   * `taskDurations.qmclone` replaces it, as it replaces the model.
   */
  cloneSeconds(templateVmid: number, storage?: string, targetNode?: string): number {
    if (this.fixedMs.qmclone !== undefined) return this.fixedMs.qmclone / 1000;
    const vm = this.state.vm(templateVmid);
    if (!vm) throw new Error(`no VM ${templateVmid} in the simulated cluster`);
    let seconds = this.overheadMs.qmclone / 1000;
    for (const c of this.cloneCopies(vm, targetNode ?? vm.node, storage))
      seconds += c.bytes / Math.min(this.bandwidthOfKey(c.from), this.bandwidthOfKey(c.to));
    return seconds;
  }

  /** The floor of an ISO import (`imgcopy`) of `bytes` onto a storage, in simulated seconds. */
  uploadSeconds(node: string, storage: string, bytes: number): number {
    if (this.fixedMs.imgcopy !== undefined) return this.fixedMs.imgcopy / 1000;
    return this.overheadMs.imgcopy / 1000 + bytes / this.bandwidth(node, storage);
  }
}

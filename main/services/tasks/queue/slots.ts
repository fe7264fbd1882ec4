/**
 * Bounded concurrency: globally, per node, and full clones per storage. A
 * task takes a global and a node slot before it sends anything, so a bulk
 * create cannot flood a node; a full clone also takes a slot of the storage
 * it copies onto. Waiters are served first come, first served, skipping
 * those whose node or storage is full so one busy node does not hold up the
 * others.
 */
export interface Limits {
  /** Tasks running at once across every cluster (default 12). */
  global: number;
  /** Tasks running at once on one node (default 4, Proxmox's own bulk-action default). */
  perNode: number;
  /** Full clones copying onto one storage at once (default 2). */
  clonesPerStorage: number;
}

/**
 * Proxmox's own bulk actions run at most `max_workers` tasks at once per node: datacenter.cfg's
 * `max_workers` (pve-cluster src/PVE/DataCenterConfig.pm, "how many workers (per node) are maximal
 * started on actions like 'stopall VMs' or task from the ha-manager"), which the GUI shows with a
 * default of 4 (pve-manager www/manager6/dc/OptionView.js `add_integer_row('max_workers', …,
 * {defaultValue: 4})`) and the HA manager falls back to 4 (pve-ha-manager src/PVE/HA/Env/PVE2.pm
 * `get_max_workers`: `$datacenterconfig->{max_workers} || 4`). Bulk start/stop/suspend
 * (pve-manager PVE/API2/Nodes.pm `get_max_workers`) take the `max-workers` parameter, then
 * `max_workers`, then the CPU threads less one, clamped to 1..8; migrateall refuses to run
 * without one of the first two.
 */
export const PVE_MAX_WORKERS_DEFAULT = 4;

/**
 * What a node can bear. Tasks per node: Proxmox's own default for bulk work (above), never more
 * unless the user raises it. Full clones per storage: a full clone is bound by the storage's
 * bandwidth, which concurrent copies share (the simulator's physics, docs/simulator.md): n copies
 * each take about n times as long, so a third copy only lengthens every wall time. A second one
 * does pay: each clone spends a fixed part of its time (fork, locks, allocating the volume, writing
 * the config; ~1.5 s against ~1 s of copying for the demo template on an SSD) not copying, and the
 * other copy keeps the disk busy meanwhile. Global: three nodes' worth.
 */
export const defaultLimits: Limits = { global: 12, perNode: PVE_MAX_WORKERS_DEFAULT, clonesPerStorage: 2 };

/** Bounds the Settings form and main's validation share. */
export const limitBounds = {
  global: { min: 1, max: 64 },
  perNode: { min: 1, max: 64 },
  clonesPerStorage: { min: 1, max: 16 },
} as const;

/**
 * The key of the storage a full clone copies onto: one per cluster when the storage is shared (every
 * node writes to the same NAS), one per node when it is local (each node has its own disk).
 */
export function cloneStorageKey(o: { clusterId: string; node: string; storage: string; shared: boolean }): string {
  return o.shared ? `${o.clusterId}/*/storage/${o.storage}` : `${o.clusterId}/${o.node}/storage/${o.storage}`;
}

export interface AcquireOptions {
  /** A full clone's storage key (cloneStorageKey): the slot then also takes one of that storage's clone slots. */
  storage?: string | undefined;
}

interface Waiter {
  /** `<cluster>/<node>`, `<cluster>/` (global limit only), or undefined (a storage slot alone). */
  key: string | undefined;
  storage: string | undefined;
  grant: () => void;
}

export class Slots {
  private running = 0;
  private readonly perKey = new Map<string, number>();
  private readonly perStorage = new Map<string, number>();
  private readonly peaks = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private limits: Limits;

  constructor(limits: Partial<Limits> = {}) {
    this.limits = { ...defaultLimits, ...limits };
  }

  /** The limits in force. */
  current(): Limits {
    return { ...this.limits };
  }

  /** Changes the limits (Settings); work already running keeps its slots, waiters are served under the new ones. */
  setLimits(limits: Partial<Limits>): void {
    this.limits = { ...this.limits, ...limits };
    this.pump();
  }

  /**
   * Resolves with a release function once a slot is free. `key` is `<cluster>/<node>`, or
   * `<cluster>/` when the node is unknown (global limit only). With `storage`, the slot also holds
   * one of that storage's full-clone slots, granted together.
   */
  acquire(key: string, signal: AbortSignal, options: AcquireOptions = {}): Promise<() => void> {
    return this.enqueue({ key, storage: options.storage }, signal);
  }

  /**
   * One full-clone slot of a storage alone, for the length of the clone step: the task already
   * holds its node slot. Release it when the clone task ends.
   */
  acquireStorage(storage: string, signal: AbortSignal): Promise<() => void> {
    return this.enqueue({ key: undefined, storage }, signal);
  }

  /** The most clones that held a slot of each storage at once (the bench). */
  peakClonesPerStorage(): Record<string, number> {
    return Object.fromEntries(this.peaks);
  }

  private enqueue(w: Omit<Waiter, 'grant'>, signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        ...w,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.releaser(waiter));
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('cancelled while queued'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  private fits(w: Waiter): boolean {
    if (w.key !== undefined) {
      if (this.running >= this.limits.global) return false;
      if (!w.key.endsWith('/') && (this.perKey.get(w.key) ?? 0) >= this.limits.perNode) return false;
    }
    return w.storage === undefined || (this.perStorage.get(w.storage) ?? 0) < this.limits.clonesPerStorage;
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const w = this.waiting[i]!;
      if (!this.fits(w)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      if (w.key !== undefined) {
        this.running++;
        this.perKey.set(w.key, (this.perKey.get(w.key) ?? 0) + 1);
      }
      if (w.storage !== undefined) {
        const n = (this.perStorage.get(w.storage) ?? 0) + 1;
        this.perStorage.set(w.storage, n);
        this.peaks.set(w.storage, Math.max(this.peaks.get(w.storage) ?? 0, n));
      }
      w.grant();
    }
  }

  private releaser(w: Waiter): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (w.key !== undefined) {
        this.running--;
        decrement(this.perKey, w.key);
      }
      if (w.storage !== undefined) decrement(this.perStorage, w.storage);
      this.pump();
    };
  }
}

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
}

/**
 * A create is finished for the user when the proxy can be used: when its
 * guest agent reports an address. The inventory already reads the agent of
 * every running marked VM whose address is unknown; this watches what it
 * publishes (no polling of its own) and tells the task manager when the
 * address of a created VM arrives, or gives up after a bound with the
 * reason and what to check.
 */
import type { InventoryDelta, VmRow } from '../../../shared/channels/inventory';
import type { MainBus } from '../../events/main-bus';

/** What the inventory tells: the row of a VM now, and every change as it is published. */
export interface AddressFeed {
  row(clusterId: string, vmid: number): VmRow | undefined;
  subscribe(listener: (delta: Pick<InventoryDelta, 'clusterId' | 'added' | 'changed' | 'removed'>) => void): () => void;
}

/** A feed over main's `inventory.delta` messages and the inventory's rows. */
export function inventoryFeed(
  bus: { main: Pick<MainBus, 'on'> },
  inventory: { vm(clusterId: string, vmid: number): VmRow | undefined },
): AddressFeed {
  return {
    row: (clusterId, vmid) => inventory.vm(clusterId, vmid),
    subscribe: (listener) => bus.main.on('inventory.delta', listener),
  };
}

/** Ten minutes: a cloud image boots, installs the agent and takes a DHCP lease well within it. */
export const DEFAULT_ADDRESS_WAIT_MS = 10 * 60_000;

export interface Watched {
  taskId: string;
  clusterId: string;
  vmid: number;
  /** The create's UID: a row with another UID in its mark is not this proxy. */
  uid: string;
  name: string;
  /** When the wait began (ms since the epoch). */
  since: number;
}

export type AddressOutcome = { state: 'ready'; value: string } | { state: 'gave-up'; reason: string; hint: string };

export interface AddressWatchOptions {
  feed: AddressFeed;
  waitMs: number;
  now: () => number;
  settle: (w: Watched, outcome: AddressOutcome) => void;
}

export class AddressWatch {
  private readonly watched = new Map<string, { w: Watched; timer: NodeJS.Timeout }>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly o: AddressWatchOptions) {}

  /** Starts (or, after a restart, resumes) the wait; settles at once when the inventory already knows the address. */
  watch(w: Watched): void {
    this.stop(w.taskId);
    const left = w.since + this.o.waitMs - this.o.now();
    const timer = setTimeout(() => this.giveUp(w.taskId), Math.max(0, left));
    timer.unref();
    this.watched.set(w.taskId, { w, timer });
    this.unsubscribe ??= this.o.feed.subscribe((d) => this.onDelta(d));
    const row = this.o.feed.row(w.clusterId, w.vmid);
    if (row) this.look(w, row);
  }

  stop(taskId: string): void {
    const entry = this.watched.get(taskId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.watched.delete(taskId);
    if (this.watched.size === 0) {
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    }
  }

  close(): void {
    for (const id of [...this.watched.keys()]) this.stop(id);
  }

  get size(): number {
    return this.watched.size;
  }

  private onDelta(d: Pick<InventoryDelta, 'clusterId' | 'added' | 'changed' | 'removed'>): void {
    for (const { w } of [...this.watched.values()]) {
      if (w.clusterId !== d.clusterId) continue;
      if (d.removed.includes(w.vmid)) {
        this.settle(w, {
          state: 'gave-up',
          reason: `VM ${w.vmid} (${w.name}) is no longer listed in the cluster, so it will not get an address.`,
          hint: 'It was deleted or moved away; create the proxy again if you still need it.',
        });
        continue;
      }
      const row = d.added.find((r) => r.vmid === w.vmid) ?? d.changed.find((r) => r.vmid === w.vmid);
      if (row) this.look(w, row);
    }
  }

  private look(w: Watched, row: VmRow): void {
    if (row.uid !== undefined && row.uid !== w.uid) return; // another VM at the VMID: not this proxy
    if (row.address) this.settle(w, { state: 'ready', value: row.address });
  }

  private giveUp(taskId: string): void {
    const entry = this.watched.get(taskId);
    if (!entry) return;
    const { w } = entry;
    const row = this.o.feed.row(w.clusterId, w.vmid);
    const minutes = Math.round(this.o.waitMs / 60_000);
    const waited = minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(this.o.waitMs / 1000)} s`;
    const running = row === undefined || row.state === 'running';
    this.settle(w, {
      state: 'gave-up',
      reason: running
        ? `${w.name} runs, but its guest agent reported no address within ${waited}.`
        : `${w.name} is ${row.state} (VM ${w.vmid}), and reported no address within ${waited}.`,
      hint: running
        ? 'Check that qemu-guest-agent is installed and running in the template (and the VM’s Guest Agent option is on), and that the VM gets an address on its network (DHCP). The address shows in Proxies as soon as the agent reports one.'
        : `Start VM ${w.vmid} in Proxmox; once its guest agent reports an address it shows in Proxies.`,
    });
  }

  private settle(w: Watched, outcome: AddressOutcome): void {
    this.stop(w.taskId);
    this.o.settle(w, outcome);
  }
}

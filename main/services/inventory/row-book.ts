/**
 * The VM rows of one cluster, kept in place from refresh to refresh: at
 * 5,000 VMs, building new maps and rows each time costs more than all the
 * rest, and almost nothing changes. A row is rebuilt only when what it is
 * made of changed, and compared only then.
 */
import type { ClusterResource } from '../../core';
import type { VmRow } from '../../../shared/channels/inventory';
import { sameRecord, type RowChanges } from './diff';
import { sameRowSource, vmRow, type RowFacts } from './rows';

interface Entry {
  /** The listing entry the row was built from. */
  r: ClusterResource;
  facts: RowFacts;
  row: VmRow;
  /** The update that last listed this VM. */
  seen: number;
}

export class RowBook {
  /** The current rows by VMID; read between updates. */
  readonly rows = new Map<number, VmRow>();
  private readonly entries = new Map<number, Entry>();
  private updates = 0;

  constructor(private readonly clusterId: string) {}

  /** Brings the rows to this listing; answers what was added, changed and removed. */
  update(vms: readonly ClusterResource[], factsOf: (r: ClusterResource) => RowFacts): RowChanges {
    const changes: RowChanges = { added: [], changed: [], removed: [] };
    const seen = ++this.updates;
    for (const r of vms) {
      const vmid = r.vmid!;
      const facts = factsOf(r);
      const entry = this.entries.get(vmid);
      if (entry && entry.seen !== seen && sameRowSource(entry, r, facts)) {
        // The entry keeps its first source (equal where it counts): holding on to every listing would move
        // each one to the old generation just before it dies, and a major collection would follow.
        entry.seen = seen;
        continue;
      }
      const row = vmRow(this.clusterId, r, facts);
      if (!entry) changes.added.push(row);
      else if (!sameRecord(entry.row, row)) changes.changed.push(row);
      this.entries.set(vmid, { r, facts, row, seen });
      this.rows.set(vmid, row);
    }
    for (const [vmid, entry] of this.entries) {
      if (entry.seen === seen) continue;
      this.entries.delete(vmid);
      this.rows.delete(vmid);
      changes.removed.push(vmid);
    }
    return changes;
  }
}

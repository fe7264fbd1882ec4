/**
 * The mark of each VM, read once: the description is written at clone time
 * and never changes, so a VMID and name seen before cost no request. A VMID
 * reused under another name is another key, so it is read again.
 */
import type { Mark } from '../../core';

export interface KnownMark {
  managed: boolean;
  uid: string;
  createdAt: string | undefined;
}

export function knownMark(mark: Mark): KnownMark {
  return { managed: mark.managed, uid: mark.uid, createdAt: mark.createdAt?.toISOString() };
}

export class MarkCache {
  /** VMID → name → mark: looked up for every VM on every refresh, so no key text is built. */
  private readonly marks = new Map<number, Map<string, KnownMark>>();
  private count = 0;

  get(vmid: number, name: string): KnownMark | undefined {
    return this.marks.get(vmid)?.get(name);
  }

  set(vmid: number, name: string, mark: KnownMark): void {
    let byName = this.marks.get(vmid);
    if (!byName) this.marks.set(vmid, (byName = new Map()));
    if (!byName.has(name)) this.count++;
    byName.set(name, mark);
  }

  /** Forgets the VMs no longer listed, so the cache never outgrows the cluster. */
  retain(listed: ReadonlyArray<{ vmid?: number; name?: string }>): void {
    let named = 0;
    for (const v of listed) if (v.vmid !== undefined && v.name) named++;
    if (this.count <= named) return;
    const keep = new Map<number, Set<string>>();
    for (const { vmid, name } of listed) if (vmid !== undefined && name) keep.set(vmid, (keep.get(vmid) ?? new Set()).add(name));
    for (const [vmid, byName] of this.marks) {
      for (const name of byName.keys()) {
        if (keep.get(vmid)?.has(name)) continue;
        byName.delete(name);
        this.count--;
      }
      if (byName.size === 0) this.marks.delete(vmid);
    }
  }

  get size(): number {
    return this.count;
  }
}

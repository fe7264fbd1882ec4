/**
 * The mark of each VM, read once: the description is written at clone time
 * and never changes, so a VMID and name seen before cost no request. A VMID
 * reused under another name is another key, so it is read again.
 */
import type { Mark } from '../../core/provider/mark';

export interface KnownMark {
  managed: boolean;
  uid: string;
  createdAt: string | undefined;
}

const keyOf = (vmid: number, name: string) => `${vmid}\n${name}`;

export function knownMark(mark: Mark): KnownMark {
  return { managed: mark.managed, uid: mark.uid, createdAt: mark.createdAt?.toISOString() };
}

export class MarkCache {
  private readonly marks = new Map<string, KnownMark>();

  get(vmid: number, name: string): KnownMark | undefined {
    return this.marks.get(keyOf(vmid, name));
  }

  set(vmid: number, name: string, mark: KnownMark): void {
    this.marks.set(keyOf(vmid, name), mark);
  }

  /** Forgets the VMs no longer listed, so the cache never outgrows the cluster. */
  retain(listed: ReadonlyArray<{ vmid: number; name: string }>): void {
    if (this.marks.size <= listed.length) return;
    const keep = new Set(listed.map((v) => keyOf(v.vmid, v.name)));
    for (const key of this.marks.keys()) if (!keep.has(key)) this.marks.delete(key);
  }

  get size(): number {
    return this.marks.size;
  }
}

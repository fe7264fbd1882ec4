/**
 * The marks this client's creates wrote, so a reader of the same cluster
 * (the inventory) need not read a new proxy's config to learn its mark.
 *
 * The mark lives in the VM's `description`, which create passes to the clone
 * (qemu-server API2/Qemu.pm clone_vm: `$newconf->{description} =
 * $param->{description}`) and nothing of ours changes afterwards. It is
 * recorded only once the clone task ended OK, keyed by VMID and name like the
 * inventory's own mark cache (a VMID reused under another name is another
 * key), one book per client as the task watcher is. While the clone runs the
 * VM is only expected: a reader waits for the outcome instead of reading the
 * config (the clone may end before this client sees its task end), and
 * learns nothing from it (the VMID may be someone else's after all, F4).
 */
import type { PveApi } from '../../pve/api';

/** Enough for a few bulks; the oldest entries go first (the inventory has usually taken them long before). */
export const WRITTEN_MARKS_KEPT = 1024;

export class WrittenMarks {
  /** `vmid name` → description, in the order written. */
  private readonly byKey = new Map<string, string>();
  /** Clones submitted or about to be, whose outcome is not known yet. */
  private readonly expected = new Set<string>();
  private readonly rewrites = new Map<string, { vmid: number; name: string; description: string }>();

  /** A clone onto `vmid` named `name` is about to be submitted. */
  expect(vmid: number, name: string): void {
    this.expected.add(`${vmid} ${name}`);
  }

  /** The clone did not end OK (refused, failed, cancelled): the VM at `vmid`, if any, is not known to be ours. */
  forget(vmid: number, name: string): void {
    this.expected.delete(`${vmid} ${name}`);
  }

  /** Whether a clone of this client's onto `vmid` named `name` is still running (its mark is not known yet). */
  pending(vmid: number, name: string): boolean {
    return this.expected.has(`${vmid} ${name}`);
  }

  record(vmid: number, name: string, description: string): void {
    const key = `${vmid} ${name}`;
    this.expected.delete(key);
    this.byKey.delete(key);
    this.byKey.set(key, description);
    while (this.byKey.size > WRITTEN_MARKS_KEPT) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** Issue 26: a release (or its undo) rewrote the mark of a VM the reader may have cached: recorded, and handed over once. */
  rewrite(vmid: number, name: string, description: string): void {
    this.record(vmid, name, description);
    this.rewrites.set(`${vmid} ${name}`, { vmid, name, description });
  }

  /** The marks rewritten since the last call (the inventory replaces its cached ones with them). */
  takeRewrites(): { vmid: number; name: string; description: string }[] {
    const out = [...this.rewrites.values()];
    this.rewrites.clear();
    return out;
  }

  /** The description a create of ours gave the VM at `vmid` named `name`, if one did. */
  get(vmid: number, name: string): string | undefined {
    return this.byKey.get(`${vmid} ${name}`);
  }

  get size(): number {
    return this.byKey.size;
  }
}

const books = new WeakMap<PveApi, WrittenMarks>();

/** The one book of a client: the provider writes to it, the services read it. */
export function writtenMarksOf(api: PveApi): WrittenMarks {
  let book = books.get(api);
  if (!book) books.set(api, (book = new WrittenMarks()));
  return book;
}

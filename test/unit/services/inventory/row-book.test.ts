/**
 * The inventory's row book: rows are kept from listing to listing and only
 * what a user would see change is reported (a new, changed or gone VM).
 */
import { describe, expect, it } from 'vitest';
import type { ClusterResource } from '../../../../main/core/pve/schemas';
import type { RowFacts } from '../../../../main/services/inventory/rows';
import { RowBook } from '../../../../main/services/inventory/row-book';

const vm = (vmid: number, extra: Partial<ClusterResource> = {}): ClusterResource => ({
  id: `qemu/${vmid}`,
  type: 'qemu',
  vmid,
  node: 'pve1',
  status: 'running',
  name: `proxy-${vmid}`,
  uptime: 10,
  ...extra,
});
const mark = { managed: true, uid: 'u-1', createdAt: '2026-01-01T00:00:00.000Z' };
const facts =
  (address?: string): ((r: ClusterResource) => RowFacts) =>
  () => ({ mark, address, startedAt: undefined, origin: { template: 'debian-13', machineType: 'small' } });

describe('RowBook', () => {
  it('reports every VM as added at first, then nothing while the listing only ticks uptimes', () => {
    const book = new RowBook('c1');
    expect(book.update([vm(1), vm(2)], facts()).added.map((r) => r.vmid)).toEqual([1, 2]);
    const rowBefore = book.rows.get(1);
    const again = book.update([vm(1, { uptime: 15 }), vm(2, { uptime: 15 })], facts());
    expect(again).toEqual({ added: [], changed: [], removed: [] });
    expect(book.rows.get(1)).toBe(rowBefore);
  });

  it('reports a renamed VM, a learnt address, and a VM gone from the listing', () => {
    const book = new RowBook('c1');
    book.update([vm(1), vm(2), vm(3)], facts());
    const next = book.update([vm(1, { name: 'proxy-renamed' }), vm(2)], (r) => facts(r.vmid === 2 ? '10.0.0.2' : undefined)(r));
    expect(next.changed.map((r) => [r.vmid, r.name, r.address])).toEqual([
      [1, 'proxy-renamed', undefined],
      [2, 'proxy-2', '10.0.0.2'],
    ]);
    expect(next.removed).toEqual([3]);
    expect([...book.rows.keys()]).toEqual([1, 2]);
  });

  it('does not report a rebuilt row that looks the same (a new but equal mark)', () => {
    const book = new RowBook('c1');
    book.update([vm(1)], facts());
    const sameMark = () => ({
      mark: { ...mark },
      address: undefined,
      startedAt: undefined,
      origin: { template: 'debian-13', machineType: 'small' },
    });
    expect(book.update([vm(1)], sameMark)).toEqual({ added: [], changed: [], removed: [] });
  });
});

/**
 * The search keeps recent results and narrows the previous one as the user
 * types: whatever the sequence of texts and filters, what it returns must be
 * exactly what a plain filter over every row returns, in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VmRowState } from '../../../shared/channels/inventory';
import { filterRows, sortedRowsOf, type ProxyRow, type RowFilter } from '../../../renderer/src/views/proxies/rows';
import { cluster, vm } from './data';

const rows: ProxyRow[] = sortedRowsOf(
  [cluster(Array.from({ length: 400 }, (_, i) => vm(100 + i, i % 7 === 0 ? { state: 'stopped' } : {})))],
  { column: 'name', descending: false },
);

function plain(all: readonly ProxyRow[], f: RowFilter): ProxyRow[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter(
    (r) =>
      (f.states.size === 0 || f.states.has(r.state)) &&
      (f.node === undefined || r.node === f.node) &&
      (f.clusterId === undefined || r.clusterId === f.clusterId) &&
      words.every((w) => r.haystack.includes(w)),
  );
}

// Texts built from the pieces that appear in the rows, so most searches match something.
const piece = fc.constantFrom('proxy', '1', '12', '0', '10.0', '.', 'pve', 'pve1', 'uid-1', ' ', 'x', '3', 'demo');
const text = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
const filter = fc.record({
  text,
  states: fc.constantFrom<ReadonlySet<VmRowState>>(new Set(), new Set(['running'] as VmRowState[]), new Set(['stopped'] as VmRowState[])),
  node: fc.constantFrom(undefined, 'pve1', 'pve2'),
  clusterId: fc.constantFrom(undefined, 'demo'),
});

describe('search over the proxies', () => {
  it('returns exactly the plain filter for any sequence of keystrokes and filters', () => {
    fc.assert(
      fc.property(fc.array(filter, { minLength: 1, maxLength: 40 }), (sequence) => {
        for (const f of sequence) expect(filterRows(rows, f).map((r) => r.key)).toEqual(plain(rows, f).map((r) => r.key));
      }),
      { numRuns: 300 },
    );
  });

  it('typing on narrows the previous result and erasing gives back the same list', () => {
    const base = { states: new Set<VmRowState>(), node: undefined, clusterId: undefined };
    const one = filterRows(rows, { ...base, text: '1' });
    const twelve = filterRows(rows, { ...base, text: '12' });
    expect(twelve.map((r) => r.key)).toEqual(plain(rows, { ...base, text: '12' }).map((r) => r.key));
    expect(filterRows(rows, { ...base, text: '1' })).toBe(one);
  });
});

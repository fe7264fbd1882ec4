/** What changed between two listings of one cluster, row by row. */
import type { NodeRow, VmRow } from '../../../shared/channels/inventory';

export interface RowChanges {
  added: VmRow[];
  changed: VmRow[];
  removed: number[];
}

/** Rows are flat records of scalars and string arrays: a field-by-field compare is exact and cheap. */
export function sameRecord(a: object, b: object): boolean {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const key of keys) {
    const x = ra[key];
    const y = rb[key];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((v, i) => (typeof v === 'object' && v !== null ? !sameRecord(v, y[i]) : v !== y[i])))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

export function sameNodes(a: readonly NodeRow[], b: readonly NodeRow[]): boolean {
  return a.length === b.length && a.every((row, i) => sameRecord(row, b[i]!));
}

export const isEmpty = (c: RowChanges) => c.added.length === 0 && c.changed.length === 0 && c.removed.length === 0;

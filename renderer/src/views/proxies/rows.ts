/**
 * The proxies table's data: every cluster's VM rows flattened, then
 * filtered and sorted. Pure functions over the inventory store's rows, so
 * a keystroke in the search box costs one pass over the rows and no sort.
 */
import type { ClusterInventory, VmRow, VmRowState } from '../../../../shared/channels/inventory';
import { rowKey } from '../../stores/proxy-focus';

export interface ProxyRow extends VmRow {
  key: string;
  clusterName: string;
  /** Lower-cased text the free-text search looks in: name, address, VMID, UID, node, cluster, tags. */
  haystack: string;
}

export { rowKey };

// A delta keeps the VmRow objects it did not change, so their table rows (and search text) are kept too.
const proxyRowCache = new WeakMap<VmRow, ProxyRow>();

function proxyRowOf(vm: VmRow, c: ClusterInventory): ProxyRow {
  const cached = proxyRowCache.get(vm);
  if (cached?.clusterName === c.name && cached.clusterId === c.clusterId) return cached;
  const haystack = [vm.name, vm.address, String(vm.vmid), vm.uid, vm.node, c.name, ...vm.tags].filter(Boolean).join(' ').toLowerCase();
  const row = { ...vm, key: rowKey(c.clusterId, vm.vmid), clusterName: c.name, haystack };
  proxyRowCache.set(vm, row);
  return row;
}

export function flattenRows(clusters: readonly ClusterInventory[]): ProxyRow[] {
  const rows: ProxyRow[] = [];
  for (const c of clusters) for (const vm of c.vms) rows.push(proxyRowOf(vm, c));
  return rows;
}

export type SortColumn = 'name' | 'state' | 'address' | 'cluster' | 'node' | 'vmid' | 'machine' | 'age' | 'uid';
export interface SortOrder {
  column: SortColumn;
  descending: boolean;
}

/** Dotted IPv4 addresses sort by number, not by text (10.0.0.9 before 10.0.0.10). */
function addressKey(a: string | undefined): string {
  if (!a) return '\uffff';
  const parts = a.split('.');
  return parts.length === 4 ? parts.map((p) => p.padStart(3, '0')).join('.') : a;
}

const sortValue: Record<SortColumn, (r: ProxyRow) => string | number> = {
  name: (r) => r.name ?? '\uffff',
  state: (r) => r.state,
  address: (r) => addressKey(r.address),
  cluster: (r) => r.clusterName,
  node: (r) => r.node,
  vmid: (r) => r.vmid,
  machine: (r) => (r.cores ?? 0) * 1e6 + (r.memoryMiB ?? 0),
  // Oldest first when ascending; rows without a creation time last.
  age: (r) => (r.createdAt ? Date.parse(r.createdAt) : Number.MAX_SAFE_INTEGER),
  uid: (r) => r.uid ?? '\uffff',
};

// One collator for every comparison: String.localeCompare builds one per call, which is ten times slower at 5,000 rows.
const collator = new Intl.Collator(undefined, { numeric: true });

export function sortRows(rows: readonly ProxyRow[], order: SortOrder): ProxyRow[] {
  const value = sortValue[order.column];
  const sign = order.descending ? -1 : 1;
  const keyed = rows.map((r) => ({ r, v: value(r) }));
  keyed.sort((a, b) => {
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : collator.compare(String(a.v), String(b.v));
    return c * sign || a.r.vmid - b.r.vmid;
  });
  return keyed.map((k) => k.r);
}

// Rows sorted per inventory state and order, kept while that state lives, so reopening the view costs no sort.
const sortedCache = new WeakMap<readonly ClusterInventory[], Map<string, ProxyRow[]>>();

export function sortedRowsOf(clusters: readonly ClusterInventory[], order: SortOrder): ProxyRow[] {
  let byOrder = sortedCache.get(clusters);
  if (!byOrder) {
    byOrder = new Map();
    sortedCache.set(clusters, byOrder);
  }
  const key = `${order.column}:${order.descending}`;
  let sorted = byOrder.get(key);
  if (!sorted) {
    const flat = byOrder.get('flat') ?? flattenRows(clusters);
    byOrder.set('flat', flat);
    sorted = sortRows(flat, order);
    byOrder.set(key, sorted);
  }
  return sorted;
}

export interface RowFilter {
  text: string;
  states: ReadonlySet<VmRowState>;
  node: string | undefined;
  clusterId: string | undefined;
  /** Issue 23: only rows carrying this Proxmox tag. */
  tag?: string | undefined;
}

export const noFilter: RowFilter = { text: '', states: new Set(), node: undefined, clusterId: undefined };

const searchWords = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

function filterFrom(rows: readonly ProxyRow[], f: RowFilter, words: readonly string[]): ProxyRow[] {
  const out: ProxyRow[] = [];
  const { states, node, clusterId, tag } = f;
  for (const r of rows) {
    if (states.size > 0 && !states.has(r.state)) continue;
    if (tag !== undefined && !r.tags.includes(tag)) continue;
    if (node !== undefined && r.node !== node) continue;
    if (clusterId !== undefined && r.clusterId !== clusterId) continue;
    let all = true;
    for (const w of words)
      if (!r.haystack.includes(w)) {
        all = false;
        break;
      }
    if (all) out.push(r);
  }
  return out;
}

/** Every row matching `next` matches `prev` too: each of prev's words is part of one of next's. */
const narrows = (prev: readonly string[], next: readonly string[]) => prev.every((p) => next.some((n) => n.includes(p)));

interface FilterCache {
  /** The filter the cached results are for, apart from the text. */
  states: ReadonlySet<VmRowState>;
  node: string | undefined;
  clusterId: string | undefined;
  tag: string | undefined;
  /** Recent results by their search words, newest last (typing on narrows the newest; erasing finds an older one). */
  results: Map<string, { words: string[]; rows: ProxyRow[] }>;
}

// Per sorted list (a new inventory state or order starts afresh): a keystroke looks in the rows the previous
// text matched rather than in all of them, and erasing a character gives back the list that text had (the same array).
const filterCache = new WeakMap<readonly ProxyRow[], FilterCache>();
const RECENT_RESULTS = 32;

export function filterRows(rows: readonly ProxyRow[], f: RowFilter): ProxyRow[] {
  const words = searchWords(f.text);
  let cache = filterCache.get(rows);
  if (!cache || cache.states !== f.states || cache.node !== f.node || cache.clusterId !== f.clusterId || cache.tag !== f.tag) {
    cache = { states: f.states, node: f.node, clusterId: f.clusterId, tag: f.tag, results: new Map() };
    filterCache.set(rows, cache);
  }
  const key = words.join(' ');
  const hit = cache.results.get(key);
  if (hit) {
    cache.results.delete(key);
    cache.results.set(key, hit);
    return hit.rows;
  }
  // The smallest recent result that every match of these words is in.
  let from: readonly ProxyRow[] = rows;
  for (const r of cache.results.values()) if (r.rows.length < from.length && narrows(r.words, words)) from = r.rows;
  const shown = filterFrom(from, f, words);
  cache.results.set(key, { words, rows: shown });
  if (cache.results.size > RECENT_RESULTS) cache.results.delete(cache.results.keys().next().value!);
  return shown;
}

/** How the table names who made a VM: the mark is shared with the Kubernetes operator. */
export function ownerLabel(
  r: Pick<VmRow, 'owner' | 'ours' | 'handedOff'>,
): { label: string; tone: 'ok' | 'info' | 'warn' | 'neutral'; title: string } {
  if (r.owner === 'foreign')
    return {
      label: 'foreign',
      tone: 'warn',
      title: 'Named or tagged like a proxy, without the proxy mark: shown for information, never touched.',
    };
  if (r.owner === 'pending')
    return { label: 'reading mark', tone: 'info', title: 'Not known yet: the VM is being cloned or its mark is not read yet.' };
  // Issue 26: released here for the operator's adoption; treated as operator-made from then on.
  if (r.handedOff)
    return {
      label: 'handed to the operator',
      tone: 'neutral',
      title:
        'Released for the Kubernetes operator: its mark has no UID, so the operator adopts it. Treated as operator-made; Hand to Kubernetes… offers Undo while no Proxy names it.',
    };
  if (r.ours === false)
    return {
      label: 'operator-made',
      tone: 'neutral',
      title:
        'Carries the proxy mark, but this app has no record of making it: the Kubernetes operator, another copy of the app, or older than the task history.',
    };
  return { label: 'marked', tone: 'ok', title: 'Carries the proxy mark.' };
}

/** The provider id main's delete takes. */
export const providerId = (r: Pick<VmRow, 'vmid' | 'name'>) => `vms/${r.vmid}/${r.name ?? ''}`;

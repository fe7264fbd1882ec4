/**
 * What "Search from anywhere" (Ctrl+K) offers: the proxies, nodes,
 * templates and tasks the renderer's stores already hold, as one list, and
 * the matching of a query against it. Matching only: every word of the query
 * must appear in an item's words (any order, any case); an item whose name
 * starts with the query comes first, then one whose name holds it.
 */
import type { ClusterInventory } from '../../../../shared/channels/inventory';
import type { TaskView } from '../../../../shared/channels/tasks';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { kindLabel } from '../../views/tasks/words';

export type SearchKind = 'proxy' | 'node' | 'template' | 'task';

export type SearchTarget =
  | { kind: 'proxy'; clusterId: string; vmid: number }
  | { kind: 'node'; clusterId: string; node: string }
  | { kind: 'template'; clusterId: string; name: string }
  | { kind: 'task'; id: string };

export interface SearchItem {
  /** Unique in the list: the option's id. */
  key: string;
  kind: SearchKind;
  /** The name shown first. */
  label: string;
  /** Where it is, in words: cluster, node, state. */
  detail: string;
  target: SearchTarget;
  /** Lower-cased words the query is matched against. */
  haystack: string;
}

export const kindWord: Record<SearchKind, string> = { proxy: 'Proxy', node: 'Node', template: 'Template', task: 'Task' };

const hay = (...parts: (string | number | undefined)[]) =>
  parts
    .filter((p) => p !== undefined && p !== '')
    .join(' ')
    .toLowerCase();

/** Every item, in the order proxies, nodes, templates, tasks (newest first). */
export function searchItems(
  clusters: readonly ClusterInventory[],
  profiles: readonly ProfileSummary[],
  tasks: readonly TaskView[],
): SearchItem[] {
  const items: SearchItem[] = [];
  const clusterName = new Map<string, string>([
    ...profiles.map((p) => [p.id, p.name] as const),
    ...clusters.map((c) => [c.clusterId, c.name] as const),
  ]);
  for (const c of clusters)
    for (const vm of c.vms) {
      const label = vm.name ?? `VM ${vm.vmid}`;
      items.push({
        key: `proxy:${c.clusterId}/${vm.vmid}`,
        kind: 'proxy',
        label,
        detail: [`VM ${vm.vmid}`, vm.state, vm.address, `${vm.node} · ${c.name}`].filter(Boolean).join(' · '),
        target: { kind: 'proxy', clusterId: c.clusterId, vmid: vm.vmid },
        haystack: hay(label, vm.vmid, vm.address, vm.uid, vm.node, c.name, 'proxy'),
      });
    }
  for (const c of clusters)
    for (const n of c.nodes)
      items.push({
        key: `node:${c.clusterId}/${n.node}`,
        kind: 'node',
        label: n.node,
        detail: `${n.status} · ${c.name}`,
        target: { kind: 'node', clusterId: c.clusterId, node: n.node },
        haystack: hay(n.node, c.name, 'node'),
      });
  for (const p of profiles)
    for (const [name, t] of Object.entries(p.templates))
      items.push({
        key: `template:${p.id}/${name}`,
        kind: 'template',
        label: name,
        detail: `VM ${t.vmid} · ${p.name}`,
        target: { kind: 'template', clusterId: p.id, name },
        haystack: hay(name, t.vmid, p.name, 'template'),
      });
  for (const t of [...tasks].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    const label = `${kindLabel[t.kind]} ${t.target}`;
    const cluster = clusterName.get(t.clusterId);
    items.push({
      key: `task:${t.id}`,
      kind: 'task',
      label,
      detail: [t.state, t.node, cluster].filter(Boolean).join(' · '),
      target: { kind: 'task', id: t.id },
      haystack: hay(label, t.state, t.node, t.vmid, cluster, 'task'),
    });
  }
  return items;
}

/** The items matching `query`, best first, at most `limit`; an empty query gives the first `limit` as listed. */
export function matchItems(items: readonly SearchItem[], query: string, limit = 50): SearchItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items.slice(0, limit);
  const words = q.split(/\s+/);
  const rank = (i: SearchItem) => {
    const label = i.label.toLowerCase();
    return label.startsWith(q) ? 0 : label.includes(q) ? 1 : 2;
  };
  return items
    .filter((i) => words.every((w) => i.haystack.includes(w)))
    .map((item, order) => ({ item, order, rank: rank(item) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, limit)
    .map((r) => r.item);
}

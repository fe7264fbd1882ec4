/** What bench-watching counts: requests per node by endpoint over a phase of simulated time, and the rates from it. */
import type { RequestRecord } from '../../main/simulator';

export const NODES = ['pv1-1', 'pv1-2', 'pv1-3'];

/** One phase's count: requests per node by endpoint over `durationMs` of simulated time. */
export interface Tally {
  label: string;
  durationMs: number;
  /** node → endpoint → requests. */
  counts: Map<string, Map<string, number>>;
}

export interface WatchingOptions {
  minutes: number;
  bulk: number;
  timeScale: number;
  proxies: number;
  /** Of the proxies, how many are stopped (the rest run). */
  stopped: number;
}

export interface WatchingResult {
  options: WatchingOptions;
  visible: Tally;
  hidden: Tally;
  bulk: Tally;
  pveUi: Tally;
  pulse: Tally;
}

/** `GET /nodes/{node}/qemu/{vmid}/status/current`: the path with its node, VMID and UPID named, a listing's type kept. */
export function endpointOf(r: Pick<RequestRecord, 'method' | 'path' | 'query'>): string {
  const path = r.path
    .replace(/^\/nodes\/[^/]+/, '/nodes/{node}')
    .replace(/\/(qemu|lxc)\/\d+/, '/$1/{vmid}')
    .replace(/\/tasks\/UPID:[^/]+/, '/tasks/{upid}')
    .replace(/\/storage\/[^/]+\/(content|status|upload)/, '/storage/{storage}/$1');
  const type = r.path === '/cluster/resources' && r.query.type ? `?type=${r.query.type}` : '';
  return `${r.method} ${path}${type}`;
}

export function tally(label: string, records: readonly RequestRecord[], durationMs: number): Tally {
  const counts = new Map<string, Map<string, number>>();
  for (const r of records) {
    const n = r.loadNode ?? r.node ?? '?';
    const byEndpoint = counts.get(n) ?? new Map<string, number>();
    const e = endpointOf(r);
    byEndpoint.set(e, (byEndpoint.get(e) ?? 0) + 1);
    counts.set(n, byEndpoint);
  }
  return { label, durationMs, counts };
}

/** Requests per minute on one node (every endpoint), or on every node together without one. */
export function perMinute(t: Tally, onNode?: string, endpoints?: (e: string) => boolean): number {
  let n = 0;
  for (const [name, byEndpoint] of t.counts)
    if (onNode === undefined || name === onNode) for (const [e, c] of byEndpoint) if (!endpoints || endpoints(e)) n += c;
  return n / (t.durationMs / 60_000);
}

/** The busiest node's rate: the figure the goal is about (the load on each node's pveproxy). */
export const busiest = (t: Tally, endpoints?: (e: string) => boolean) => Math.max(...NODES.map((n) => perMinute(t, n, endpoints)));

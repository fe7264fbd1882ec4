/**
 * Issue 11: the create lookup, shared by the creates of a bulk and with the
 * placement that chose their nodes. Every create starts by listing the
 * cluster's VMs: to adopt a VM an earlier attempt left under the proxy's name
 * (spec entry 10) and to see which VMIDs are taken. A call that names no node
 * is answered by the node the URL reaches, so in a bulk of twenty the twenty
 * lookups queued at that one node's pace (pace.ts) behind its own creates'
 * writes, while a create on another node waited there with its node slot held
 * and its disk idle (scripts/bench-bulk.ts BENCH_TIMELINE: 6 s per node).
 *
 * So the lookup reads the whole `/cluster/resources` listing, the one
 * automatic placement and the landing rules read just before (they record
 * theirs here, `clusterListing`), and a listing asked for at most
 * LOOKUP_REUSE_MS ago serves a create when no operation of ours on that
 * proxy's name ended since it was asked for (KeyedLock.releasedSince): every
 * VM we made or changed under the name is then in it, which is what adoption
 * needs. What it can miss are VMs made since by others, which a lookup read
 * at once misses just the same between its answer and the clone (seconds,
 * under load); and VMIDs taken since, which the clone's "already exists"
 * answer settles (ownership.ts allocate reads the listing afresh then). Every
 * other read of the listing (after a vanished config, a taken VMID) is fresh.
 */
import type { CallOptions, PveApi } from '../../pve/api';
import type { ClusterResource, CoreContext } from '../calls/context';
import { readRecent, readsPer } from './recent-read';

export const LOOKUP_REUSE_MS = 10_000;

/** Per client: the last whole-cluster listing read through here, stamped with performance.now() (KeyedLock's clock). */
const readsOf = readsPer<PveApi, ClusterResource[]>();

/**
 * The whole `/cluster/resources` listing as read at most `maxAgeMs` ago, else read now; either way kept for the creates
 * that follow. Placement and the landing rules read it afresh (0, the default: what a user is offered is never from an
 * old read); the clone gate takes one up to a minute old (which storages are shared changes only with the cluster's
 * configuration: services/tasks/clone-gate.ts).
 */
export function clusterListing(api: PveApi, options: CallOptions & { maxAgeMs?: number } = {}): Promise<ClusterResource[]> {
  const { maxAgeMs = 0, ...call } = options;
  return readRecent(readsOf(api), 'all', {
    now: performance.now(),
    maxAgeMs,
    signal: call.signal,
    read: () => api.clusterResources(undefined, call),
  });
}

/** The cluster's VMs and containers for a create of `name`, whose lock the caller holds. */
export async function lookupListing(ctx: CoreContext, name: string, signal?: AbortSignal): Promise<ClusterResource[]> {
  const listing = await readRecent(readsOf(ctx.api), 'all', {
    now: performance.now(),
    maxAgeMs: LOOKUP_REUSE_MS,
    usable: (held) => !ctx.locks.releasedSince(name, held.at),
    signal,
    read: () => ctx.api.clusterResources(undefined, { signal }),
  });
  return listing.filter((r) => r.type === 'qemu' || r.type === 'lxc');
}

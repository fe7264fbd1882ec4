/**
 * The cluster-wide reads of the node check, shared by a cluster's nodes. The health poller checks each node on its
 * own poller (so a failing node backs off alone), through a one-node provider; the core's check asks, for every
 * node, two things that are the cluster's and not the node's: `GET /version` and `GET /cluster/resources?type=vm`
 * (the templates). Identical GETs in flight are already sent once by the client, but the pollers drift apart (each
 * waits its cadence after its own run ends), so on a 3-node cluster these were three of each per cycle
 * (bench:watching, issue 27 §3): 24 requests a minute where 16 say the same, window shown or hidden. Here the
 * templates' listing is kept for most of a cycle, so it is read once per cycle per cluster, and the version (which
 * changes with an upgrade) for 5 minutes; each node's own reads (its status, its
 * seed storage: what the node-unreachable alert needs) are untouched. A failed read is not kept, and `forget()`
 * (Check now) reads afresh.
 */
import type { PveApi } from '../../core';

export interface SharedReads {
  api: PveApi;
  /** The next reads go to Proxmox (the admin asked to check now). */
  forget(): void;
}

export interface KeepFor {
  /** The templates' listing: most of a cycle, so once per cycle. */
  resourcesMs: number;
  /** The version changes when the cluster is upgraded: kept longer. */
  versionMs: number;
}

export function shareClusterReads(api: PveApi, now: () => number, keep: KeepFor): SharedReads {
  const kept = new Map<string, { at: number; answer: Promise<unknown> }>();
  function shared<T>(key: string, keepMs: number, read: () => Promise<T>): Promise<T> {
    const hit = kept.get(key);
    if (hit && now() - hit.at < keepMs) return hit.answer as Promise<T>;
    const answer = read();
    kept.set(key, { at: now(), answer });
    answer.catch(() => {
      if (kept.get(key)?.answer === answer) kept.delete(key);
    });
    return answer;
  }
  const sharedApi = new Proxy(api, {
    get(target, prop) {
      if (prop === 'version')
        return (opts?: Parameters<PveApi['version']>[0]) => shared('version', keep.versionMs, () => target.version(opts));
      if (prop === 'clusterResources')
        return (type?: Parameters<PveApi['clusterResources']>[0], opts?: Parameters<PveApi['clusterResources']>[1]) =>
          shared(`resources:${type ?? ''}`, keep.resourcesMs, () => target.clusterResources(type, opts));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { api: sharedApi, forget: () => kept.clear() };
}

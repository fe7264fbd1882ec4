/**
 * A connected cluster as the services see it: a validated profile, its
 * Proxmox client and its provider. The profile service builds them from
 * the stored profiles (and the demo simulator); health, inventory, tasks
 * and cleanup only ever look clusters up here.
 */
import type { Profile, Provider, PveApi } from '../../core';
import { AppError } from '../../errors/app-error';
import type { DemoRoute } from '../proxy-check/service';

export interface Cluster {
  /** The profile's id. */
  id: string;
  /** The profile's display name. */
  name: string;
  profile: Profile;
  api: PveApi;
  provider: Provider;
  /** True for the built-in simulated cluster. */
  demo: boolean;
  /** The demo only: the loopback proxies standing in for its guests' proxies (services/demo/demo-proxies.ts). */
  demoProxies?: DemoStandIns;
  /**
   * True while the token secret a request needs is not held (a session-only secret after a restart, an imported
   * profile): the services then send nothing and report `secret-missing`, not a broken cluster. Absent: always held.
   */
  secretMissing?: () => boolean;
}

/** What the services ask of the demo's stand-in proxies; declared here so clusters import nothing from demo. */
export interface DemoStandIns {
  /** Where the check goes for the guest's port; undefined for a VMID the demo does not know. */
  route(vmid: number, port: number): Promise<DemoRoute | undefined>;
  /** The protocol and port the demo proxy VM's preset listens on. */
  endpoint(vmid: number): { protocol: 'http' | 'socks5'; port: number } | undefined;
}

export interface ClusterDirectory {
  list(): Cluster[];
  /** Throws a not-found AppError for an unknown id. */
  get(id: string): Cluster;
  /** Called whenever clusters are added, removed or rebuilt. */
  subscribe(listener: () => void): () => void;
}

/** A directory whose clusters are set from outside: the profile service owns one; tests build one directly. */
export class MutableClusterDirectory implements ClusterDirectory {
  private readonly clusters = new Map<string, Cluster>();
  private readonly listeners = new Set<() => void>();

  list(): Cluster[] {
    return [...this.clusters.values()];
  }

  get(id: string): Cluster {
    const cluster = this.clusters.get(id);
    if (!cluster)
      throw new AppError('not-found', `There is no cluster with id "${id}".`, 'Pick a cluster from the list; it may have been removed.');
    return cluster;
  }

  set(cluster: Cluster): void {
    this.clusters.set(cluster.id, cluster);
    this.notify();
  }

  remove(id: string): void {
    if (this.clusters.delete(id)) this.notify();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }
}

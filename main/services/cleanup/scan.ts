/**
 * The orphan-seed scan of one cluster: every `*-seed.iso` on the ISO
 * storage of every node, each with the reason it may go or must stay, and
 * beside them the marked VMs that never finished or lost their seed, and
 * the foreign VMs named like proxies. It reads and never changes anything.
 */
import type { CleanupReport, SeedRow, VmRow } from '../../../shared/channels/cleanup';
import { type ClusterResource, parseMark } from '../../core';
import type { Cluster } from '../clusters/cluster';
import { ageReasonToKeep, formatAge } from './age';
import { driveRefs, readConfigs, seedName, vmReasonToKeep, vmsToRead, type ConfigRead, type SeedVolume } from './references';

export interface ScanOptions {
  cluster: Cluster;
  graceMinutes: number;
  now: Date;
  /** Describes the task working on a name, if any. */
  busyWith: (name: string) => string | undefined;
  /** Whether this app's own Stop or Shut down stopped the VM last (it is stopped on purpose, not half-built). */
  stoppedHere?: (vmid: number, name: string) => boolean;
  signal?: AbortSignal;
}

export async function listSeeds(cluster: Cluster, node: string, signal?: AbortSignal): Promise<SeedVolume[]> {
  const { isoStorage } = cluster.profile;
  const volumes = await cluster.api.storageContent(node, isoStorage, 'iso', { signal });
  return volumes.flatMap((v) => {
    const name = seedName(isoStorage, v.volid);
    return name ? [{ node, volid: v.volid, name, size: v.size, ...(v.ctime !== undefined ? { ctime: v.ctime } : {}) }] : [];
  });
}

export function ageOf(seed: SeedVolume, now: Date): number | undefined {
  return seed.ctime === undefined ? undefined : Math.max(0, now.getTime() / 1000 - seed.ctime);
}

export async function scanCluster(o: ScanOptions): Promise<CleanupReport> {
  const { cluster, signal } = o;
  const problems: CleanupReport['problems'] = [];
  const resources = await cluster.api.clusterResources('vm', { signal });
  const seeds: SeedVolume[] = [];
  const listed = new Set<string>();
  for (const node of cluster.profile.nodes) {
    try {
      seeds.push(...(await listSeeds(cluster, node, signal)));
      listed.add(node);
    } catch (e) {
      signal?.throwIfAborted();
      problems.push({ node, message: `Its seeds could not be listed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  const proxyLike = resources.filter(isProxyLike);
  const toRead = vmsToRead(
    resources,
    new Set(seeds.map((s) => s.node)),
    new Set([...seeds.map((s) => s.name), ...proxyLike.map((r) => r.name!)]),
  );
  const reads = await readConfigs(cluster.api, toRead, signal);
  for (const r of reads)
    if ('error' in r) problems.push({ node: r.vm.node ?? '?', message: `VM ${r.vm.vmid} could not be read: ${r.error}` });

  const orphans: SeedRow[] = [];
  const kept: SeedRow[] = [];
  for (const seed of seeds) {
    const ageSeconds = ageOf(seed, o.now);
    const busy = o.busyWith(seed.name);
    const keep =
      vmReasonToKeep(seed.volid, seed.node, reads) ??
      (busy ? `${busy} is working on ${seed.name}.` : undefined) ??
      ageReasonToKeep(ageSeconds, o.graceMinutes);
    const row: SeedRow = {
      node: seed.node,
      volid: seed.volid,
      name: seed.name,
      sizeBytes: seed.size,
      ...(ageSeconds !== undefined ? { ageSeconds } : {}),
      reason: keep ?? '',
    };
    if (keep) kept.push(row);
    else
      orphans.push({
        ...row,
        reason: `No VM uses it, no task is working on ${seed.name}, and it is ${formatAge(ageSeconds!)} old (grace period ${o.graceMinutes} min).`,
      });
  }
  return {
    clusterId: cluster.id,
    scannedAt: o.now.toISOString(),
    graceMinutes: o.graceMinutes,
    orphans,
    kept,
    ...vmRows(o, reads, seeds, listed),
    problems,
  };
}

function isProxyLike(r: ClusterResource): boolean {
  return (
    r.type === 'qemu' &&
    !r.template &&
    !!r.name &&
    (r.name.startsWith('proxy-') || (r.tags ?? '').split(/[;, ]/).includes('proxy_operator'))
  );
}

function vmRows(
  o: ScanOptions,
  reads: ConfigRead[],
  seeds: SeedVolume[],
  listed: Set<string>,
): Pick<CleanupReport, 'halfBuilt' | 'missingSeed' | 'foreign'> {
  const halfBuilt: VmRow[] = [];
  const missingSeed: VmRow[] = [];
  const foreign: VmRow[] = [];
  const present = new Set(seeds.map((s) => s.volid));
  const ownSeed = (name: string) => `${o.cluster.profile.isoStorage}:iso/${name}-seed.iso`;
  for (const r of reads) {
    if (!('config' in r) || !isProxyLike(r.vm)) continue;
    const row = { node: r.vm.node!, vmid: r.vm.vmid!, name: r.vm.name! };
    const mark = parseMark(r.config.description);
    if (!mark.managed) {
      foreign.push({ ...row, reason: 'Named like a proxy but carries no Egress Desk mark: not ours, never touched.' });
      continue;
    }
    const busy = o.busyWith(row.name);
    const ageSeconds = mark.createdAt ? (o.now.getTime() - mark.createdAt.getTime()) / 1000 : undefined;
    const onPurpose = o.stoppedHere?.(row.vmid, row.name) ?? false;
    if (!busy && !onPurpose && r.vm.status === 'stopped' && (ageSeconds === undefined || ageSeconds >= o.graceMinutes * 60)) {
      const age = ageSeconds === undefined ? 'at an unknown time' : `${formatAge(ageSeconds)} ago`;
      halfBuilt.push({
        ...row,
        reason: `Marked as ours, made ${age} and stopped: a create that never finished, or a proxy stopped by hand. Start it, open its task (Resume or Clean up), or delete it.`,
      });
    }
    const refs = driveRefs(r.config).map((d) => d.volid);
    if (!refs.includes(ownSeed(row.name))) {
      if (!busy)
        missingSeed.push({ ...row, reason: 'Marked as ours but no seed is attached: a create cut off before its configure step.' });
    } else if (!busy && listed.has(row.node) && !present.has(ownSeed(row.name))) {
      missingSeed.push({
        ...row,
        reason: `Its CD-ROM points at ${ownSeed(row.name)}, which is not on the ISO storage: the guest cannot re-read its cloud-init.`,
      });
    }
  }
  return { halfBuilt, missingSeed, foreign };
}

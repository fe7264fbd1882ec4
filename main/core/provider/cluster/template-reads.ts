/**
 * Issue 11: one read of a template's config serves every create that
 * follows for a short while; placement reads it afresh (landing.ts
 * readLandingFacts) and the creates it starts use that read: a bulk reads
 * each node's template once, not once for the placement and again for the
 * first create.
 *
 * Why it may be reused: a bulk's creates all clone the same template, and none
 * of our writes changes it (a clone of a stopped source, as a template always
 * is, only takes a shared flock on it: qemu-server src/PVE/API2/Qemu.pm
 * clone_vm `$lock_source_vm`, `lock_config_shared`; the clone's config is
 * written to the new VMID). Short, so an edit made by hand in the Proxmox GUI
 * is seen by the next create soon after; a template the check refuses is
 * forgotten at once, so a fix is read by the next try.
 */
import type { PveApi } from '../../pve/api';
import type { VmConfig } from '../calls/context';
import { readRecent, readsPer } from './recent-read';

export const TEMPLATE_CONFIG_REUSE_MS = 30_000;

/** Per Proxmox client (one per cluster), `<node>/<vmid>` → the last read of that template's config. */
const readsOf = readsPer<PveApi, VmConfig>();

export function forgetTemplateConfig(api: PveApi, node: string, vmid: number): void {
  readsOf(api).delete(`${node}/${vmid}`);
}

/**
 * The template's config as read at most `maxAgeMs` ago (TEMPLATE_CONFIG_REUSE_MS by default; joining a read still on
 * the wire), else read now; either way kept for the creates that follow. Placement and the Create dialog read it
 * afresh (`maxAgeMs: 0`, landing.ts readLandingFacts), so what a user is offered is never from an old read, and the
 * bulk it starts reads each template no more.
 */
export function recentTemplateConfig(
  api: PveApi,
  node: string,
  vmid: number,
  o: { now?: () => number; signal?: AbortSignal | undefined; maxAgeMs?: number } = {},
): Promise<VmConfig> {
  return readRecent(readsOf(api), `${node}/${vmid}`, {
    now: (o.now ?? Date.now)(),
    maxAgeMs: o.maxAgeMs ?? TEMPLATE_CONFIG_REUSE_MS,
    signal: o.signal,
    read: () => api.vmConfig(node, vmid, { signal: o.signal }),
  });
}

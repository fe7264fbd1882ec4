/**
 * ListByTag (spec entry 12): one resources call covers every node, then one
 * config read per candidate for the mark. Candidates are named QEMU VMs, not
 * templates, tagged proxy_operator or named `proxy-…`; the mark decides. One
 * unreadable candidate is skipped; a failed listing or a cancel fails the
 * whole call rather than pass off a partial view as complete. Takes no lock.
 */
import type { CallOptions, ClusterResource, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { formatProviderId } from '../rules/ids';
import { parseMark } from '../rules/mark';
import { isTemplate } from '../cluster/resources';
import { PROXY_TAG, hasTag } from '../rules/tags';

export const PROXY_NAME_PREFIX = 'proxy-';

export interface ListedInstance {
  id: string;
  uid: string;
  createdAt: Date | undefined;
  node: string;
  vmid: number;
}

/** A nameless entry is a clone in progress: its create is still running. */
export function isCandidate(r: ClusterResource): boolean {
  if (r.type !== 'qemu' || isTemplate(r) || !r.name || r.vmid === undefined || !r.node) return false;
  return r.name.startsWith(PROXY_NAME_PREFIX) || hasTag(r.tags, PROXY_TAG);
}

export async function listByTag(ctx: CoreContext, options: CallOptions = {}): Promise<ListedInstance[]> {
  const { signal } = options;
  try {
    const resources = await ctx.api.clusterResources('vm', { signal });
    const out: ListedInstance[] = [];
    let skipped = 0;
    const candidates = resources.filter(isCandidate);
    for (const r of candidates) {
      const vmid = r.vmid!;
      const node = r.node!;
      let description: string | undefined;
      try {
        description = (await ctx.api.vmConfig(node, vmid, { signal })).description;
      } catch (e) {
        if (signal?.aborted) throw e;
        skipped++;
        ctx.log.info('skipping unreadable proxmox vm', { vmid, node, reason: toProviderError('list', e).message });
        continue;
      }
      const mark = parseMark(description);
      if (mark.managed) out.push({ id: formatProviderId(vmid, r.name!), uid: mark.uid, createdAt: mark.createdAt, node, vmid });
    }
    ctx.log.info('proxmox vms listed', { vms: resources.length, candidates: candidates.length, managed: out.length, skipped });
    return out;
  } catch (e) {
    throw toProviderError('list', e);
  }
}

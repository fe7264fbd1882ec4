/**
 * Where a create of an image can land on a cluster, read now (issue 11):
 * the core's landing rules (main/core/provider/cluster/landing.ts) over one listing
 * and each of the image's templates, plus the doctor's template rules on
 * each per-node template, so a node whose own template is unusable is not
 * offered. Read-only. Automatic placement and the Create dialog both use it.
 */
import type { NodeLanding } from '../../../shared/channels/placement';
import { judgeLandings, type Landing, ownEntry, readLandingFacts, templateProblems, templateVmidFor } from '../../core';
import { AppError } from '../../errors/app-error';
import type { Cluster } from '../clusters/cluster';

export async function landingsOf(cluster: Cluster, image: string, signal?: AbortSignal): Promise<Landing[]> {
  const { profile } = cluster;
  const entry = ownEntry(profile.templates, image);
  if (!entry)
    throw new AppError(
      'invalid-input',
      `There is no template "${image}" in this cluster's profile.`,
      'Pick a template from the list.',
      'template',
    );
  const facts = await readLandingFacts(
    cluster.api,
    profile.nodes.map((n) => templateVmidFor(entry, n)),
    signal,
  );
  const needs = { bridge: profile.bridge, vlanTag: profile.vlanTag, diskGiB: 1 };
  return judgeLandings(profile, entry, facts).map((l) => {
    // The default template is judged by the doctor in the template list; a per-node one only shows here.
    if (!l.ok || l.templateVmid === entry.vmid) return l;
    const config = facts.templates.get(l.templateVmid)?.config;
    const problem = config ? templateProblems(l.templateVmid, config, needs)[0] : undefined;
    if (!problem) return l;
    return {
      node: l.node,
      templateVmid: l.templateVmid,
      ok: false,
      reason: `its template here, ${l.templateVmid}, is not suitable: ${problem.message}`,
      hint: `Fix template ${l.templateVmid}, or remove it from the image's per-node templates so ${l.node} uses the default.`,
    };
  });
}

export function toNodeLanding(l: Landing): NodeLanding {
  return {
    node: l.node,
    ok: l.ok,
    templateVmid: l.templateVmid,
    ...(l.way ? { way: l.way } : {}),
    ...(l.cloneNode ? { cloneNode: l.cloneNode } : {}),
    ...(l.reason ? { reason: l.reason } : {}),
    ...(l.hint ? { hint: l.hint } : {}),
    ...(l.note ? { note: l.note } : {}),
    ...(l.extraSeconds !== undefined ? { extraSeconds: l.extraSeconds } : {}),
  };
}

/**
 * Issue 26: manifests taken in. The YAML is read by the pure reader
 * (shared/domain/operator-import.ts); each Proxy must fit the chosen
 * cluster's catalogue (its image a template key, its machine type a key, its
 * zone a node), or nothing is made and every misfit is said. Then each is
 * made as the app's own proxy, with the same name, placement and cloud-init,
 * through the ordinary create request (one task each).
 *
 * Each providers-config entry comes back as an offer of a new cluster profile
 * (the draft is the pure reader's), with the saved cluster that already
 * talks to its URL, so the window offers that one instead of a duplicate.
 */
import type { HandoffImportInput, HandoffImportResult } from '../../../shared/channels/handoff';
import type { CreateProxiesInput } from '../../../shared/channels/tasks';
import { importOperatorYaml, type ImportedProxy } from '../../../shared/domain/operator-import';
import { profileWithUrl } from '../../../shared/domain/operator-profile';
import type { ProfileSummary } from '../../../shared/domain/profile';

export interface ImportDeps {
  profile(clusterId: string): ProfileSummary;
  /** Every saved cluster (the demo's too), to find one that already talks to an entry's URL. */
  profiles?(): Promise<readonly ProfileSummary[]>;
  createProxies(input: CreateProxiesInput): Promise<{ parentId?: string; taskIds: string[] }>;
}

function misfits(p: ImportedProxy, profile: ProfileSummary): string[] {
  const out: string[] = [];
  if (!profile.templates[p.template]) out.push(`${p.name}: image "${p.template}" is not a template of ${profile.name} (it has ${Object.keys(profile.templates).join(', ') || 'none'})`);
  if (!profile.machineTypes[p.machineType]) out.push(`${p.name}: machine type "${p.machineType}" is not one of ${profile.name}'s (${Object.keys(profile.machineTypes).join(', ') || 'none'})`);
  if (p.node !== undefined && profile.nodes.length > 0 && !profile.nodes.includes(p.node)) out.push(`${p.name}: zone "${p.node}" is not a node of ${profile.name}`);
  return out;
}

export async function importManifests(input: HandoffImportInput, deps: ImportDeps): Promise<HandoffImportResult> {
  const read = importOperatorYaml(input.yaml);
  const profile = deps.profile(input.clusterId);
  const problems = [...read.problems, ...read.proxies.flatMap((p) => misfits(p, profile))];
  const saved = read.offers.length > 0 && deps.profiles ? await deps.profiles() : [];
  const result: HandoffImportResult = {
    proxies: read.proxies.map((p) => ({ name: p.name, ...(p.node ? { node: p.node } : {}), template: p.template, machineType: p.machineType, port: p.port })),
    providers: read.providers.map((e) => ({ name: e.name, url: e.proxmox.url })),
    offers: read.offers.map((o) => {
      const existing = o.url !== undefined ? profileWithUrl(o.url, saved) : undefined;
      return { ...o, ...(existing ? { existing: { id: existing.id, name: existing.name } } : {}) };
    }),
    problems,
    taskIds: [],
  };
  if (!input.create || problems.length > 0 || read.proxies.length === 0) return result;
  for (const p of read.proxies) {
    const started = await deps.createProxies({
      clusterId: input.clusterId,
      ...(p.node ? { node: p.node } : {}),
      template: p.template,
      machineType: p.machineType,
      name: p.name,
      count: 1,
      cloudInit: p.cloudInit,
    });
    result.taskIds.push(...started.taskIds);
  }
  return result;
}

/**
 * The doctor's discovery step: nodes, ISO storages, templates with their
 * verdicts, bridges, and room in the VMID range, read with the token. Each
 * call that fails is listed; what was read still counts.
 */
import { type ClusterResource, isApiError, missingPrivilege, type PveApi, templateVmidFor } from '../../core';
import type { CatalogueTemplateCheck, DiscoverySection, SuggestedProfile, TemplateVerdict } from '../../../shared/channels/doctor';
import { BRIDGE_NAME } from '../../../shared/domain/profile';
import type { DoctorConnection } from './ports';
import { chooseSeedStorage, DEDICATED_STORAGE_COMMAND, type SeedStorageChoice } from './seed-storage';
import { errorText, passed, blocked } from './section';
import { suggestedCatalogue, templateVerdict } from './template-verdicts';
import { DEFAULT_VMID_RANGE, vmidRoom } from './vmid-room';

type Data = DiscoverySection['data'];
export type Choices = Pick<DoctorConnection, 'nodes' | 'isoStorage' | 'bridge' | 'vlanTag' | 'vmidRange' | 'diskGiB' | 'templates'>;

export interface DiscoveryOutcome {
  section: DiscoverySection;
  seedStorage?: SeedStorageChoice;
  suggestion: Omit<SuggestedProfile, 'url' | 'tls' | 'tokenId'>;
}

/** A failed read as one line an admin can act on. */
function problemOf(what: string, e: unknown): string {
  const missing = missingPrivilege(e);
  if (missing) return `${what}: the token lacks ${missing.privilege} on ${missing.path}`;
  return `${what}: ${isApiError(e) ? e.describe() : errorText(e)}`;
}

async function attempt<T>(what: string, problems: string[], fn: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    signal?.throwIfAborted();
    problems.push(problemOf(what, e));
    return undefined;
  }
}

async function readNodes(api: PveApi, nodes: string[], data: Data, signal?: AbortSignal): Promise<void> {
  await Promise.all(
    nodes.map(async (node) => {
      const storages = await attempt(`storages of ${node}`, data.problems, () => api.storageList(node, { signal }), signal);
      for (const s of storages ?? []) {
        if (!s.content.includes('iso')) continue;
        data.isoStorages.push({
          node,
          storage: s.storage,
          type: s.type,
          content: s.content,
          shared: s.shared ?? false,
          active: s.active !== false && s.enabled !== false,
          ...(s.avail !== undefined ? { availBytes: s.avail } : {}),
          dedicated: s.content.every((c) => c === 'iso'),
        });
      }
      const bridges = await attempt(`bridges of ${node}`, data.problems, () => api.network(node, 'bridge', { signal }), signal);
      for (const b of bridges ?? []) data.bridges.push({ node, iface: b.iface, vlanAware: b.bridge_vlan_aware ?? false });
    }),
  );
}

async function readTemplates(
  api: PveApi,
  resources: readonly ClusterResource[],
  choices: Choices,
  nodes: readonly string[],
  bridge: string | undefined,
  data: Data,
  signal?: AbortSignal,
) {
  const templates = resources.filter((r) => r.type === 'qemu' && r.template === true && r.vmid !== undefined && r.node !== undefined);
  const needs = { bridge, vlanTag: choices.vlanTag, diskGiB: choices.diskGiB ?? 1 };
  for (const t of templates.sort((a, b) => a.vmid! - b.vmid!)) {
    const config = await attempt(`config of template ${t.vmid}`, data.problems, () => api.vmConfig(t.node!, t.vmid!, { signal }), signal);
    if (config) data.templates.push(templateVerdict(t.vmid!, t.node!, config, needs));
  }
  if (choices.templates) data.catalogue = await judgeCatalogue(api, resources, choices, nodes, needs, data, signal);
}

/**
 * The profile's catalogue, per node: for each entry and each node (the
 * profile's, and any its `perNode` names), the VMID a create there clones,
 * with its verdict. A catalogue VMID that is a plain VM (not converted) is
 * judged too, so its verdict says "make it a template"; one that is not
 * listed at all has no verdict.
 */
async function judgeCatalogue(
  api: PveApi,
  resources: readonly ClusterResource[],
  choices: Choices,
  nodes: readonly string[],
  needs: Parameters<typeof templateVerdict>[3],
  data: Data,
  signal?: AbortSignal,
): Promise<CatalogueTemplateCheck[]> {
  const judged = new Map<number, TemplateVerdict | undefined>(data.templates.map((t) => [t.vmid, t]));
  const verdictOf = async (vmid: number): Promise<TemplateVerdict | undefined> => {
    if (judged.has(vmid)) return judged.get(vmid);
    const vm = resources.find((r) => r.type === 'qemu' && r.vmid === vmid && r.node !== undefined);
    const config = vm
      ? await attempt(`config of VM ${vmid}`, data.problems, () => api.vmConfig(vm.node!, vmid, { signal }), signal)
      : undefined;
    const verdict = vm && config ? templateVerdict(vmid, vm.node!, config, needs) : undefined;
    judged.set(vmid, verdict);
    return verdict;
  };
  const rows: CatalogueTemplateCheck[] = [];
  const entries = Object.entries(choices.templates ?? {}).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, entry] of entries) {
    const named = entry.perNode ? Object.keys(entry.perNode) : [];
    for (const node of [...new Set([...nodes, ...named])].sort()) {
      const vmid = templateVmidFor(entry, node);
      const verdict = await verdictOf(vmid);
      rows.push({ key, node, vmid, perNode: named.includes(node), ...(verdict ? { verdict } : {}) });
    }
  }
  return rows;
}

/**
 * Proxmox's own name for what the URL reaches (GET /cluster/status): the `type: cluster` entry's
 * name, or for a node in no cluster (a single node entry, no cluster entry) that node's name.
 * Only a default for the wizard's name field, so a refused read (Sys.Audit on /, which the
 * privilege check names anyway) leaves it unset and is not counted as a failed read.
 */
async function clusterNameOf(api: PveApi, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const entries = await api.clusterStatus({ signal });
    const cluster = entries.find((e) => e.type === 'cluster');
    if (cluster) return cluster.name;
    const nodes = entries.filter((e) => e.type === 'node');
    return nodes.length === 1 ? nodes[0]!.name : undefined;
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}

/** The profile's bridge, else vmbr0, else the first bridge every node has whose name a profile can hold. */
function chooseBridge(data: Data, nodes: readonly string[], wanted?: string): { iface: string; vlanAware: boolean } | undefined {
  const onAll = (iface: string) => nodes.every((n) => data.bridges.some((b) => b.node === n && b.iface === iface));
  const names = [...new Set(data.bridges.map((b) => b.iface))].filter((iface) => onAll(iface) && BRIDGE_NAME.test(iface)).sort();
  const iface = wanted ?? (names.includes('vmbr0') ? 'vmbr0' : names[0]);
  if (!iface || !onAll(iface)) return undefined;
  return { iface, vlanAware: data.bridges.filter((b) => b.iface === iface).every((b) => b.vlanAware) };
}

function verdict(
  data: Data,
  choices: Choices,
  seed: SeedStorageChoice | undefined,
  bridge: ReturnType<typeof chooseBridge>,
): DiscoverySection {
  const fail: string[] = [];
  const warn: string[] = [];
  const hints: string[] = [];
  const offline = data.nodes.filter((n) => n.status !== 'online').map((n) => n.node);
  if (offline.length > 0) warn.push(`node(s) ${offline.join(', ')} are not online`);
  if (!seed) {
    fail.push(
      choices.isoStorage
        ? `storage ${choices.isoStorage} does not hold ISO images on every node`
        : 'no storage the token can see (Datastore.Audit) holds ISO images on every node',
    );
    hints.push(`Create a dedicated seed storage: \`${DEDICATED_STORAGE_COMMAND}\`.`);
  } else if (!seed.dedicated) {
    warn.push(`the seed storage ${seed.storage} is not dedicated to ISO images`);
    hints.push(`Create a dedicated seed storage: \`${DEDICATED_STORAGE_COMMAND}\`.`);
  }
  const suitable = data.templates.filter((t) => t.suitable);
  // No suitable template yet is a normal first state (a new cluster): a warning, with the builder as the way out.
  let lead = '';
  if (suitable.length === 0) {
    lead =
      data.templates.length === 0
        ? 'No suitable template was found (the cluster has no template yet, or the token cannot see them: VM.Audit). The template builder can make one: Build a template.'
        : `No suitable template was found: none of the ${data.templates.length} template(s) is suitable (see each one's reasons). The template builder can make one: Build a template.`;
    warn.push('no suitable template');
    hints.push(
      data.templates.length === 0
        ? 'Build a template makes one from a cloud image (Debian or Ubuntu) over the API.'
        : 'Build a template makes one from a cloud image over the API, or fix a listed template as its reasons say.',
    );
  }
  for (const row of data.catalogue ?? []) {
    const which = `template "${row.key}" for ${row.node} (VMID ${row.vmid}${row.perNode ? ', its own' : ''})`;
    if (!row.verdict) warn.push(`the catalogue's ${which} was not found`);
    else if (!row.verdict.suitable)
      warn.push(`the catalogue's ${which} is not suitable: ${row.verdict.problems.map((p) => p.message).join('; ')}`);
  }
  if (!bridge) fail.push(choices.bridge ? `bridge ${choices.bridge} is not on every node` : 'no bridge is on every node');
  else if (choices.vlanTag !== undefined && !bridge.vlanAware) {
    warn.push(`bridge ${bridge.iface} is not VLAN-aware, but the profile sets VLAN ${choices.vlanTag}`);
    hints.push(`Make ${bridge.iface} VLAN-aware (node → System → Network → ${bridge.iface} → VLAN aware).`);
  }
  if (data.vmidRange.free < 10) warn.push(`only ${data.vmidRange.free} free VMIDs in ${data.vmidRange.min}-${data.vmidRange.max}`);
  if (data.problems.length > 0) warn.push(`${data.problems.length} read(s) failed`);
  const found = `${data.nodes.length} node(s), ${suitable.length}/${data.templates.length} suitable template(s), seed storage ${seed?.storage ?? 'none'}, bridge ${bridge?.iface ?? 'none'}, ${data.vmidRange.free} free VMIDs`;
  const opening = lead ? `${lead} ` : '';
  const notes = warn.filter((w) => !(lead && w === 'no suitable template'));
  const base =
    fail.length > 0
      ? blocked(
          'fail',
          `${opening}Found ${found}. Missing: ${[...fail, ...notes].join('; ')}.`,
          hints.join(' ') || 'Fix what is listed, then run the check again.',
        )
      : passed(
          warn.length > 0 ? 'warn' : 'ok',
          `${opening}Found ${found}.${notes.length > 0 ? ` Note: ${notes.join('; ')}.` : ''}`,
          hints.join(' '),
        );
  return { ...base, data };
}

export async function discover(api: PveApi, choices: Choices, signal?: AbortSignal): Promise<DiscoveryOutcome> {
  const range = choices.vmidRange ?? DEFAULT_VMID_RANGE;
  const data: Data = { nodes: [], isoStorages: [], templates: [], bridges: [], vmidRange: vmidRoom([], range), problems: [] };
  const listed = (await attempt('list nodes', data.problems, () => api.nodes({ signal }), signal)) ?? [];
  data.nodes = listed.map((n) => ({ node: n.node, status: n.status })).sort((a, b) => a.node.localeCompare(b.node));
  const nodes = choices.nodes ?? data.nodes.filter((n) => n.status === 'online').map((n) => n.node);
  await readNodes(api, nodes, data, signal);
  const bridge = chooseBridge(data, nodes, choices.bridge);
  const resources = (await attempt('list VMs', data.problems, () => api.clusterResources('vm', { signal }), signal)) ?? [];
  data.vmidRange = vmidRoom(resources, range);
  await readTemplates(api, resources, choices, nodes, bridge?.iface ?? choices.bridge, data, signal);
  const seedStorage = chooseSeedStorage(data.isoStorages, nodes, choices.isoStorage);
  if (seedStorage) data.seedStorage = seedStorage;
  const templates = suggestedCatalogue(data.templates);
  const clusterName = await clusterNameOf(api, signal);
  return {
    section: verdict(data, choices, seedStorage, bridge),
    ...(seedStorage ? { seedStorage } : {}),
    suggestion: {
      nodes,
      ...(seedStorage ? { isoStorage: seedStorage.storage, isoStorageReason: seedStorage.reason } : {}),
      templates,
      ...(bridge ? { bridge: bridge.iface, bridgeVlanAware: bridge.vlanAware } : {}),
      vmidRange: { min: range.min, max: range.max },
      vmidFree: data.vmidRange.free,
      ...(clusterName ? { clusterName } : {}),
    },
  };
}

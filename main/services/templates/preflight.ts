/**
 * The template builder's reads (issue 14): the preflight (reads only) and
 * the whole build request with the profile's defaults filled in, so the
 * form may send little. The channels are in handlers.ts.
 */
import type { BuildPreflightView, BuildRequestRecord, BuildTemplateInput } from '../../../shared/channels/templates';
import { customImageUrlProblem } from '../../../shared/domain/custom-image-url';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import { type BuildTemplateRequest, preflightVerdict, readPreflightFacts, type StorageEntry } from '../../core';
import { AppError } from '../../errors/app-error';
import type { Cluster } from '../clusters/cluster';
import { buildApiOf } from '../tasks/runners/build-template';

const FILE_BASED = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'btrfs', 'glusterfs']);
const isActive = (s: StorageEntry) => s.active !== false && s.enabled !== false;

function checkInput(cluster: Cluster, input: BuildTemplateInput): void {
  if (!cluster.profile.nodes.includes(input.node))
    throw new AppError('invalid-input', `The node "${input.node}" is not in this cluster's profile.`, 'Pick a node from the list.', 'node');
  if (input.image.kind === 'catalogue' && !catalogueImage(input.image.id))
    throw new AppError('invalid-input', `There is no image "${input.image.id}" in the catalogue.`, 'Pick an image from the list.', 'image');
  if (input.image.kind === 'custom') {
    const problem = customImageUrlProblem(input.image.url);
    if (problem) throw new AppError('invalid-input', problem, 'Enter the http(s) URL of a .qcow2, .img, .raw or .vmdk cloud image.', 'url');
  }
}

/** The disk storage: the one asked, else the profile's when the node has it for disks, else the node's first active one for disks. */
function defaultTarget(cluster: Cluster, storages: readonly StorageEntry[]): string {
  const forDisks = storages.filter((s) => isActive(s) && s.content.includes('images'));
  const own = cluster.profile.storage;
  if (own && forDisks.some((s) => s.storage === own)) return own;
  return forDisks[0]?.storage ?? own ?? 'local-lvm';
}

export function tokenIdOf(cluster: Cluster): string {
  const t = cluster.profile.token;
  return t.kind === 'secret' ? t.tokenId : '<token id>';
}

/** The whole request with the profile's defaults filled in: what the journal keeps and a resume sends again. */
export async function requestFor(
  cluster: Cluster,
  input: BuildTemplateInput,
  buildId: string,
  signal?: AbortSignal,
): Promise<{ request: BuildRequestRecord; storages: StorageEntry[] }> {
  checkInput(cluster, input);
  const storages = await cluster.api.storageList(input.node, { signal });
  const p = cluster.profile;
  const request: BuildRequestRecord = {
    buildId,
    node: input.node,
    image: input.image,
    ...(input.checksum ? { checksum: { algorithm: input.checksum.algorithm, value: input.checksum.value.trim().toLowerCase() } } : {}),
    ...(input.importStorage ? { importStorage: input.importStorage } : {}),
    targetStorage: input.targetStorage ?? defaultTarget(cluster, storages),
    bridge: input.bridge ?? p.bridge ?? 'vmbr0',
    ...(input.vlanTag !== undefined ? { vlanTag: input.vlanTag } : {}),
    ...(input.vmid !== undefined ? { vmid: input.vmid } : {}),
    ...(input.name ? { name: input.name } : {}),
    ...(input.cores !== undefined ? { cores: input.cores } : {}),
    ...(input.memoryMiB !== undefined ? { memoryMiB: input.memoryMiB } : {}),
    ...(input.keepImage !== undefined ? { keepImage: input.keepImage } : {}),
    ...(input.verifyCertificates !== undefined ? { verifyCertificates: input.verifyCertificates } : {}),
    proxyRange: p.vmidRange,
    tokenId: tokenIdOf(cluster),
  };
  return { request, storages };
}

export async function templatePreflight(cluster: Cluster, input: BuildTemplateInput, signal?: AbortSignal): Promise<BuildPreflightView> {
  const { request } = await requestFor(cluster, input, 'preflight', signal);
  const api = buildApiOf(cluster);
  const core: BuildTemplateRequest = { ...request };
  const facts = await readPreflightFacts(api, core, signal);
  const v = preflightVerdict(core, facts);
  const listed = catalogueImage(v.image.id);
  return {
    ok: v.ok,
    path: v.path,
    node: v.node,
    ...(v.release ? { release: v.release } : {}),
    ...(v.reason ? { reason: v.reason } : {}),
    image: {
      id: v.image.id,
      label: v.image.label,
      url: v.image.url,
      fileName: v.image.fileName,
      ...(v.image.approxBytes !== undefined ? { approxBytes: v.image.approxBytes } : {}),
    },
    ...(listed
      ? { checksumList: { algorithm: listed.checksum.algorithm, url: listed.checksum.listUrl, entry: listed.checksum.listEntry } }
      : {}),
    vmid: v.vmid,
    name: v.name,
    ...(v.importStorage ? { importStorage: v.importStorage } : {}),
    targetStorage: v.targetStorage,
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    ...(v.existingImage ? { existingImage: v.existingImage } : {}),
    blockers: v.blockers,
    warnings: v.warnings,
    privileges: v.privileges,
    grantCommands: v.grantCommands,
    ...(v.shell ? { shell: v.shell } : {}),
    storages: facts.storages.map((s) => ({
      storage: s.storage,
      type: s.type,
      content: [...s.content],
      ...(s.avail !== undefined ? { availBytes: s.avail } : {}),
      active: isActive(s),
      importContent: s.content.includes('import'),
      fileBased: FILE_BASED.has(s.type),
      images: s.content.includes('images'),
    })),
    bridges: facts.bridges ?? [],
    catalogueKey: v.image.id === 'custom' ? v.name.replace(/-template$/, '') : v.image.id,
  };
}
